// The account page's moderation notices: a warning the player must acknowledge, and every ban or
// mute in force with what it covers, until when, and why (GET /api/players/me/moderation).
import { api } from "./api.js";
import { t } from "./i18n.js";
import { el } from "./people.js";
import { asPlayer, loadPlayer } from "./player.js";

const when = (iso) => new Date(iso).toLocaleString(document.documentElement.lang || undefined);

async function show() {
  const slot = document.getElementById("moderation-notices");
  const me = loadPlayer();
  if (!slot || !me) return;
  let found;
  try {
    found = await api("/api/players/me/moderation", { headers: asPlayer(me) });
  } catch {
    return;  // nothing to show when it cannot be read
  }
  const notices = [];
  for (const s of found.sanctions) {
    const what = s.scope === "chat"
      ? t("moderation.notice.muted", { until: when(s.until) })
      : t("moderation.notice.banned", { scope: t(`moderation.notice.scopes.${s.scope}`), until: when(s.until) });
    notices.push(el("section", { className: "panel mod-notice", role: "alert" },
      el("p", {}, el("strong", { textContent: what })),
      el("p", { textContent: t("moderation.notice.why", { reason: s.reason }) })));
  }
  for (const w of found.warnings) {
    const ack = el("button", { className: "btn btn-primary", type: "button", textContent: t("moderation.notice.ack") });
    const box = el("section", { className: "panel mod-notice", role: "alert" },
      el("h2", { textContent: t("moderation.notice.warning") }),
      el("p", { textContent: t("moderation.notice.why", { reason: w.reason }) }), el("p", {}, ack));
    ack.addEventListener("click", async () => {
      ack.disabled = true;
      try {
        await api(`/api/players/me/moderation/${w.action_id}/ack`, { method: "POST", headers: asPlayer(me) });
        box.remove();
      } catch {
        ack.disabled = false;
      }
    });
    notices.push(box);
  }
  slot.replaceChildren(...notices);
}

show();
