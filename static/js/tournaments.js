// The tournaments page (/tournaments): running, upcoming and finished public tournaments of one
// game or all (?game=), and the form to create one (the server says who may: moderators, or
// players with 20 rated games of the game).
import { api } from "./api.js";
import { t } from "./i18n.js";
import { el } from "./people.js";
import { asPlayer, loadPlayer } from "./player.js";

const $ = (id) => document.getElementById(id);
export const when = (iso) => new Date(iso).toLocaleString(document.documentElement.lang || undefined, { dateStyle: "medium", timeStyle: "short" });

/** What a tournament is, in one line: game, format, clock, length, rated. */
export function facts(tour) {
  return [
    t(`games.${tour.game}`), t(`tournaments.${tour.format}`), t(`tournaments.clock.${tour.clock}`),
    tour.minutes ? t("tournaments.minutes", { count: tour.minutes }) : null,
    tour.rounds ? t("tournaments.rounds_count", { count: tour.rounds }) : null,
    tour.table_size ? `${t("tournaments.table_size")}: ${tour.table_size}` : null,
    tour.round_days ? t("tournaments.round_days_count", { count: tour.round_days }) : null,
    t(tour.rated ? "tournaments.rated" : "tournaments.casual"),
    tour.private ? t("tournaments.private") : null,
  ].filter(Boolean).join(" · ");
}

/** A game's stored points as the standings show them (a Swiss counts half points, table rounds
 * 60ths of a point). */
export const pointsShown = (format, points) => Math.round((100 * points) / ({ swiss: 2, tables: 60 }[format] || 1)) / 100;

/** A problem as the reader's language says it, when the code is one we know. */
export function said(err) {
  const key = `tournaments.errors.${err.code}`;
  const found = t(key);
  return found === key ? err.message : found;
}

function line(tour, status) {
  const time = status === "upcoming" ? t("tournaments.starts_at", { when: when(tour.starts_at) })
    : status === "finished" ? t("tournaments.ended_at", { when: when(tour.finished_at || tour.starts_at) })
    : tour.rounds ? t("tournaments.round_of", { round: tour.round, rounds: tour.rounds })
    : t("tournaments.ends_in", { time: t("tournaments.minutes", { count: Math.max(0, Math.round((Date.parse(tour.ends_at) - Date.now()) / 60000)) }) });
  return el("li", { className: "t-item" },
    el("a", { className: "t-title", href: `/tournaments/${encodeURIComponent(tour.tournament_id)}`, textContent: tour.name }),
    el("span", { className: "muted", textContent: facts(tour) }),
    el("span", { className: "muted", textContent: `${t("tournaments.players", { count: tour.players })} · ${time}` }));
}

async function show() {
  const game = new URLSearchParams(location.search).get("game");
  const chosen = game === "watergate" || game === "nations" ? game : "";
  for (const tab of document.querySelectorAll("#t-games a")) {
    if (tab.dataset.game === chosen) tab.setAttribute("aria-current", "page");
  }
  const found = await api(`/api/tournaments${chosen ? `?game=${chosen}` : ""}`);
  for (const status of ["running", "upcoming", "finished"]) {
    $(`t-${status}`).replaceChildren(...found[status].map((tour) => line(tour, status)));
    $(`t-${status}-none`).hidden = found[status].length > 0;
  }
  $("tournaments").setAttribute("aria-busy", "false");
}

/** A correspondence round format: its rounds have a length in days. */
const byMail = (f) => f.format.value !== "arena" && f.clock.value.startsWith("turn");

/** Show the fields of the chosen format: an arena's length; rounds (and a table's size, and a
 * correspondence round's length). */
function fitForm(form) {
  const format = form.elements.format.value;
  for (const option of form.elements.clock.options) option.disabled = format === "arena" && "roundsOnly" in option.dataset;
  if (form.elements.clock.selectedOptions[0]?.disabled) form.elements.clock.value = "realtime-15";
  for (const label of form.querySelectorAll("[data-for]")) {
    const wanted = label.dataset.for;
    label.hidden = !(wanted === format || (wanted === "rounds" && format !== "arena") || (wanted === "round_days" && byMail(form.elements)));
  }
  if (format === "tables") form.elements.game.value = "nations";
}

function prepareForm() {
  const form = $("t-create");
  form.elements.format.addEventListener("change", () => fitForm(form));
  form.elements.clock.addEventListener("change", () => fitForm(form));
  fitForm(form);
  const soon = new Date(Date.now() + 15 * 60000);
  soon.setSeconds(0, 0);
  const local = new Date(soon.getTime() - soon.getTimezoneOffset() * 60000);
  form.elements.starts_at.value = local.toISOString().slice(0, 16);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    $("t-create-error").hidden = true;
    const f = form.elements;
    const format = f.format.value;
    const body = {
      name: f.name.value.trim(), game: f.game.value, format, clock: f.clock.value,
      starts_at: new Date(f.starts_at.value).toISOString(),
      minutes: format === "arena" ? Number(f.minutes.value) : null,
      rounds: format === "arena" ? null : Number(f.rounds.value),
      table_size: format === "tables" ? Number(f.table_size.value) : null,
      round_days: byMail(f) ? Number(f.round_days.value) : null,
      max_players: Number(f.max_players.value), rated: f.rated.checked, private: f.private.checked,
      min_rating: f.min_rating.value ? Number(f.min_rating.value) : null,
      min_games: f.min_games.value ? Number(f.min_games.value) : null,
    };
    try {
      const made = await api("/api/tournaments", { method: "POST", body, headers: asPlayer(loadPlayer()) });
      const path = `/tournaments/${encodeURIComponent(made.tournament_id)}`;
      if (made.join_code) {
        const link = `${location.origin}${path}?code=${encodeURIComponent(made.join_code)}`;
        Object.assign($("t-created-link"), { href: link, textContent: link });
        $("t-created").hidden = false;
      } else location.assign(path);
    } catch (err) {
      $("t-create-error").textContent = said(err);
      $("t-create-error").hidden = false;
    }
  });
}

if ($("tournaments")) {
  prepareForm();
  show().catch(() => $("tournaments").setAttribute("aria-busy", "false"));
}
