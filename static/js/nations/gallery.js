// Every Nations card (side A's printed cards, each age's progress and event cards), drawn by the
// table's own card faces from the engine's data, filterable by age, type and words.
import { META } from "../i18n.js";
import { el } from "../render/dom.js";
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

function option(select, value, label) {
  const o = el("option", "", label);
  o.value = value;
  select.append(o);
}

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
  li.append(el("p", "n-gallery-facts", facts.join(" · ")));
  return li;
}

function filter() {
  const age = $("n-gallery-age").value;
  const type = $("n-gallery-type").value;
  const words = $("n-gallery-search").value.trim().toLowerCase();
  let shown = 0;
  for (const li of $("n-gallery").children) {
    const show = (!age || li.dataset.age === age) && (!type || li.dataset.type === type) && (!words || li.dataset.words.includes(words));
    li.hidden = !show;
    if (show) shown += 1;
  }
  $("n-gallery-count").textContent = nt("gallery.count", { count: shown });
}

for (const age of ["a", "1", "2", "3", "4"]) option($("n-gallery-age"), age, ageLabel(age));
for (const type of [...new Set(entries.map(([card]) => card.type))]) option($("n-gallery-type"), type, typeLabel(type));
$("n-gallery").replaceChildren(...entries.map(([card, age]) => item(card, age)));
$("n-gallery-filters").addEventListener("input", filter);
$("n-gallery-filters").addEventListener("submit", (event) => event.preventDefault());
filter();
