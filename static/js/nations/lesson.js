// The Nations table's side of the tutorial's coach: the words for a scripted move and the
// pieces of the board it is made with (coach.js is the same for every game).
import { same } from "../coach.js";

/** The data-key of the piece to click next for `move`, given the pending pick and the open card
 * sheet: a card of the progress board (then its sheet's buy button, which names what it replaces), a worker to pick up then the card it
 * goes to (one click from the resource area), the wonder, the population track, a resource. */
export function pointKey(move, pick, sheet) {
  switch (move.type) {
    case "grow": return "population";
    case "bonus": return `res:${move.resource}`;
    case "buy": return sheet === move.card ? null : `progress:${move.card}`;  // then its sheet's button
    case "deploy": return move.source && pick.worker !== move.source ? `worker:${move.source}` : `slot:${move.card}`;
    case "undeploy": return `undeploy:${move.card}`;
    case "hire": return "wonder";
    default: return null;  // pass and a golden age's option are buttons
  }
}

/** The elements to point at for the coach's move: its board piece, or the button that makes it. */
export function pointed(root, model, pick, sheet = null) {
  if (!model || !model.move || model.left) return [];
  const key = pointKey(model.move, pick, sheet);
  if (key) return [...root.querySelectorAll(`[data-key="${CSS.escape(key)}"], [data-owned="${CSS.escape(key)}"]`)];
  return [...root.querySelectorAll("#n-controls .btn[data-action], #n-sheet .btn[data-action]")].filter((b) => same(JSON.parse(b.dataset.action), model.move));
}
