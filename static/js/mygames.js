// The home page's "my games": this browser's player's ongoing matches (those where it is its
// turn first, marked), then its newest finished ones with their replays. Hidden when empty.
import { api } from "./api.js";
import { t } from "./i18n.js";
import { asPlayer, loadPlayer } from "./player.js";
import { matchHead } from "./matchhead.js";
import { el, personName } from "./people.js";

const box = document.getElementById("my-games");

function badge(m) {
  if (m.status === "waiting") return el("span", { className: "badge quiet", textContent: t("account.mine.waiting") });
  if (m.your_turn) return el("span", { className: "badge", textContent: t("account.mine.your_turn") });
  return el("span", { className: "badge quiet", textContent: t("account.mine.their_turn") });
}

function line(href, text, extra, mine) {
  return el("li", {}, el("a", { href, className: mine ? "turn-mine" : "" }, el("span", { textContent: text }), extra));
}

/** `opponents` (contract v1.2): every other seat of a table; else v1.1's one `opponent`. */
function against(m, at) {
  const others = Array.isArray(m.opponents) && m.opponents.length ? m.opponents : m.opponent ? [m.opponent] : [];
  const who = others.length ? others.map(personName).join(", ") : t("account.mine.nobody_yet");
  const tail = m.rated ? ` · ${t("account.mine.rated")}` : "";
  return `${matchHead(m.game ?? "watergate", m.role, at)} · ${t("account.mine.against", { name: who })}${tail}`;
}

async function show() {
  const player = loadPlayer();
  if (!box || !player) return;
  let mine;
  try {
    mine = await api("/api/players/me/matches", { headers: asPlayer(player) });
  } catch {
    return;  // the list is a convenience: the page works without it
  }
  if (!mine.ongoing.length && !mine.recent.length) return;
  const parts = [el("h2", { textContent: t("account.mine.title") })];
  if (mine.ongoing.length) {
    parts.push(el("ul", { id: "my-ongoing" }, ...mine.ongoing.map((m) => line(
      `/match/${encodeURIComponent(m.match_id)}`, against(m, m.updated_at), badge(m), m.your_turn,
    ))));
  }
  if (mine.recent.length) {
    parts.push(el("h3", { textContent: t("account.mine.recent") }));
    parts.push(el("ul", { id: "my-recent" }, ...mine.recent.slice(0, 10).map((p) => line(
      `/replay/${encodeURIComponent(p.match_id)}`, against({ ...p, rated: false }, p.ended_at),
      el("span", { className: p.result === "win" ? "result-win" : "result-loss", textContent: t(`account.profile.${p.result}`) }), false,
    ))));
  }
  box.replaceChildren(...parts);
  box.hidden = false;
}

show();
