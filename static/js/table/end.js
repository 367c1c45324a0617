// The end screen's shared pieces (pure; buttons hand their intent to `dispatch`): the rematch
// row, the links onwards and the final ranking of every seat (docs/table-shell.md).
import { api } from "../api.js";
import { t } from "../i18n.js";
import { button, el } from "../render/dom.js";

/** The final ranking: `outcome.ranking` (groups of seats, best first) when the view has it,
 * else the seats ordered by `outcome.scores` (equal scores share a place); null without either. */
export function ranking(view) {
  const o = view.outcome || {};
  if (Array.isArray(o.ranking) && o.ranking.length) return o.ranking.map((g) => (Array.isArray(g) ? g : [g]));
  if (!o.scores) return null;
  const seats = Object.keys(o.scores).sort((a, b) => o.scores[b] - o.scores[a]);
  const groups = [];
  for (const s of seats) {
    const last = groups[groups.length - 1];
    if (last && o.scores[last[0]] === o.scores[s]) last.push(s); else groups.push([s]);
  }
  return groups;
}

/** An ordered list of the ranking's places: "1. Nation 2 (Ana) — 41". */
export function rankingList(view, name) {
  const groups = ranking(view);
  if (!groups) return null;
  const scores = view.outcome?.scores || {};
  const list = el("ol", "end-ranking");
  list.setAttribute("aria-label", t("ui.ranking"));
  let place = 1;
  for (const group of groups) {
    for (const seat of group) {
      const li = el("li", `end-place${place === 1 ? " is-first" : ""}`);
      li.dataset.seat = seat;
      li.append(el("span", "end-place-n", `${place}.`), el("span", "end-place-who", name(seat)));
      if (scores[seat] !== undefined) li.append(el("span", "end-place-score", String(scores[seat])));
      list.append(li);
    }
    place += group.length;
  }
  return list;
}

/** The rematch row for seat `me`, or null (a claimed seat is leaving); `error`: the claim's. */
export function rematchRow(view, me, error, dispatch, name, { cls = "rematch", offer = "ui.rematch_offer" } = {}) {
  const r = view.rematch;
  const row = el("div", cls);
  if (r && r.match_id) {  // the new match exists: this seat's claim is on its way (an effect)
    if (r.claimed?.[me]) return null;
    row.textContent = error || t("ui.rematch_opening");
    return row;
  }
  const offerer = (label, which, primary = true) => {
    const b = button(`btn${primary ? " btn-primary" : ""}`, t(label), () => dispatch({ rematch: which }));
    b.dataset.rematch = which;
    row.append(b);
  };
  if (!r) { offerer(offer, "offer"); return row; }
  // v1.2: a table of more than two answers seat by seat (a duel reads as in v1)
  const table = Array.isArray(r.accepted) && Object.keys(view.players || {}).length > 2;
  const declined = table ? r.declined || [] : [];
  if (r.expired || declined.length) {
    row.textContent = r.expired ? t("ui.rematch_expired") : t("ui.rematch_declined", { who: declined.map(name).join(", ") });
    return row;
  }
  const accepted = table ? r.accepted : [];
  if (r.offered_by === me || accepted.includes(me)) {
    const waiting = table ? Object.keys(view.players || {}).filter((s) => s !== r.offered_by && !accepted.includes(s) && view.players[s]?.kind !== "bot") : [];
    row.textContent = r.offered_by === me ? t("ui.rematch_offered") : t("ui.rematch_you_accepted");
    if (waiting.length) row.textContent += ` ${t("ui.rematch_waiting_for", { who: waiting.map(name).join(", ") })}`;
    return row;
  }
  offerer("ui.rematch_accept", "accept");
  if (table) offerer("ui.rematch_decline", "decline", false);
  return row;
}

/** The links onwards: a new match of the same game (the home page's form, the game chosen), the
 * public replay, and the analysis when the game has one (`analysis`: an element, or null). */
export function endLinks(page, { replayHref, analysis = null, cls = "end-links" } = {}) {
  const links = el("div", cls);
  const again = el("a", "btn btn-primary end-new", t("ui.play_again"));
  again.href = `/?game=${encodeURIComponent(page.game)}#new-match`;
  const shared = el("a", "btn end-replay", t("replay.public_link"));  // anyone's, with the deal's check
  shared.href = replayHref;
  links.append(again, shared);
  if (analysis) links.append(analysis);
  return links;
}

let change = null;  // asked once: an ended match's rating moves no more

/** A rated match's end, for an account's seat: "Your rating: 1512 (+12 in this match)", from the
 * public history (the point this match wrote less the one before, or the 1500 start); else null. */
export function ratingLine(view, page) {
  const id = view.rated && view.players?.[page.role]?.player_id;
  if (!id) return null;
  const line = el("p", "end-rating");
  change ||= api(`/api/players/${id}/ratings?game=${page.game}`).then(({ points: p }) => {
    const i = p.findIndex((x) => x.match_id === page.matchId);
    if (i < 0 || (!i && p.length > 199)) throw i;  // not there, or the one before is past the 200 kept
    const [now, d] = [Math.round(p[i].rating), Math.round(p[i].rating) - Math.round(i ? p[i - 1].rating : 1500)];
    return t("ui.rating_change", { rating: now, change: d < 0 ? `−${-d}` : `+${d}` });
  });
  change.then((text) => { line.textContent = text; }, () => {});
  return line;
}
