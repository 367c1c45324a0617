// What the pages about players share: a player's shown name (translated for the computer, a
// guest, a deleted player), a rating as text, and a refusal in the reader's language.
import { t } from "./i18n.js";

const DELETED = "Deleted player";  // the wire's name for a player who deleted itself

/** What a table calls the player of a view's "players" entry ({kind, name, player_id?, level?}):
 * the player's name; the computer, at its level if `withLevel`; a guest; null while nobody has
 * taken the seat (and from a server that does not name players). The wire's own words
 * ("Computer", "Guest") are English: every game's table says them in the reader's language. */
export function playerName(p, withLevel = true) {
  if (!p || (p.kind === "human" && p.name == null)) return null;
  if (p.kind === "bot") return withLevel && p.level ? t("names.computer_level", { level: t(`ui.level_${p.level}`) }) : t("names.computer");
  if (p.player_id) return p.bot ? t("names.bot_named", { name: p.name }) : p.name;
  return p.name === DELETED ? t("names.deleted_player") : t("names.guest");
}

/** The name of a view-style player entry, or "nobody yet". */
export const personName = (p) => playerName(p) ?? t("account.mine.nobody_yet");

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
