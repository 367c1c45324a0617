// Words for actions and log entries, in the player's language (no rules here: only wording).
import { playerName } from "./people.js";
import { L, META, cardName, colorLetter, colorName, colorsName, personName, roleCap, roleLabel, roleName, t } from "./i18n.js";

/** A track position in a few words, as this seat sees it: "your 2", "their 3" ("Nixon 2" for
 * a spectator); never the letters of the track's ends. */
export function pos(p, me) {
  if (p == null) return "—";
  if (p === 0) return "0";
  const side = p > 0 ? "editor" : "nixon";
  if (!me) return t("names.pos_role", { n: Math.abs(p), role: roleLabel(side) });
  return t(side === me ? "names.pos_mine" : "names.pos_theirs", { n: Math.abs(p) });
}

/** Whose a side of the track is, as `me` sees it: "mine", "theirs", or (a spectator, who has
 * neither) the role's own name. The locale words each case in full ("names.side_at.theirs"),
 * since the languages inflect them differently (pt "o lado do oponente", de "der Redaktion"). */
const sideKey = (side, me) => (!me ? side : side === me ? "mine" : "theirs");
const value = (card) => META.cards[card]?.value ?? "";

// ---- human names for the board's spaces, derived from the metadata's graph
// A space touching an informant's tile is "next to" that informant; an inner space is named
// after the informant most of its neighbours touch ("towards").
const informantAt = Object.fromEntries(META.informants.map((i) => [i.space, i.person]));
const spaceColor = Object.fromEntries(META.spaces.map((s) => [s.id, s.color]));
const neighbours = {};
for (const [a, b] of META.edges) { (neighbours[a] ||= []).push(b); (neighbours[b] ||= []).push(a); }
const SPACE_PLACE = Object.fromEntries(META.spaces.map(({ id }) => {
  const near = (neighbours[id] || []).find((n) => informantAt[n]);
  if (near) return [id, { person: informantAt[near], inner: false }];
  const votes = {};
  for (const n of neighbours[id] || []) for (const m of neighbours[n] || []) if (informantAt[m] && spaceColor[n]) votes[informantAt[m]] = (votes[informantAt[m]] || 0) + 1;
  const person = Object.keys(votes).sort((x, y) => votes[y] - votes[x])[0];
  return [id, { person, inner: true }];
}));
const adj = (c) => L.color_adj?.[c] ?? colorName(c);

/** "green space next to Hugh Sloan", "inner blue space towards John Dean". */
export function spaceName(id) {
  const place = SPACE_PLACE[id];
  if (!place || !place.person) return id;
  return t(place.inner ? "names.space_inner" : "names.space_outer", { color: adj(spaceColor[id]), person: personName(place.person) });
}

/** A token's human name from what this seat sees: "blue/green token", "face-down token". */
export function tokenName(token) {
  if (!token || !token.colors || !token.colors.length) return t("names.token_hidden");
  return t("names.token", { colors: colorsName(token.colors) });
}

/** The token's name followed by the letters it prints ("green/blue token GB"): a control that
 * shows a token is named with the words it shows (WCAG 2.5.3). */
export function letteredName(token) {
  if (!token || !token.colors || !token.colors.length) return tokenName(token);
  return `${tokenName(token)} ${token.colors.map(colorLetter).join("")}`;
}

/** Where a track position is, as this seat sees it: "space 2 on your side" ("on the Editor's
 * side" for a spectator). */
export function placeName(p, me) {
  if (p === 0) return t("names.track_zero");
  const side = p > 0 ? "editor" : "nixon";
  return t("names.track_space", { n: Math.abs(p), side: t(`names.side_at.${sideKey(side, me)}`) });
}

/** The heading over a half of the table: "Your side · Nixon", "The Editor's side"; a spectator
 * sees only the role's name. */
export function sideTitle(side, me) {
  if (!me) return roleCap(side);
  return side === me ? t("names.side_mine", { role: roleCap(side) }) : t(`names.side_of.${side}`);
}

// The tokens the view shows, by handle (so an action naming a handle can name the token).
let known = new Map();
export function learnTokens(view) {
  known = new Map();
  for (const tk of view.state.track.evidence) known.set(tk.handle, { ...tk, where: "track" });
  for (const role of Object.keys(view.state.holding || {})) for (const tk of view.state.holding[role]) known.set(tk.handle, { ...tk, where: "held" });
  for (const [space, tk] of Object.entries(view.state.board.spaces)) if (tk) known.set(tk.handle, { ...tk, where: space });
}
export function handleName(handle, me) {
  const tk = known.get(handle);
  if (!tk) return t("names.token_hidden");
  const at = tk.where === "track" ? ` (${placeName(tk.position, me)})` : "";
  const twins = [...known.values()].filter((o) => o.where === tk.where && o.position === tk.position && tokenName(o) === tokenName(tk));
  const nth = twins.length > 1 ? ` ${twins.findIndex((o) => o.handle === handle) + 1}/${twins.length}` : "";  // two alike tokens on one space
  return `${tokenName(tk)}${at}${nth}`;
}

export function actionLabel(a, me) {
  switch (a.type) {
    case "play_value":
      return t(`actions.play_value_${a.target}`, { card: cardName(a.card), value: value(a.card), token: handleName(a.handle, me), color: colorName(a.color) });
    case "choose_target":
      return t(`actions.choose_target_${a.target}`, { token: handleName(a.handle, me) });
    case "play_action": case "react": case "choose_card": case "gambit_keep":
      return t(`actions.${a.type}`, { card: cardName(a.card) });
    case "choose_picture":
      return t("actions.choose_picture", { person: personName(a.person) });
    case "pin":
      return t("actions.pin", { token: handleName(a.handle, me), space: spaceName(a.space) });
    case "choose_space":
      return spaceName(a.space);
    default:  // pass, choose_token, gambit_remove, done (R28), ask (R29), …
      return t(`actions.${a.type}`, { token: handleName(a.handle, me), space: spaceName(a.space), color: colorName(a.color) });
  }
}

export function playLabel(a, me) {
  if (a.type === "play_action") return t("ui.use_action");
  const head = t("ui.use_value", { value: value(a.card) });
  if (a.target === "ask") return `${head}: ${t("ui.ask_color", { color: colorName(a.color) })}`;
  if (a.target === "none") return t("ui.nothing_to_move");
  const what = a.target === "evidence" ? handleName(a.handle, me) : t(`tokens.${a.target}`);
  return `${head}: ${what}`;
}

// ---- who sits where (the view's "players")

export const seatName = (view, role) => playerName(view.players?.[role]);

/** "Nixon (Bob)"; the role alone while the seat is free. */
export function seatLabel(view, role) {
  const name = seatName(view, role);
  return name ? t("names.seat", { role: roleCap(role), name }) : roleCap(role);
}

/** The log's word for a seat: a named player's "Nixon (Bob)"; the role alone for the computer
 * and guests, whose name would say nothing. */
export const actorLabel = (view) => (role) => (view.players?.[role]?.player_id ? seatLabel(view, role) : roleCap(role));

/** The sentence for log entry `e`; `seen` (handle -> token payload) names tokens the entry
 * gives by handle only, as they were known at that point of the log; `who` names a seat. */
/** Why an instruction has nothing to do: a log line's or a hint's part {reason, what}. */
export function skipWhy({ reason: r, what: w }) {
  return t(`skipped.${r}${/^(token_gained|already_there)$/.test(r) ? `_${w}` : w && r === "no_token" ? "_color" : ""}`, { person: personName(w), color: colorName(w) });
}

export function logSentence(e, me, seen = new Map(), who = roleCap, prev = null) {
  const p = { role: who(e.role), count: e.count, round: e.round, space: e.space, steps: e.steps };
  switch (e.type) {
    case "round_started": return t("log.round_started", { round: e.round, role: roleName(e.initiative) });
    case "cards_drawn":
      return e.cards ? t("log.cards_drawn_own", { cards: e.cards.map(cardName).join(", ") }) : t("log.cards_drawn", p);
    case "tokens_placed": return t("log.tokens_placed", { count: e.tokens.length });
    case "deck_reshuffled": return t("log.deck_reshuffled", p);
    case "card_played": {  // one voice: "You" for the viewer, the role's name otherwise
      const info = META.cards[e.card] || {};
      return t(`log.${e.role === me ? "you_" : ""}card_played_${e.mode}`, {
        role: who(e.role), card: cardName(e.card), against: cardName(e.against), value: info.value ?? "", color: colorName(info.color),
      });
    }
    case "reaction_passed": return e.role === me ? t("log.you_reaction_passed") : t("log.reaction_passed", p);
    case "only_choice": return e.role === me ? t("log.you_only_choice") : t("log.only_choice", p);  // the viewer's own: "You", as beside it
    case "token_revealed": return t("log.token_revealed", { colors: colorsName(e.token.colors) });
    case "token_moved":
      return t(e.by === me ? "log.you_token_moved" : "log.token_moved", {
        count: e.steps, by: who(e.by), what: e.what !== "evidence" ? t(`tokens.${e.what}`) : seen.get(e.handle)?.colors ? t("log.the_token", { token: tokenName(seen.get(e.handle)) }) : t("log.the_hidden_token"), steps: e.steps,
        toward_side: t(`names.side_toward.${e.toward}`), from: pos(e.from), to: pos(e.to),  // whose side, by name: "your opponent's" made the reader work it out
      }) + (e.what === "momentum" && prev?.type === "evidence_pinned" ? ` ${t("log.momentum_symbol")}` : "");  // R24
    case "evidence_gained": return t("log.evidence_gained", { role: who(e.role), count: e.tokens.length });
    case "evidence_pinned": case "token_drawn_from_bag":
      return t(`log.${e.type}`, { role: who(e.role), colors: colorsName(e.token.colors), space: spaceName(e.space) });
    case "token_returned_to_bag":  // de inflects "verdeckt" after the article: its own sentence
      return e.token?.colors?.length ? t("log.token_returned_to_bag", { token: tokenName(e.token) }) : t("log.token_returned_to_bag_hidden");
    case "picture_pinned": case "picture_flipped":
      return t(`log.${e.type}`, { role: who(e.role), person: personName(e.person), face: t(`ui.face_${e.face}`) });
    case "board_evidence_flipped": return t("log.board_evidence_flipped", { space: spaceName(e.space), face: t(`ui.face_${e.token.face}`) });
    case "board_evidence_removed": return t("log.board_evidence_removed", { space: spaceName(e.space) });
    case "restriction_added": return t(`restrictions.${e.rule}`);
    case "face_down_asked": case "face_down_denied": return t(`log.${e.type}`, { color: colorName(e.color) });
    case "instruction_skipped": return t("log.instruction_skipped", { card: /^N?M\d/.test(e.source) ? t("log.momentum_space", { n: e.source.slice(-1) }) : cardName(e.source), why: skipWhy(e) });
    case "instruction_stopped": return t("log.instruction_stopped", { role: roleCap(e.role), card: cardName(e.source) });
    case "play_cancelled": return t("log.play_cancelled", { by: cardName(e.by), card: cardName(e.card) });
    case "card_removed": case "card_discarded": case "card_replayed":
      return t(`log.${e.type}`, { card: cardName(e.card) });
    case "gambit_kept": return t("log.gambit_kept", { removed: cardName(e.removed) });
    case "match_won": return t("log.match_won", { role: who(e.role), reason: t(`reasons.${e.reason}`) });
    case "match_ended": return t(`log.match_ended_${e.reason === "resigned" || e.reason === "timeout" ? e.reason : e.role}`, { role: who(e.role) });
    default: return t(`log.${e.type}`, p);
  }
}
