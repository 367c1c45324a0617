// Every Nations card (side A's printed cards, each age's progress and event cards), drawn by the
// table's own card faces from the engine's data, filterable by age, type and words.
import { META } from "../i18n.js";
import { el } from "../render/dom.js";
import { addOptions, filterGallery } from "../render/filters.js";
import { cardFace } from "./boards.js";
import { ageName, cardLines, cardName, nt, typeLabel } from "./text.js";

const $ = (id) => document.getElementById(id);

// (card, age: "a" for side A's printed cards, else 1–4), in the data's order
const entries = [
  ...META.board.starting_cards.map((card) => [card, "a"]),
  ...[1, 2, 3, 4].flatMap((age) => [
    ...META[`age${age}`].progress.map((card) => [card, String(age)]),
    ...META[`age${age}`].events.map((card) => [{ ...card, type: "event" }, String(age)]),
  ]),
];
const ageLabel = (age) => (age === "a" ? nt("gallery.side_a") : `${age} · ${ageName(Number(age))}`);

function item(card, age) {
  const li = el("li", "n-gallery-item");
  li.dataset.age = age;
  li.dataset.type = card.type;
  // what a search reads: the card's name and every line it shows, in the page's language
  li.dataset.words = [cardName(card.id), typeLabel(card.type), ...cardLines(card.id)].join(" ").toLowerCase();
  li.append(cardFace(card.id));
  const facts = [ageLabel(age)];
  if (card.min_players > 2) facts.push(nt("gallery.min_players", { count: card.min_players }));
  if (card.history && age !== "a") facts.push(card.history);  // (side A's says "printed on side A")
  li.append(el("p", "gallery-facts", facts.join(" · ")));
  return li;
}

addOptions($("n-gallery-age"), ["a", "1", "2", "3", "4"].map((age) => [age, ageLabel(age)]));
addOptions($("n-gallery-type"), [...new Set(entries.map(([card]) => card.type))].map((type) => [type, typeLabel(type)]));
$("n-gallery").replaceChildren(...entries.map(([card, age]) => item(card, age)));
filterGallery({
  form: $("n-gallery-filters"),
  list: $("n-gallery"),
  controls: { age: $("n-gallery-age"), type: $("n-gallery-type") },
  search: $("n-gallery-search"),
  count: $("n-gallery-count"),
  counted: (shown) => nt("gallery.count", { count: shown }),
});
