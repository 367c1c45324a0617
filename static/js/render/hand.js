import { L, META, cardName, cardText, colorLetter, colorName, t } from "../i18n.js";

export function cardElement(id, { button = true } = {}) {
  const info = META.cards[id];
  const el = document.createElement(button ? "button" : "div");
  if (button) el.type = "button";
  el.className = `card card-${info.color}`;
  el.dataset.target = `card:${id}`;
  el.dataset.card = id;
  el.innerHTML = "";
  const head = document.createElement("div");
  head.className = "card-head";
  const value = document.createElement("span");
  value.className = "card-value";
  value.textContent = info.value;
  const color = document.createElement("span");
  color.className = "card-color";
  color.dataset.letter = colorLetter(info.color);
  color.textContent = colorName(info.color);
  head.append(value, color);
  const name = document.createElement("div");
  name.className = "card-name";
  name.textContent = cardName(id);
  const kind = document.createElement("div");
  kind.className = "card-kind";
  kind.textContent = L.kinds[info.kind] + (info.reaction ? ` · ${t("ui.reaction_card")}` : "");
  const text = document.createElement("p");
  text.className = "card-text";
  text.textContent = cardText(id);
  el.title = text.textContent;  // clipped in the hand
  el.append(head, name, kind, text);
  // no aria-label: the card's own words (value, colour, name, kind, text) are its name, as seen
  return el;
}

export function renderHand(root, view, me) {
  const held = view.state.hands[me];
  const hand = Array.isArray(held) ? held : [];  // a spectator sees counts only
  const ids = hand.map((c) => c.id).join(",");
  if (root.dataset.ids === ids) return;
  root.dataset.ids = ids;
  root.replaceChildren(...hand.map((c) => cardElement(c.id)));
  // a phone keeps the hand's height (match.css): a long name gets smaller until it fits
  for (const n of root.querySelectorAll(".card-name")) for (let px = 11; n.scrollHeight > n.clientHeight && px > 7; px--) n.style.fontSize = `${px}px`;
}
