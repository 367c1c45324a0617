// The Watergate table's side of the tutorial's coach: the words for a scripted move and the
// pieces of the table it is made with (coach.js is the same for every game).
import { same } from "../coach.js";
import { cardName, t } from "../i18n.js";
import { actionLabel, playLabel } from "../labels.js";

/** The move in words: a card played names the card and how. */
export function moveWords(action, me) {
  if (action.type === "play_value" || action.type === "play_action") {
    return t("lessons.ui.play_card", { card: cardName(action.card), how: playLabel(action, me) });
  }
  return actionLabel(action, me);
}

/** The data-target keys of the pieces the move is made with. */
export function pointedKeys(move) {
  if (!move) return [];
  const token = (a) => (a.target === "initiative" || a.target === "momentum" ? `token:${a.target}` : a.handle !== undefined ? `token:ev-${a.handle}` : null);
  switch (move.type) {
    case "play_value": case "play_action": case "react": return [`card:${move.card}`];
    case "pin": return [`token:ev-${move.handle}`, `space:${move.space}`];
    case "choose_space": return [`space:${move.space}`];
    case "choose_picture": return [`picture:${move.person}`];
    case "choose_token": case "choose_target": return [token(move)].filter(Boolean);
    default: return [];
  }
}

/** The elements to point at for the coach's move: its pieces not picked already, and the
 * decision's button that makes it. */
export function pointed(model, pick) {
  if (!model || !model.move || model.left) return [];
  const picked = new Set([pick.card && `card:${pick.card}`, pick.pin !== null && `token:ev-${pick.pin}`]);
  const keys = pointedKeys(model.move).filter((k) => !picked.has(k));
  const pieces = keys.flatMap((key) => [...document.querySelectorAll(`[data-target="${CSS.escape(key)}"]`)]);
  const buttons = [...document.querySelectorAll("#decision .decision-options .btn[data-action]")].filter((b) => same(JSON.parse(b.dataset.action), model.move));
  return [...pieces, ...buttons];
}
