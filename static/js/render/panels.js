// Counts and public piles: the opponent's hand, decks, bag, discard piles, removed cards,
// both momentum cards (with the Editor's instructions), the initiative card, this round's limits.
import { L, cardName, momentumText, roleCap, t } from "../i18n.js";
import { EDITOR_MOMENTUM, MOMENTUM_SIZES, SEATS, other } from "../meta.js";
import { el } from "./dom.js";

function pile(title, ids) {
  const d = el("details", "pile");
  const s = el("summary", null, `${title} (${ids.length})`);
  const list = el("ul", "pile-list");
  for (const id of ids) list.append(el("li", null, cardName(id)));
  if (!ids.length) list.append(el("li", "muted", t("ui.empty")));
  d.append(s, list);
  return d;
}

function momentumCard(role, count) {
  const box = el("div", `momentum-card momentum-${role}`);
  box.append(el("div", "mc-title", `${t("ui.momentum_card")} — ${roleCap(role)}`));
  const row = el("ol", "mc-spaces");
  for (let k = 1; k <= MOMENTUM_SIZES[role]; k++) {
    const li = el("li", k <= count ? "mc-space filled" : "mc-space");
    li.append(el("span", "mc-num", String(k)));
    const text = role === "editor" && EDITOR_MOMENTUM.has(String(k)) ? momentumText(String(k)) : "";  // the Editor's instructions
    if (text) li.append(el("span", "mc-text", text));
    li.setAttribute("aria-label", `${k}: ${k <= count ? "●" : "○"}${text ? ` ${text}` : ""}`);
    row.append(li);
  }
  box.append(row);
  return box;
}

export function renderPanels(root, view, me) {
  const s = view.state;
  const opp = other(me);
  const counts = el("div", "counts");
  const stat = (label, value) => {
    const d = el("div", "stat");
    d.append(el("span", "stat-label", label), el("span", "stat-value", String(value)));
    return d;
  };
  const held = (r) => (Array.isArray(s.hands[r]) ? s.hands[r].length : s.hands[r]);
  const seats = view.role ? [opp] : SEATS;  // a spectator counts both hands
  counts.append(
    ...seats.map((r) => stat(`${roleCap(r)} — ${t("ui.cards")}`, held(r))),
    ...SEATS.map((r) => stat(`${t("ui.deck")} — ${roleCap(r)}`, s.decks[r])),
    stat(t("ui.bag"), s.bag),
    stat(t("ui.supply"), s.momentum.supply),
    stat(t("ui.initiative"), roleCap(s.initiative)),
  );
  const piles = el("div", "piles");
  piles.append(
    ...SEATS.map((r) => pile(`${t("ui.discard")} — ${roleCap(r)}`, s.discards[r])),
    pile(t("ui.removed"), s.removed),
  );
  if (s.in_play.length) piles.append(pile(t("ui.in_play"), s.in_play));
  const cards = el("div", "momentum-cards");
  cards.append(...[...SEATS].reverse().map((r) => momentumCard(r, s.momentum[r])));  // Nixon's card first
  const parts = [counts, cards, piles];
  if (s.restrictions.length) {
    const r = el("div", "restrictions");
    r.append(el("strong", null, `${t("ui.restrictions_now")}: `));
    for (const rule of s.restrictions) r.append(el("span", null, `${L.restrictions[rule]} `));
    parts.unshift(r);
  }
  root.replaceChildren(...parts);
}
