// Hints for learners (unrated matches only: the server sends `hints` to a seat of an
// unrated match and never to a rated one): a "why?" mark on each card of the hand whose action
// is not offered, the reason as the card's description (read by screen readers, shown on
// hover), and the reason in words below the choices once such a card is chosen.
import { cardName, cardText, personName, t } from "../i18n.js";
import { skipWhy } from "../labels.js";
import { el } from "./dom.js";

const $ = (id) => document.getElementById(id);

/** The reason a hint gives, in the page's language (`card`: the card it explains). */
export function reasonText(hint, card) {
  switch (hint.reason) {
    case "face_up_pictures":
      return hint.except
        ? t("hints.face_up_pictures_except", { count: hint.min, person: personName(hint.except) })
        : t("hints.face_up_pictures", { count: hint.min });
    case "removed_own_replayable": return t("hints.removed_own_replayable", { card: cardName(card) });
    case "editor_events_value_only": return t(`restrictions.${hint.reason}`);
    case "reaction_only":
    case "not_first_turn": return t(`hints.${hint.reason}`);
    default: return t("hints.unavailable");
  }
}

// the descriptions the hand's cards point at (aria-describedby), out of sight
function descriptions(hand) {
  let box = $("hand-why");
  if (!box) {
    box = el("div", "visually-hidden");
    box.id = "hand-why";
    hand.after(box);
  }
  return box;
}

function markCard(card, text, box) {
  const id = `why-${card.dataset.card}`;
  const said = el("span", "", `${t("hints.why_action")} ${text}`);
  said.id = id;
  box.append(said);
  card.setAttribute("aria-describedby", id);
  card.title = `${cardText(card.dataset.card)}\n${text}`;
  card.classList.add("has-why");
  if (!card.querySelector(".card-why")) {
    const mark = el("span", "card-why", t("hints.why"));
    mark.setAttribute("aria-hidden", "true");  // the description says it in full
    card.append(mark);
  }
}

function unmarkCard(card) {
  card.removeAttribute("aria-describedby");
  card.title = cardText(card.dataset.card);
  card.classList.remove("has-why");
  card.querySelector(".card-why")?.remove();
}

/** Marks the hand and adds the chosen card's reason to the decision area (drawn just before),
 *  when the view carries hints and the player has not turned them off. */
export function renderHints(hand, decision, view, model, settings) {
  const hints = view.hints;
  const toggle = $("hints");
  toggle.closest("label").hidden = !hints;  // a rated match (or a spectator) has none to turn on
  toggle.checked = settings.hints;
  const shown = hints && settings.hints ? hints : { actions: {} };
  const box = descriptions(hand);
  box.replaceChildren();
  for (const card of hand.querySelectorAll(".card")) {
    const hint = shown.actions[card.dataset.card];
    if (hint) markCard(card, reasonText(hint, card.dataset.card), box);
    else unmarkCard(card);
  }
  const chosen = model.chosen?.startsWith("card:") ? model.chosen.slice("card:".length) : null;
  if (!chosen) return;
  const lines = [];
  if (shown.actions[chosen]) lines.push([t("hints.why_action"), reasonText(shown.actions[chosen], chosen)]);
  if (shown.ask) lines.push([t("hints.why_ask"), t(`restrictions.${shown.ask}`)]);
  const idle = view.state.idle?.[chosen];  // R14: a rule stated, not a hint (rated too)
  const use = idle && decision.querySelector("[data-kind=play_action]");
  if (use) {
    use.append(` ${t(idle.all ? "hints.no_effect" : "hints.no_effect_part")}`);
    lines.push([t("hints.why_idle"), idle.parts.map(skipWhy).join("; ")]);
  }
  for (const [question, answer] of lines) {
    const p = el("p", "why-not");
    p.append(el("strong", "", question), ` ${answer}`);
    decision.querySelector(".decision-options")?.after(p);  // the choices keep their place
  }
}
