// Nations' words: card and event names and effect texts in the page's language, built from the
// engine's own data (META: the cards as lists of operations, and their translations), and the
// table's phrases (the locale's "nations" section). Nothing here is hard-coded per card.
import { BOOT, META, fill, t } from "../i18n.js";
import { playerName } from "../people.js";

const lang = (BOOT.lang || "en").replace("-", "_");
const words = META[`i18n_${lang}`] || META.i18n_en || {};
const AGES = [1, 2, 3, 4].map((n) => META[`age${n}`]);

/** Every card of the data by id: progress cards, side A's printed cards and event cards. */
export const CARDS = new Map();
for (const c of META.board.starting_cards) CARDS.set(c.id, c);
for (const age of AGES) {
  for (const c of age.progress) CARDS.set(c.id, c);
  for (const e of age.events) CARDS.set(e.id, { ...e, type: "event" });
}

export const term = (key) => words.terms?.[key] ?? key;
export const typeName = (type) => words.types?.[type] ?? type;
export const levelName = (level) => words.difficulties?.[level] ?? level;
export const ageName = (age) => words.ages?.[String(age)] ?? String(age);
export const cardName = (id) => words.cards?.[id] ?? words.events?.[id] ?? id;
export const nt = (key, params) => t(`nations.${key}`, params);
/** A card's type as its face shows it (the data's types have no word for an event card). */
export const typeLabel = (type) => (type === "event" ? nt("gallery.event") : typeName(type));

const RES_ORDER = ["gold", "stone", "food", "books"];  // the log's amounts arrays (gold, stone, food, books)

/** "3 Gold, 2 Food" from an [gold, stone, food, books] array; "nothing" when all are zero. */
export function amounts(list) {
  const parts = (list || []).map((n, i) => (n ? `${n} ${term(RES_ORDER[i])}` : "")).filter(Boolean);
  return parts.length ? parts.join(", ") : nt("nothing");
}

const signed = (n) => (n > 0 ? `+${n}` : `${n}`);

/** One operation of the data's vocabulary (NR19) as text. */
export function opText(op) {
  const tpl = words.ops?.[op.op];
  if (!tpl) return op.op;
  if (op.op === "choose") return fill(tpl, { options: op.options.map((o) => o.map(opText).join(" + ")).join(" / ") });
  const what = op.what ? (words.types?.[op.what] ?? term(op.what)) : "";
  return fill(tpl, { ...op, resource: term(op.resource), signed: signed(op.amount), what });
}

const ops = (list) => (list || []).map(opText).join("; ");
/** A war's loss as an amount ("3 Gold"); an operation of another kind as itself. */
const lossText = (op) => (op.op === "lose" || op.op === "pay" ? `${op.amount} ${term(op.resource)}` : opText(op));

/** Whether a nation has passed in this round's action phase. The engine keeps the flag until the
 * next action phase begins, so during resolution and the next round's growth it is history, not
 * news: shown only while the action phase is on (a nation's turn or a golden age's choice). */
export const passedNow = (state, n) => Boolean(n.passed && state.decision && state.decision.kind !== "growth");

/** The lines a card shows: costs and values first, then each kind of effect. */
export function cardLines(id) {
  const c = CARDS.get(id);
  if (!c) return [];
  const lines = [];
  if (c.type === "event") {
    for (const ev of c.events || []) {
      const measure = words.measures?.[ev.measure] ?? ev.measure;
      if (ev.leader?.length) lines.push(fill(words.ops.leader, { measure, effects: ops(ev.leader) }));
      if (ev.last?.length) lines.push(fill(words.ops.last, { measure, effects: ops(ev.last) }));
    }
    if (c.famine) lines.push(fill(words.ops.famine, { amount: c.famine }));
    lines.push(fill(words.ops.architects, { amount: c.architects }));
    return lines;
  }
  if (c.deploy !== undefined) lines.push(`${term("deploy_cost")}: ${c.deploy} ${term("stone")}`);
  if (c.attack !== undefined) lines.push(`${term("attack")}: ${c.attack}`);
  if (c.min_strength !== undefined) lines.push(`${term("min_strength")}: ${c.min_strength}`);
  if (c.sections) lines.push(`${term("architects")}: ${c.sections.map((s) => `${s} ${term("stone")}`).join(" · ")}`);
  if (c.per_worker?.length) lines.push(`${term("worker")}: ${ops(c.per_worker)}`);
  if (c.on_buy?.length) lines.push(ops(c.on_buy));
  if (c.lasting?.length) lines.push(ops(c.lasting));
  // the sentence has its own verb ("… lose {effects} …"): the losses go in as amounts, not as
  // "Lose 3 Gold" operations (which read "lose Lose 3 Gold")
  if (c.defeat?.length) lines.push(fill(words.ops.war_defeat, { effects: c.defeat.map(lossText).join(", ") }));
  return lines;
}

/** A seat's label: "Nation 1 (Ana)", or "Nation 1 (you)" for this browser's seat. */
export function nationName(view, seat, me) {
  const base = nt(`seats.${seat}`);
  const player = view?.players?.[seat];
  // the level: beside the board; a leaver's seat the computer took over says so
  const who = seat === me ? nt("you") : player?.replaced ? nt("replaced") : playerName(player, false);
  return who ? nt("nation_of", { seat: base, name: who }) : base;
}
