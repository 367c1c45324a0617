// The choice model: which piece of the table does what now. Every legal action is reached by
// clicking a board element (a progress card buys it, a worker then a card deploys, the wonder
// hires, the population track grows, a resource takes the bonus, an owned card is what an
// overbuilding purchase replaces); the golden age's options and "pass" have no board element
// and are buttons. Pieces that cannot be chosen say why (`why`), from the public view only.
import { META } from "../i18n.js";
import { CARDS, cardName, nt, opText, term } from "./text.js";

const LEVELS = new Map(META.difficulties.levels.map((l) => [l.id, l]));

/** A label for one legal action (the fallback list and the controls' accessible names). */
export function actionLabel(action, view, me) {
  const nation = view.state.nations[me];
  switch (action.type) {
    case "grow": {
      const next = nation.next_growth;  // the match's own rules version's track, from the view
      const cost = next ? term(next.cost === "food" ? "food_cost" : "stability_cost") : "";
      return nt("grow", { cost });
    }
    case "bonus": {
      const amount = LEVELS.get(nation.level)?.bonus?.[action.resource] ?? "";
      return nt("bonus", { resource: `${amount} ${term(action.resource)}`.trim() });
    }
    case "buy": {
      const cost = rowOf(view, action.card) + 1;
      const params = { card: cardName(action.card), cost, old: cardName(action.replace) };
      return action.replace ? nt("buy_replace", params) : nt("buy", params);
    }
    case "deploy": {
      const cost = CARDS.get(action.card)?.deploy ?? 0;
      const params = { card: cardName(action.card), cost, source: cardName(action.source) };
      return action.source ? nt("move_worker", params) : nt("deploy", params);
    }
    case "undeploy": return nt("undeploy", { card: cardName(action.card) });
    case "hire": return nt("hire", { card: cardName(nation.wonder?.card), stone: nextSection(nation) });
    case "pass": return nt("pass");
    case "choose": return nt("option", { n: action.option + 1, text: optionText(view, action.option) });
    default: return action.type;
  }
}

export function rowOf(view, card) {
  return view.state.progress.rows.findIndex((row) => row.includes(card));
}

function nextSection(nation) {
  const w = nation.wonder;
  return w ? w.sections[w.built] ?? 0 : 0;
}

function optionText(view, option) {
  const card = view.state.decision?.card;
  const choose = (CARDS.get(card)?.on_buy || []).find((op) => op.op === "choose");
  return choose ? choose.options[option].map(opText).join(" + ") : String(option + 1);
}

/** What the board offers now: `targets` (a key of a board element -> the intent a click on it
 * has), `why` (key -> why it cannot be chosen), `buttons` (actions with no board element), and
 * the prompt. `pick` is the pending selection: {worker: "idle"|card|null}. */
export function choiceModel(view, me, pick) {
  const targets = new Map();
  const why = new Map();
  const buttons = [];
  const legal = view && view.status === "active" ? view.legal_actions || [] : [];
  const state = view?.state;
  const nation = state?.nations?.[me];
  const out = { targets, why, buttons, prompt: "", legal, picked: pick };
  if (!state || !nation) return out;
  const decision = state.decision;
  const mine = legal.length > 0;
  const by = (type) => legal.filter((a) => a.type === type);

  // the progress board: a card with a way to buy it opens its sheet (its buttons buy), or why not
  state.progress.rows.forEach((row, r) => row.forEach((card) => {
    if (!card) return;
    const key = `progress:${card}`;
    if (by("buy").some((a) => a.card === card)) targets.set(key, { set: { sheet: card } });
    else why.set(key, buyWhy(state, nation, card, r, mine, decision));
  }));

  // workers: pick one up (idle, or from a card), then a card takes it
  const deploys = by("deploy");
  if (!pick.worker) {  // once a worker is picked up, only where it may go (or cancel) is offered
    if (deploys.some((a) => !a.source)) targets.set("idle", { pick: { worker: "idle" } });
    for (const source of new Set(deploys.filter((a) => a.source).map((a) => a.source))) targets.set(`worker:${source}`, { pick: { worker: source } });
  }
  for (const slot of nation.slots) {
    const key = `slot:${slot.card}`;
    const here = deploys.filter((a) => a.card === slot.card);
    const from = pick.worker === "idle" ? null : pick.worker;
    const chosen = pick.worker ? here.find((a) => (a.source ?? null) === from) : here.find((a) => !a.source) || (here.length === 1 ? here[0] : null);
    if (chosen) targets.set(key, { send: chosen });
    else if (here.length && !pick.worker) why.set(key, nt("pick_first"));  // several sources: pick one
    else why.set(key, deployWhy(nation, slot.card, mine, decision));
    const off = by("undeploy").find((a) => a.card === slot.card);
    if (off) targets.set(`undeploy:${slot.card}`, { send: off });
  }
  const hire = by("hire")[0];
  if (hire) targets.set("wonder", { send: hire });
  else if (nation.wonder) why.set("wonder", hireWhy(state, nation, mine, decision));
  const grow = by("grow")[0];
  if (grow) targets.set("population", { send: grow });
  for (const a of by("bonus")) targets.set(`res:${a.resource}`, { send: a });
  for (const a of by("choose")) buttons.push({ label: actionLabel(a, view, me), intent: { send: a }, kind: "choose" });
  const pass = by("pass")[0];
  if (pass) buttons.push({ label: nt("pass"), intent: { send: pass }, kind: "pass" });
  if (pick.worker) buttons.push({ label: nt("cancel"), intent: { pick: { worker: null } }, kind: "cancel" });

  if (!mine) out.prompt = "";
  else if (pick.worker) out.prompt = nt("pick_worker");
  else if (decision?.kind === "growth") out.prompt = nt("growth_prompt");
  else if (decision?.kind === "golden_age") out.prompt = nt("golden_prompt", { card: cardName(decision.card) });
  else out.prompt = nt("turn_prompt");
  return out;
}

/** What buying `card` would throw away, said before it happens: the advisor it replaces, the
 * wonder under construction it discards (with its built sections' stone), or that a full row of
 * cards makes the purchase replace one (each buy button names which). */
export function buyNotes(view, me, card) {
  const nation = view.state.nations[me];
  const type = CARDS.get(card)?.type;
  if (!nation) return [];
  if (type === "advisor" && nation.advisor) return [nt("note_advisor", { old: cardName(nation.advisor) })];
  if (type === "wonder" && nation.wonder) {
    const w = nation.wonder;
    const stone = w.sections.slice(0, w.built).reduce((a, b) => a + b, 0);
    return [w.built ? nt("note_wonder_built", { old: cardName(w.card), built: w.built, stone }) : nt("note_wonder", { old: cardName(w.card) })];
  }
  const replacing = (view.legal_actions || []).some((a) => a.type === "buy" && a.card === card && a.replace);
  return replacing ? [nt("note_replace")] : [];
}

function buyWhy(state, nation, card, row, mine, decision) {
  if (!mine) return nt("why_wait");
  if (decision?.kind !== "turn") return nt("why_not_now");
  if (nation.gold < row + 1) return nt("why_gold", { cost: row + 1, gold: nation.gold });
  const need = CARDS.get(card)?.min_strength;
  if (need !== undefined && nation.strength < need) return nt("why_strength", { need, have: nation.strength });
  return nt("why_slot");
}

function deployWhy(nation, card, mine, decision) {
  if (!mine) return nt("why_wait");
  if (decision?.kind !== "turn") return nt("why_not_now");
  const cost = CARDS.get(card)?.deploy ?? 0;
  if (nation.stone < cost) return nt("why_stone", { cost, stone: nation.stone });
  return nt("why_no_worker");
}

function hireWhy(state, nation, mine, decision) {
  if (!mine) return nt("why_wait");
  if (decision?.kind !== "turn") return nt("why_not_now");
  if (!state.architects) return nt("why_no_architect");
  const cost = nextSection(nation);
  if (nation.stone < cost) return nt("why_stone", { cost, stone: nation.stone });
  return nt("why_not_now");
}
