// What happened: the log as sentences, the last round's resolution summary (what each nation
// produced, paid, lost and gained, read from the engine's events) and the final score sheet by
// the five scoring categories.
import { el } from "../render/dom.js";
import { t } from "../i18n.js";
import { columnHead } from "./boards.js";
import { amounts, ageName, cardName, nationName, nt, term } from "./text.js";

const RESOLUTION = new Set(["produced", "revolted", "short_of", "order_set", "war_resolved", "defeated", "event_resolved", "famine_paid", "age_scored"]);
const CATEGORIES = ["tokens", "colonies", "wonders", "cards", "resources", "total"];

/** One log entry as a sentence in the page's language. */
export function logLine(e, view, me) {
  const nation = (seat) => (seat ? nationName(view, seat, me) : nt("log.nobody"));
  const list = (seats) => (seats && seats.length ? seats.map(nation).join(", ") : nt("log.nobody"));
  const p = { ...e, nation: nation(e.seat), card: cardName(e.card), wonder: cardName(e.wonder), resource: term(e.resource) };
  switch (e.type) {
    case "match_started": case "order_set": p.order = list(e.order); break;
    case "round_started": p.age = ageName(e.age); break;
    case "progress_dealt": p.count = e.cards.length; break;
    case "progress_cleared": p.count = e.removed.length; break;
    case "option_chosen": p.option = e.option + 1; break;
    case "produced": p.gained = amounts(e.gained); p.paid = amounts(e.paid); break;
    case "gained": if (e.amount < 0) [p.type, p.amount] = ["lost", -e.amount]; break;  // never "gains -2"
    case "short_of": p.missing = amounts(e.missing); break;
    case "war_resolved": p.defeated = list(e.defeated); break;
    case "seat_replaced": p.nation = nation(e.role); p.reason = nt(`left.${e.reason}`); break;
    case "event_resolved": p.leader = nation(e.leader); p.last = list(e.last); break;
    case "match_ended":
      if (!e.scores) return nt("log.ended_outside", { reason: t(`reasons.${e.reason}`) });
      p.scores = e.scores.map(([seat, score]) => `${nation(seat)} ${score}`).join(", ");
      break;
    default: break;
  }
  const key = `nations.log.${p.type}`;
  const text = t(key, p);
  return text === key ? e.type : text;
}

export function renderLog(root, view, me) {
  const items = view.log.map((e) => el("li", `n-log-${e.type}`, logLine(e, view, me)));
  root.replaceChildren(...items.reverse());
}

/** The last resolution in the log, per seat: {round, seats: {seat: {produced, paid, lost, gained}}}. */
export function lastResolution(log) {
  let round = 0;
  let found = null;
  let current = null;
  for (const e of log) {
    if (e.type === "round_started") { round = e.round; current = null; continue; }
    const resolving = RESOLUTION.has(e.type) || (current && e.type === "gained");
    if (!resolving) continue;
    if (!current) { current = { round, seats: {} }; found = current; }
    const tally = (seat) => (current.seats[seat] ||= { produced: [0, 0, 0, 0], paid: [0, 0, 0, 0], lost: {}, gained: {} });
    const add = (bag, resource, n) => { if (n) bag[resource] = (bag[resource] || 0) + n; };
    if (e.type === "produced") {
      const s = tally(e.seat);
      s.produced = s.produced.map((n, i) => n + e.gained[i]);
      s.paid = s.paid.map((n, i) => n + e.paid[i]);
    } else if (e.type === "revolted" || e.type === "short_of") { add(tally(e.seat).lost, "books", e.books); add(tally(e.seat).lost, "vp", e.vp); }
    else if (e.type === "defeated") { add(tally(e.seat).lost, e.resource, e.lost); add(tally(e.seat).lost, "vp", e.vp); }
    else if (e.type === "famine_paid") add(tally(e.seat).lost, "food", e.food);
    else if (e.type === "age_scored") add(tally(e.seat).gained, "vp", e.vp);
    else if (e.type === "gained") {
      if (e.amount >= 0) add(tally(e.seat).gained, e.resource, e.amount);
      else add(tally(e.seat).lost, e.resource, -e.amount);
    }
  }
  return found;
}

const bagText = (bag) => Object.entries(bag).map(([r, n]) => `${n} ${term(r)}`).join(", ") || nt("nothing");

export function renderSummary(root, view, me) {
  const found = lastResolution(view.log);
  if (!found) { root.replaceChildren(el("p", "muted", nt("summary_none"))); return; }
  const box = el("section", "n-summary-box");
  box.setAttribute("aria-label", nt("summary_title", { round: found.round }));
  box.append(el("h2", "n-h", nt("summary_title", { round: found.round })));
  const list = el("ul", "n-summary-list");
  for (const [seat, s] of Object.entries(found.seats)) {
    const li = el("li", "n-summary-seat");
    li.append(el("strong", "", nationName(view, seat, me)), el("span", "", ` ${nt("produced", { what: amounts(s.produced) })}; ${nt("paid", { what: amounts(s.paid) })}; ${nt("lost", { what: bagText(s.lost) })}; ${nt("gained", { what: bagText(s.gained) })}`));
    list.append(li);
  }
  box.append(list);
  root.replaceChildren(box);
}

/** The final score sheet: a row per scoring category, a column per nation. */
export function scoreSheet(view, me) {
  const seats = view.state.order;
  const table = el("table", "n-sheet");
  table.append(el("caption", "", nt("score_sheet")));
  const head = el("tr");
  head.append(el("th", "", ""));
  for (const seat of seats) head.append(columnHead(seat, nationName(view, seat, me), seats.length));
  table.append(head);
  for (const c of CATEGORIES) {
    const tr = el("tr", c === "total" ? "n-sheet-total" : "");
    const th = el("th", "", nt(`categories.${c}`));
    th.scope = "row";
    tr.append(th);
    for (const seat of seats) tr.append(el("td", "", String(view.state.nations[seat].score[c])));
    table.append(tr);
  }
  return table;
}
