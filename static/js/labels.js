// Words for actions and log entries, in the player's language (no rules here: only wording).
import { META, cardName, colorName, colorsName, personName, roleCap, roleName, t } from "./i18n.js";

export const pos = (p) => (p == null ? "—" : p > 0 ? `E${p}` : p < 0 ? `N${-p}` : "0");
const value = (card) => META.cards[card]?.value ?? "";

export function actionLabel(a) {
  switch (a.type) {
    case "play_value":
      return t(`actions.play_value_${a.target}`, { card: cardName(a.card), value: value(a.card), handle: a.handle, color: colorName(a.color) });
    case "choose_target":
      return t(`actions.choose_target_${a.target}`, { handle: a.handle });
    case "play_action": case "react": case "choose_card": case "gambit_keep":
      return t(`actions.${a.type}`, { card: cardName(a.card) });
    case "choose_picture":
      return t("actions.choose_picture", { person: personName(a.person) });
    default:
      return t(`actions.${a.type}`, { handle: a.handle, space: a.space });
  }
}

/** A play's label once its card is selected: the card's name is already on screen. */
export function playLabel(a) {
  if (a.type === "play_action") return t("ui.use_action");
  const head = t("ui.use_value", { value: value(a.card) });
  if (a.target === "ask") return `${head}: ${t("ui.ask_color", { color: colorName(a.color) })}`;
  if (a.target === "none") return t("ui.nothing_to_move");
  const what = a.target === "evidence" ? t("ui.token_n", { handle: a.handle }) : t(`tokens.${a.target}`);
  return `${head}: ${what}`;
}

export function logSentence(e, me) {
  const p = { role: roleCap(e.role), count: e.count, round: e.round, space: e.space, steps: e.steps };
  switch (e.type) {
    case "round_started": return t("log.round_started", { round: e.round, role: roleName(e.initiative) });
    case "cards_drawn":
      return e.cards ? t("log.cards_drawn_own", { cards: e.cards.map(cardName).join(", ") }) : t("log.cards_drawn", p);
    case "tokens_placed": return t("log.tokens_placed", { count: e.tokens.length });
    case "card_played":
      return t(`log.card_played_${e.mode}`, { role: roleCap(e.role), card: cardName(e.card), against: cardName(e.against) });
    case "token_revealed": return t("log.token_revealed", { handle: e.token.handle, colors: colorsName(e.token.colors) });
    case "token_moved":
      return t("log.token_moved", {
        by: roleCap(e.by), what: e.what === "evidence" ? t("ui.token_n", { handle: e.handle }) : t(`tokens.${e.what}`), steps: e.steps,
        toward_side: !me ? roleName(e.toward) : e.toward === me ? t("ui.your_side") : t("ui.their_side"),
        from: pos(e.from), to: pos(e.to),
      });
    case "evidence_gained": return t("log.evidence_gained", { role: roleCap(e.role), count: e.tokens.length });
    case "evidence_pinned": case "token_drawn_from_bag":
      return t(`log.${e.type}`, { role: roleCap(e.role), colors: colorsName(e.token.colors), space: e.space });
    case "token_returned_to_bag": return t("log.token_returned_to_bag", { handle: e.token.handle });
    case "picture_pinned": case "picture_flipped":
      return t(`log.${e.type}`, { role: roleCap(e.role), person: personName(e.person), face: t(`ui.face_${e.face}`) });
    case "board_evidence_flipped": return t("log.board_evidence_flipped", { space: e.space, face: t(`ui.face_${e.token.face}`) });
    case "restriction_added": return t(`restrictions.${e.rule}`);
    case "face_down_asked": case "face_down_denied": return t(`log.${e.type}`, { color: colorName(e.color) });
    case "play_cancelled": return t("log.play_cancelled", { by: cardName(e.by), card: cardName(e.card) });
    case "card_removed": case "card_discarded": case "card_replayed":
      return t(`log.${e.type}`, { card: cardName(e.card) });
    case "gambit_kept": return t("log.gambit_kept", { removed: cardName(e.removed) });
    case "match_won": return t("log.match_won", { role: roleCap(e.role), reason: t(`reasons.${e.reason}`) });
    case "match_ended": return t(`log.match_ended_${e.reason === "resigned" || e.reason === "timeout" ? e.reason : e.role}`, { role: roleCap(e.role) });
    default: return t(`log.${e.type}`, p);
  }
}
