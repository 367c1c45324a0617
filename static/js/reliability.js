// Reliability on the lobby page (issue 43): the notice of a ban in force — what it closes, until
// when (in the reader's time zone and language) and why — shown instead of buttons that would
// fail; each entry's reliability figure; and the filter that hides challenges from players who
// often leave games, remembered in this browser.
import { api } from "./api.js";
import { BOOT, t } from "./i18n.js";

export const LOW = 80;  // a figure under this is "low": the filter hides such challenges
export const SHOWN = ["lobby", "pairing", "rated"];  // the scopes the lobby page is about
const FILTER_KEY = "wg.lobby.hideLowReliability";

export const hideLow = () => { try { return localStorage.getItem(FILTER_KEY) === "1"; } catch { return false; } };
export function setHideLow(on) { try { localStorage.setItem(FILTER_KEY, on ? "1" : "0"); } catch { /* private mode: this visit only */ } }

/** Whether the filter hides this challenge (never one's own, nor a newcomer's without a figure). */
export const filtered = (c, mine) => !mine && hideLow() && c.creator.reliability != null && c.creator.reliability < LOW;

export const figureText = (value) => t("reliability.figure", { value });

/** "14 Dec 2026, 15:42" in the reader's language and time zone. */
export function when(iso) {
  return new Intl.DateTimeFormat(BOOT.lang || "en", { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

/** "in 10 minutes", "in 3 hours", "in 2 days". */
export function fromNow(iso, now = Date.now()) {
  const seconds = Math.max(0, (new Date(iso).getTime() - now) / 1000);
  const format = new Intl.RelativeTimeFormat(BOOT.lang || "en", { numeric: "always" });
  if (seconds < 3600) return format.format(Math.max(1, Math.ceil(seconds / 60)), "minute");
  if (seconds < 2 * 86400) return format.format(Math.round(seconds / 3600), "hour");
  return format.format(Math.round(seconds / 86400), "day");
}

const para = (text, className = "") => Object.assign(document.createElement("p"), { textContent: text, className });

/** Fill `box` with the notice of `running` (the sanctions of SHOWN scopes), or hide it. */
export function showNotice(box, running) {
  box.hidden = running.length === 0;
  if (!running.length) { box.replaceChildren(); return; }
  const last = running[0];  // the one ending last (the API's order)
  const closed = new Set(running.map((s) => s.scope));
  const scopes = SHOWN.filter((s) => closed.has(s)).map((s) => t(`reliability.scopes.${s}`));
  const list = new Intl.ListFormat(BOOT.lang || "en", { type: "conjunction" }).format(scopes);
  const title = Object.assign(document.createElement("h2"), { id: "ban-title", textContent: t("reliability.ban_title") });
  const until = para(t("reliability.ban_until", { time: when(last.until), relative: fromNow(last.until) }), "ban-until");
  const why = running.some((s) => s.source === "abandonment")
    ? t("reliability.ban_why_abandonment")
    : t("reliability.ban_why", { reason: last.reason });
  box.replaceChildren(title, until, para(t("reliability.ban_closed", { scopes: list })), para(why, "ban-why"), para(t("reliability.ban_still"), "muted"));
}

/** The caller's sanctions of SHOWN scopes running now ([] for a guest, or when unknown). */
export async function running(headers) {
  try {
    const found = await api("/api/players/me/sanctions", { headers });
    return found.sanctions.filter((s) => SHOWN.includes(s.scope));
  } catch { return []; }
}
