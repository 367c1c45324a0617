// Bootstrap data embedded by the page, and translation helpers (strings come from locale files).
const boot = JSON.parse(document.getElementById("bootstrap").textContent);
export const BOOT = boot;
export const L = boot.locale;
export const META = boot.meta;

function lookup(path) {
  return path.split(".").reduce((node, part) => (node == null ? undefined : node[part]), L);
}

export function fill(text, params = {}) {
  return String(text).replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

const plurals = new Intl.PluralRules(boot.lang || "en");

/** A locale string; one given as plural forms ({"one": …, "other": …}) is chosen by `count`. */
export function t(path, params) {
  let text = lookup(path);
  if (text && typeof text === "object" && params && "count" in params) text = text[plurals.select(Number(params.count))] ?? text.other;
  return text === undefined ? path : fill(text, params);
}

export const roleName = (role) => L.roles[role] ?? role;
export const roleCap = (role) => L.roles_cap[role] ?? L.nations?.seats?.[role] ?? role;  // a Nations seat: "Nation 3"
/** The role as a bare label, without an article ("Editor", "Redaktion"): the role picker's word,
 * for brackets and tags, where neither the sentence form nor the capitalised one reads right. */
export const roleLabel = (role) => L.ui[role] ?? role;
export const cardName = (id) => L.cards[id]?.name ?? id;
// A later rules version words a few cards and momentum spaces anew (the locale's "editions",
// by rules version): a table words them as its match's version plays them. An edition lists only
// what it changes, so a version reads every edition up to its own, the latest wording winning
// (as the engine's data does).
let edition = {};
export function useRulesVersion(version) {
  const upTo = Object.keys(L.editions ?? {})
    .filter((key) => Number(key) <= Number(version))
    .sort((a, b) => Number(a) - Number(b));
  edition = { cards: {}, momentum_spaces: {} };
  for (const key of upTo) {
    Object.assign(edition.cards, L.editions[key].cards);
    Object.assign(edition.momentum_spaces, L.editions[key].momentum_spaces);
  }
}
export const cardText = (id) => edition.cards?.[id]?.text ?? L.cards[id]?.text ?? "";
export const momentumText = (space) => edition.momentum_spaces?.[space] ?? L.momentum_spaces?.[space] ?? "";
export const colorName = (c) => L.colors[c] ?? c;
export const personName = (p) => L.people[p] ?? p;
export const colorsName = (cs) => (cs || []).map(colorName).join("/");
export const colorLetter = (c) => L.color_letters?.[c] ?? c[0].toUpperCase();
