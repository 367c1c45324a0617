// Every Watergate card (the Editor's and Nixon's decks) drawn by the table's own card face from
// the engine's metadata, worded as today's rules version plays them, filterable by side, colour,
// kind, value, reaction and words; and the Editor's momentum card, space by space.
import { L, META, BOOT, cardName, cardText, colorName, momentumText, roleCap, t, useRulesVersion } from "./i18n.js";
import { el } from "./render/dom.js";
import { addOptions, filterGallery } from "./render/filters.js";
import { cardElement } from "./render/hand.js";

const $ = (id) => document.getElementById(id);
useRulesVersion(BOOT.rules_version);  // before any card is worded

// the data's order within each side: the Editor's deck first, as the rules list them
const cards = Object.values(META.cards).sort((a, b) => META.seats.indexOf(a.faction) - META.seats.indexOf(b.faction) || a.id.localeCompare(b.id));
const distinct = (key) => [...new Set(cards.map((card) => card[key]))];

function item(card) {
  const li = el("li", "gallery-item");
  li.dataset.side = card.faction;
  li.dataset.color = card.color;
  li.dataset.kind = card.kind;
  li.dataset.value = String(card.value);
  li.dataset.reaction = card.reaction ? "yes" : "no";
  const side = t("gallery.card_of", { side: roleCap(card.faction) });
  // what a search reads: every word the card shows, and whose it is, in the page's language
  li.dataset.words = [cardName(card.id), cardText(card.id), L.kinds[card.kind], colorName(card.color), side].join(" ").toLowerCase();
  li.append(cardElement(card.id, { button: false }), el("p", "gallery-facts", side));
  return li;
}

addOptions($("gallery-side"), META.seats.map((seat) => [seat, roleCap(seat)]));
addOptions($("gallery-color"), distinct("color").map((color) => [color, colorName(color)]));
addOptions($("gallery-kind"), distinct("kind").map((kind) => [kind, L.kinds[kind]]));
addOptions($("gallery-value"), distinct("value").sort((a, b) => a - b).map((value) => [String(value), String(value)]));
$("gallery").replaceChildren(...cards.map(item));
$("gallery-momentum").replaceChildren(...META.editor_momentum_spaces.map((space) => el("li", "", momentumText(space))));
filterGallery({
  form: $("gallery-filters"),
  list: $("gallery"),
  controls: { side: $("gallery-side"), color: $("gallery-color"), kind: $("gallery-kind"), value: $("gallery-value"), reaction: $("gallery-reaction") },
  search: $("gallery-search"),
  count: $("gallery-count"),
  counted: (shown) => t("gallery.count", { count: shown }),
});
