// A nation's player board: advisor, building and military cards with their workers, the wonder
// under construction with its architects, completed wonders, colonies, resources, idle workers and
// the population track. Pieces of the seat's own board carry data-key for the choice model.
import { button, el } from "../render/dom.js";
import { cardFace, swatch } from "./boards.js";
import { t } from "../i18n.js";
import { playerName } from "../people.js";
import { cardName, levelName, nationName, nt, passedNow, term, typeName } from "./text.js";

const RESOURCES = ["gold", "stone", "food", "books"];

function group(title, cls) {
  const box = el("div", `n-group ${cls}`);
  box.append(el("h3", "n-h3", title));
  return box;
}

function owned(id, mine, extra) {
  return cardFace(id, { key: mine ? `owned:${id}` : undefined, extra });
}

function workers(count) {
  const dots = el("span", "n-workers", "");
  const label = nt("workers_count", { count });
  dots.setAttribute("role", "img");  // (a bare span may not carry a label)
  dots.setAttribute("aria-label", label);
  dots.title = label;
  for (let i = 0; i < count; i++) dots.append(el("span", "n-worker", ""));
  if (!count) dots.append(el("span", "muted", "0"));
  return dots;
}

export function renderNation(root, view, seat, me) {
  const n = view.state.nations[seat];
  const mine = seat === me && view.role === me;
  const board = el("article", `n-nation${mine ? " is-mine" : ""}`);
  board.dataset.seat = seat;
  const head = el("header", "n-nation-head");
  const title = el("h2", "n-h", swatch(seat), nationName(view, seat, me));
  head.append(title);
  head.append(el("span", "n-level", `${term("difficulty")}: ${levelName(n.level)}`));
  if (passedNow(view.state, n)) head.append(el("span", "n-passed-badge", term("passed")));
  const p = n.production;
  head.append(el("span", "n-production", nt("production", { gains: amountsShort(p.gains), costs: amountsShort(p.costs) })));
  head.append(el("span", "n-vp", nt("vp", { vp: n.vp })));
  board.append(head);

  // one strip: the resources (during growth the seat's own gold, stone and food are the bonus
  // choices), the idle workers and the population track (growth)
  const res = el("div", "n-resources");
  res.setAttribute("role", "group");
  res.setAttribute("aria-label", nt("resources"));
  const box = (key, cls, name, value) => {
    const b = el(key ? "button" : "div", `n-res ${cls}`);
    if (key) { b.type = "button"; b.dataset.key = key; }
    b.append(el("span", "n-res-name", name), value);
    res.append(b);
    return b;
  };
  const number = (v) => el("span", "n-res-value", String(v));
  for (const r of RESOURCES) box(mine && r !== "books" ? `res:${r}` : null, `n-res-${r}`, term(r), number(n[r]));
  box(null, "n-res-strength", term("strength"), number(n.strength));
  box(null, "n-res-stability", term("stability"), number(n.stability));
  box(mine ? "idle" : null, "n-idle", term("resource_area"), workers(n.idle_workers));
  const track = box(mine ? "population" : null, "n-population", term("population_track"), number(n.population));
  track.title = nt("population", { count: n.population });  // the number alone says little (a description)
  board.append(res);

  // advisor, building/military cards with workers
  const cards = group(`${term("advisor")} · ${typeName("building")} · ${typeName("military")}`, "n-cards");
  const row = el("div", "n-card-row");
  row.append(n.advisor ? owned(n.advisor, mine) : el("div", "n-card n-card-empty", `${term("advisor")}: ${nt("empty")}`));
  for (const slot of n.slots) {
    const extra = el("span", "n-slot-extra");
    const dots = workers(slot.workers);
    if (mine && slot.workers) {
      const pickUp = el("span", "n-pickup", "");
      pickUp.dataset.key = `worker:${slot.card}`;
      pickUp.setAttribute("role", "button");
      pickUp.tabIndex = 0;
      pickUp.setAttribute("aria-label", nt("worker_here", { card: cardName(slot.card) }));
      pickUp.append(dots);
      extra.append(pickUp);
      const off = el("span", "n-undeploy", "↩");
      off.dataset.key = `undeploy:${slot.card}`;
      off.setAttribute("role", "button");
      off.tabIndex = 0;
      off.setAttribute("aria-label", nt("undeploy", { card: cardName(slot.card) }));
      off.title = nt("undeploy", { card: cardName(slot.card) });
      extra.append(off);
    } else extra.append(dots);
    const face = cardFace(slot.card, { key: mine ? `slot:${slot.card}` : undefined, extra, tag: "div" });
    if (mine) {
      // the card's name is its button (the worker controls beside it are buttons of their own,
      // and a button may not hold buttons); a click anywhere on the card still counts
      face.dataset.owned = `owned:${slot.card}`;
      const name = face.querySelector(".n-card-name");
      name.setAttribute("role", "button");
      name.tabIndex = 0;
      name.setAttribute("aria-label", nt("deploy_here", { card: cardName(slot.card) }));
    }
    row.append(face);
  }
  cards.append(row);
  board.append(cards);

  // the wonder under construction, completed wonders, colonies
  const wonders = group(term("wonder_under_construction"), "n-wonders");
  if (n.wonder) {
    const sections = el("span", "n-sections");
    n.wonder.sections.forEach((cost, i) => sections.append(el("span", `n-section${i < n.wonder.built ? " is-built" : ""}`, `${cost}`)));
    sections.append(el("span", "n-built", nt("built", { built: n.wonder.built, sections: n.wonder.sections.length })));
    const face = cardFace(n.wonder.card, { key: mine ? "wonder" : undefined, extra: sections });
    if (mine) face.dataset.owned = `owned:${n.wonder.card}`;
    wonders.append(face);
  } else wonders.append(el("p", "muted", nt("no_wonder")));
  const done = group(term("completed_wonders"), "n-done");
  for (const w of n.wonders) done.append(owned(w, false));
  if (!n.wonders.length) done.append(el("p", "muted", nt("empty")));
  const colonies = group(term("colonies"), "n-colonies");
  for (const c of n.colonies) colonies.append(owned(c, mine));
  if (!n.colonies.length) colonies.append(el("p", "muted", nt("empty")));
  const lower = el("div", "n-lower");
  lower.append(wonders, done, colonies);
  board.append(lower);
  root.replaceChildren(board);
}

function amountsShort(list) {
  return RESOURCES.map((r, i) => (list[i] ? `${list[i]} ${term(r)}` : "")).filter(Boolean).join(", ") || "0";
}

/** Who plays a seat, in words: the player's name, the computer at its level, or the computer
 * that took over a seat its player left ("computer (replaced)"). */
export function whoPlays(view, seat) {
  const p = view.players?.[seat];
  if (p?.replaced) return nt("replaced");
  return playerName(p, true) ?? nt("seat_open");
}

/** Presence as a dot and its words: online, away, or the computer (always at the table). */
function presenceDot(view, seat) {
  const p = view.players?.[seat];
  const online = view.presence?.[seat]?.online;
  const state = p?.kind === "bot" ? "bot" : online ? "online" : "offline";
  const dot = el("span", `n-dot is-${state}`, "");
  dot.setAttribute("role", "img");
  dot.setAttribute("aria-label", state === "bot" ? t("names.at_table") : t(`ui.${state}`));
  return dot;
}

/** Every other nation in player order: a summary line each (colour, name and who plays it,
 * presence, VP, passed, its resources) that opens the nation's whole board. */
export function renderOthers(root, view, me) {
  const seats = (view.state.order || Object.keys(view.state.nations)).filter((s) => s !== me);
  const items = seats.map((seat) => {
    const n = view.state.nations[seat];
    const item = el("article", "n-other");
    item.dataset.seat = seat;
    const toggle = button(`n-other-toggle n-seat-edge-${seat}`);
    toggle.setAttribute("aria-expanded", "false");
    toggle.setAttribute("aria-controls", `n-other-${seat}`);
    // the colour and "Nation 4" hold together; a line may break before who plays it, and in it
    const label = el("span", "n-other-label", swatch(seat), el("strong", "", nt(`seats.${seat}`)));
    const name = el("span", "n-other-name", label, " ", el("span", "n-other-who", whoPlays(view, seat)));
    const facts = el("span", "n-other-facts");
    facts.append(
      el("span", "n-other-vp", nt("vp", { vp: n.vp })),
      ...(passedNow(view.state, n) ? [el("span", "n-passed-badge", term("passed"))] : []),
    );
    const res = el("span", "n-other-res", [["gold", n.gold], ["stone", n.stone], ["food", n.food], ["strength", n.strength], ["stability", n.stability]].map(([k, v]) => `${term(k)} ${v}`).join(" · "));
    toggle.append(presenceDot(view, seat), name, facts, res);
    const board = el("div", "n-other-board");
    board.id = `n-other-${seat}`;
    board.hidden = true;
    renderNation(board, view, seat, me);
    item.append(toggle, board);
    return item;
  });
  root.replaceChildren(...items);
}
