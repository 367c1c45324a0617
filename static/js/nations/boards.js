// The shared boards: the scoring board (round and age, the event, architects, the war, player
// order, and each nation's books, strength, stability and VP) and the progress board (three rows
// of cards priced by row). Clickable pieces carry data-key; the controller wires them.
import { el } from "../render/dom.js";
import { ageName, cardLines, cardName, nationName, nt, passedNow, term, typeLabel, CARDS } from "./text.js";

/** A card face: name, type and effect lines; `key` makes it a button of the choice model. */
/** A seat's colour, as a small square beside its name (the same on every board and list). */
export function swatch(seat) {
  const box = el("span", `n-swatch n-seat-${seat}`, "");
  box.setAttribute("aria-hidden", "true");
  return box;
}

/** A table's column head for a nation: its colour and `label`; at four or five nations, whose
 * columns are narrow on a phone, its colour and number instead (the label for screen readers
 * and on hover), never a name broken mid-word or cut off. */
export function columnHead(seat, label, nations) {
  const th = el("th", "", "");
  th.scope = "col";
  if (nations < 4) {
    th.append(swatch(seat), label);
    return th;
  }
  const number = el("span", "", seat.slice(1));
  number.setAttribute("aria-hidden", "true");
  th.title = label;
  th.append(swatch(seat), number, el("span", "visually-hidden", label));
  return th;
}

/** "Passed" in a nation's column head: the word beside its name; in a narrow column (four or
 * five nations), where the word would run into the next column, a check mark, the word being
 * for screen readers and in the head's title (and beside the nation's summary). */
function passedMark(narrow) {
  if (!narrow) return el("span", "n-passed", ` · ${term("passed")}`);
  const tick = el("span", "", "✓");
  tick.setAttribute("aria-hidden", "true");
  const mark = el("span", "n-passed", "");
  mark.append(tick, el("span", "visually-hidden", ` · ${term("passed")}`));
  return mark;
}

export function cardFace(id, { key, extra, tag } = {}) {
  const card = CARDS.get(id);
  const face = el(tag || (key ? "button" : "div"), `n-card n-type-${card?.type || "unknown"}`);
  if (face.tagName === "BUTTON") face.type = "button";
  if (key) face.dataset.key = key;
  face.dataset.card = id;
  face.append(el("span", "n-card-type", typeLabel(card?.type)), el("span", "n-card-name", cardName(id)));
  const lines = el("span", "n-card-lines");
  for (const line of cardLines(id)) lines.append(el("span", "n-card-line", line));
  face.append(lines);
  if (extra) face.append(extra);
  return face;
}

export function renderProgress(root, title, view) {
  const { rows, costs } = view.state.progress;
  title.textContent = term("progress_board");
  const grid = el("div", "n-rows");
  rows.forEach((row, r) => {
    const line = el("div", "n-row");
    line.style.setProperty("--n-cols", String(row.length));  // a table's size sets its columns
    line.setAttribute("role", "group");
    line.setAttribute("aria-label", nt("row_cost", { row: r + 1, cost: costs[r] }));
    line.append(el("span", "n-row-cost", nt("row_cost", { row: r + 1, cost: costs[r] })));
    for (const card of row) {
      if (!card) line.append(el("div", "n-card n-card-empty", nt("empty")));
      else line.append(cardFace(card, { key: `progress:${card}`, extra: el("span", "n-price", `${costs[r]} ${term("gold")}`) }));
    }
    grid.append(line);
  });
  root.replaceChildren(grid);
}

export function renderScoring(root, view, me) {
  const s = view.state;
  const facts = el("div", "n-facts");
  facts.append(
    el("p", "n-fact n-round-fact", `${nt("round_of", { round: s.round, rounds: s.rounds })} · ${term("age")} ${s.age}: ${ageName(s.age)}`),
    el("p", "n-fact", nt("architects_left", { count: s.architects })),
    el("p", "n-fact n-decks", nt("decks_left", { progress: s.decks.progress[s.age - 1] ?? 0, events: s.decks.events[s.age - 1] ?? 0 })),
  );
  const event = el("div", "n-event");
  event.append(el("h3", "n-h3", term("historical_event")));
  event.append(s.event ? cardFace(s.event) : el("p", "muted", nt("no_event")));
  const war = el("div", "n-war");
  war.append(el("h3", "n-h3", term("war_space")));
  war.append(s.war ? el("p", "n-war-text", nt("war_by", { card: cardName(s.war.card), strength: s.war.strength, nation: nationName(view, s.war.seat, me) })) : el("p", "muted", nt("no_war")));
  // a column per nation in player order, a row per track: the tracks' long names have the
  // width of the side column's first column, the nations' names wrap in theirs
  const narrow = s.order.length >= 4;  // columns with room for a number only (columnHead)
  const table = el("table", "n-tracks");
  table.classList.toggle("is-narrow", narrow);
  const head = el("tr");
  const corner = el("th", "", term("player_order"));
  corner.scope = "col";
  head.append(corner);
  for (const seat of s.order) {
    const n = s.nations[seat];
    const name = columnHead(seat, nt(`seats.${seat}`), s.order.length);
    if (seat === me) name.className = "is-me";
    name.title = nationName(view, seat, me);
    if (passedNow(s, n)) {
      name.append(passedMark(narrow));
      name.title += ` · ${term("passed")}`;
    }
    head.append(name);
  }
  table.append(head);
  // NR29: the heritage disc and its 50-book tokens; in a narrow column, where "18 + 1×50" would
  // break over three lines, the one count (as on the nation's own board), the disc on hover
  const disc = (n) => `${n.heritage} + ${n.book_tokens}×50`;
  const books = (n) => (!n.book_tokens ? String(n.heritage) : narrow ? String(n.books) : disc(n));
  for (const [key, value] of [["books", books], ["strength", (n) => n.strength], ["stability", (n) => n.stability], ["vp", (n) => n.vp]]) {
    const tr = el("tr");
    const th = el("th", "", term(key));
    th.scope = "row";
    tr.append(th, ...s.order.map((seat) => {
      const n = s.nations[seat];
      const td = el("td", "", String(value(n)));
      if (key === "books" && narrow && n.book_tokens) td.title = disc(n);
      return td;
    }));
    table.append(tr);
  }
  root.replaceChildren(facts, table, event, war);
}
