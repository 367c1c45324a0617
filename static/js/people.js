// What the pages about players share: a player's shown name (translated for the computer, a
// guest, a deleted player), a rating as text, and a refusal in the reader's language.
import { t } from "./i18n.js";
import { seatName } from "./labels.js";

/** The name of a view-style player entry ({kind, name, player_id?}). */
export const personName = (p) => seatName({ players: { x: p } }, "x") ?? t("account.mine.nobody_yet");

/** "1523" or "1523?" with a provisional marker element; `r`: {rating, provisional}. */
export function ratingNode(r) {
  const span = document.createElement("span");
  span.textContent = String(Math.round(r.rating));
  if (r.provisional) {
    const mark = document.createElement("span");
    mark.className = "provisional";
    mark.textContent = ` (${t("account.profile.provisional")})`;
    span.append(mark);
  }
  return span;
}

/** The server's refusal said in the reader's language when the code is one we know. */
export function problem(err) {
  const key = `account.errors.${err.code}`;
  const said = t(key);
  return said === key ? err.message : said;
}

export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, props);
  node.append(...children);
  return node;
}
