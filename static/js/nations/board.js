// Nations' board for the table shell (static/js/table/shell.js): the progress board, the seat's
// own nation in full, every other nation as a summary that opens, the scoring board, the log, the
// card sheet (a card's whole face with its buy buttons) and the end screen. It draws the shell's
// state and reports choices as intents; it opens no socket and keeps nothing of its own (the
// pending pick, the open sheet, the open nation and the tab are the shell's store fields).
import { coachChanged, showCoach } from "../coach.js";
import { clockText } from "../clock.js";
import { BOOT, t } from "../i18n.js";
import { button, el } from "../render/dom.js";
import { analysisBox } from "../render/analysis.js";
import { endLinks, rankingList, ratingLine, rematchRow } from "../table/end.js";
import { cardFace, renderProgress, renderScoring } from "./boards.js";
import { actionLabel, buyNotes, choiceModel } from "./choices.js";
import { wireDetail } from "./detail.js";
import { pointed } from "./lesson.js";
import { renderNation, renderOthers } from "./nation.js";
import { renderLog, renderSummary, scoreSheet } from "./summary.js";
import { cardName, nationName, nt } from "./text.js";

export const game = "nations";
export const steps = () => import("../table/steps.js");  // its replay and the admin's step-through
const $ = (id) => document.getElementById(id);
const NO_PICK = { worker: null };

export function fields() {
  return { pick: NO_PICK, tab: "board", open: null, sheet: null };
}

/** A new position drops the pending pick; the same one (a presence or rematch refresh) keeps it. */
export const settle = (view, pick, again) => (again ? pick : NO_PICK);

/** The analysis's words for the computer's choice at an earlier decision. */
const bestLabel = (v, me) => (a) => {
  const card = cardName(a.card);
  if (a.type === "choose") return nt("analysis_best.choose", { n: a.option + 1 });
  if (["buy", "deploy", "grow", "hire"].includes(a.type)) return nt(`analysis_best.${a.type}`, { card });
  return actionLabel(a, v, me);  // pass, undeploy, bonus: worded alike at any time
};

const seatOf = (page) => page.role || BOOT.meta.seats[0];  // a spectator sees the table from the first seat's side
// why a choice is closed (its cost, its strength, the moment): a hint, so never in a rated match
// and not once the player turned hints off; the closed piece is still marked
const helped = (s) => Boolean(s.view && !s.view.rated && s.settings.hints);
const seatsOf = (v) => v.state?.order?.length ? v.state.order : Object.keys(v.players || {});

export function words(move, s, ctx) {
  return actionLabel(move, s.view, seatOf(ctx.page));
}

// drawing

function turnText(v, page) {
  if (v.status === "waiting") return nt("waiting");
  if (v.status === "finished") return t("ui.match_ended");
  if (page.spectator) return nt("spectating");
  const decider = v.state.decision?.seat;
  return decider === page.role ? nt("your_turn") : nt("their_turn", { nation: nationName(v, decider, seatOf(page)) });
}

/** The seats nobody has taken yet (a waiting table's open invitations). */
const openSeats = (v) => Object.entries(v.players || {}).filter(([, p]) => p && p.kind === "human" && p.name == null).map(([seat]) => seat);

function drawInvites(v, page) {
  const box = $("n-invite");
  const open = v.status === "waiting" ? openSeats(v) : [];
  const links = page.invites || (page.inviteUrl ? { [open[0] || "link"]: page.inviteUrl } : {});
  box.hidden = v.status !== "waiting";
  if (box.hidden) return;
  const me = seatOf(page);
  $("n-open-seats").textContent = open.length ? nt("open_seats", { seats: open.map((s) => nationName(v, s, me)).join(", ") }) : "";
  const rows = Object.entries(links).filter(([seat]) => !open.length || open.includes(seat) || seat === "link").map(([seat, url], i) => {
    const row = el("div", "n-invite-row");
    row.dataset.seat = seat;
    const input = el("input", "n-invite-url");
    input.readOnly = true;
    input.value = url;
    if (i === 0) input.id = "n-invite-url";
    const label = seat === "link" ? t("ui.invite_share") : nt("invite_for", { nation: nt(`seats.${seat}`) });
    input.setAttribute("aria-label", label);
    const copy = button("btn n-copy", t("ui.copy"), async () => {
      try { await navigator.clipboard.writeText(url); } catch { input.select(); }
      copy.textContent = t("ui.copied");
    });
    row.append(el("span", "n-invite-seat", seat === "link" ? "" : nt(`seats.${seat}`)), input, copy);
    return row;
  });
  $("n-invite-links").replaceChildren(...rows);
}

function finalBox(s, ctx) {
  const v = s.view;
  const { page, dispatch } = ctx;
  const me = seatOf(page);
  const box = $("n-final");
  box.hidden = v.status !== "finished";
  if (box.hidden) return;
  const o = v.outcome || {};
  const winner = o.winner || v.winner;
  const name = (seat) => nationName(v, seat, me);
  const parts = [];
  if (o.scores && winner) parts.push(el("h2", "n-h", nt("winner", { nation: name(winner), score: o.scores[winner] })));
  else if (winner && o.reason === "resigned") parts.push(el("h2", "n-h", nt("ended_resigned", { nation: name(winner) })));
  else parts.push(el("h2", "n-h", nt("ended_other", { reason: t(`reasons.${o.reason || v.ended_by}`) })));
  if (page.role && winner) parts.push(el("p", "n-result", winner === page.role ? t("ui.you_won") : t("ui.you_lost")));
  parts.push(ratingLine(v, page) || "");
  const ranked = rankingList(v, name);
  if (ranked) parts.push(el("h3", "n-h3", t("ui.ranking")), ranked);
  // the other people at the table, each linking to their page: follow or challenge them there
  const people = seatsOf(v).filter((seat) => seat !== page.role && v.players?.[seat]?.player_id);
  if (people.length) {
    const link = (seat) => Object.assign(el("a", "", v.players[seat].name), { href: `/players/${encodeURIComponent(v.players[seat].player_id)}` });
    parts.push(el("p", "n-people", t("social.end_people"), ...people.flatMap((seat, i) => [i ? ", " : " ", link(seat)])));
  }
  if (v.state.scores) parts.push(scoreSheet(v, me));
  if (!page.replaying) {
    // a person's seat has its analysis (the computer's choices worded without the positions'
    // prices: the board has moved on since), its swings linking their step of the replay
    const replay = `/nations/replay/${page.matchId}`;
    const analysis = page.role && winner && o.reason !== "abandoned" ? analysisBox(page, { label: bestLabel(v, me), note: "nations.analysis_note", replay }) : null;
    const links = endLinks(page, { replayHref: replay, analysis, cls: "n-end-links" });
    if (page.role && winner) {
      // a duel swaps its seats; a table of more keeps every seat (contract v1.2)
      const offer = seatsOf(v).length > 2 ? "nations.rematch_table" : "nations.rematch";
      const row = rematchRow(v, page.role, s.rematch.error, dispatch, name, { cls: "n-rematch", offer });
      if (row) links.prepend(row);
    }
    parts.push(links);
  }
  box.replaceChildren(...parts);
}

function drawTable(s, ctx) {
  const v = s.view;
  const { page, root } = ctx;
  root.dataset.version = String(v.version);  // what a test (or a style) can wait on
  root.dataset.status = v.status;
  root.dataset.phase = v.state.decision?.kind || "";  // growth, turn, golden_age (tests wait on it)
  $("n-turn").textContent = turnText(v, page);
  $("n-round").textContent = nt("round_of", { round: v.state.round, rounds: v.state.rounds });
  $("n-fingerprint").textContent = v.fairness ? v.fairness.commitment : "";
  $("n-whoami").textContent = page.role ? nationName(v, page.role, page.role) : nt("spectating");
  $("n-resign").hidden = !page.role || v.status !== "active";
  const path = v.spectate_path;
  $("n-spectate").hidden = !path;
  if (path) $("n-spectate-url").value = `${BOOT.link_base || location.origin}${path}`;
  drawInvites(v, page);
  finalBox(s, ctx);
  tick(s, Date.now());
  const mine = Boolean(page.role) && v.legal_actions.length > 0 && v.status === "active";
  document.title = `${mine ? "● " : ""}${nt("title")} · ${t("ui.title")}`;
}

/** The clocks of every seat, by seat number; the running one counts down from when its view came. */
export function tick(s, now) {
  const box = $("n-clocks");
  const c = s.view?.clocks;
  if (!c) { box.textContent = ""; return; }
  const spent = now - s.receivedAt;
  box.textContent = Object.keys(c).filter((seat) => c[seat]?.remaining_ms !== undefined).sort().map((seat) => {
    const k = c[seat];
    return `${k.running ? "▶ " : ""}${nt(`seats.${seat}`)} ${clockText(k.remaining_ms - (k.running ? spent : 0))}`;
  }).join(" · ");
}

/** The boards: drawn again only when the match moved on (or who sits where changed), not for a
 * refresh of the same version, so a click under way never loses the piece it began on. */
function drawBoards(s, ctx) {
  const v = s.view;
  const me = seatOf(ctx.page);
  renderScoring($("n-scoring"), v, me);
  renderProgress($("n-progress"), $("n-progress-title"), v);
  renderNation($("n-mine"), v, me, me);
  renderOthers($("n-theirs"), v, me);
  renderSummary($("n-summary"), v, me);
  renderLog($("n-log"), v, me);
  drawDecks(v.deck_cards);
}

function drawDecks(decks) {  // the admin sees every deck, top last
  const box = $("n-decks");
  box.hidden = !decks;
  if (!decks) return;
  const lines = [...decks.progress.map((d, i) => [`${nt("decks_title")} ${i + 1}`, d]), ...decks.events.map((d, i) => [`${nt("events_title")} ${i + 1}`, d])];
  box.replaceChildren(...lines.map(([title, cards]) => el("p", "n-deck-line", `${title}: ${cards.map(cardName).join(", ") || "—"}`)));
}

/** The other nations' summaries: which one is open (its whole board shown), and presence. */
function drawOthers(s) {
  for (const other of document.querySelectorAll("#n-theirs .n-other")) {
    const open = other.dataset.seat === s.open;
    other.classList.toggle("is-open", open);
    other.querySelector(".n-other-toggle").setAttribute("aria-expanded", String(open));
    other.querySelector(".n-other-board").hidden = !open;
  }
  document.querySelector(".n-area-theirs").dataset.open = String(Boolean(s.open));
}

const pressable = (cls, label, busy, onclick) => Object.assign(button(cls, label, onclick), { disabled: busy });

/** Marks every board piece with what a click on it does now, and lays out the buttons. */
function drawChoices(s, ctx) {
  const { root, page, dispatch, shown, send } = ctx;
  const model = choiceModel(shown(s), seatOf(page), s.pick);
  for (const node of root.querySelectorAll(".n-table [data-key]")) {
    const key = [node.dataset.owned, node.dataset.key].find((k) => k && model.targets.has(k));
    node.classList.toggle("is-target", Boolean(key));
    node.classList.toggle("is-picked", s.pick.worker !== null && (node.dataset.key === `worker:${s.pick.worker}` || (s.pick.worker === "idle" && node.dataset.key === "idle")));
    node.classList.toggle("is-buying", Boolean(s.sheet) && node.dataset.key === `progress:${s.sheet}`);
    const why = model.why.get(node.dataset.key);
    node.classList.toggle("is-blocked", Boolean(why));
    node.removeAttribute("title");  // a reason is shown on the page (a tap cannot show a title)
    // on the control itself: a card whose name is its button is a plain box around it
    const control = node.matches('button, [role="button"]') ? node : node.querySelector(':scope > [role="button"]');
    // a card always answers a tap (its sheet, or why it is closed): never disabled
    if (control) control.setAttribute("aria-disabled", key || node.dataset.card ? "false" : "true");
    if (node.dataset.key?.startsWith("progress:")) node.setAttribute("aria-haspopup", "dialog");
  }
  $("n-prompt").textContent = model.prompt;
  root.dataset.pick = s.pick.worker ? `${s.pick.worker}|` : "";
  root.dataset.mine = String(model.legal.length > 0 && !s.busy);
  root.dataset.busy = String(s.busy);  // an action sent, its answer not yet here
  const controls = model.buttons.map((b) => {
    const button = pressable(`btn n-control n-control-${b.kind}${b.kind === "pass" ? "" : " btn-primary"}`, b.label, s.busy, () => dispatch(b.intent));
    button.dataset.kind = b.kind;
    if (b.intent.send) button.dataset.action = JSON.stringify(b.intent.send);  // what the coach points at
    return button;
  });
  $("n-controls").replaceChildren(...controls);
  // the accessible fallback: every legal action as a button, in the engine's order
  const fallback = model.legal.map((a) => pressable("btn n-fallback-btn", actionLabel(a, s.view, seatOf(page)), s.busy, () => send(a)));
  $("n-fallback-box").hidden = !fallback.length;
  $("n-fallback").replaceChildren(...fallback);
  return model;
}

/** The card sheet: the whole face of `s.sheet`, what a purchase of it would replace or discard,
 * and one button per way to buy it now (or why it cannot be bought). */
function drawSheet(s, ctx, model) {
  const dialog = $("n-sheet");
  const card = s.sheet;
  const onBoard = card && s.view?.state?.progress?.rows.some((row) => row.includes(card));
  const owned = card && !onBoard && ctx.root.querySelector(`.n-table [data-card="${CSS.escape(card)}"]`);
  if (card && !onBoard && !owned) { ctx.dispatch({ set: { sheet: null } }); return; }  // gone from the table
  if (!card) { if (dialog.open) dialog.close(); ctx.root.dataset.sheet = ""; return; }
  const me = seatOf(ctx.page);
  const body = $("n-sheet-body");
  const parts = [cardFace(card)];
  if (onBoard) {
    const row = s.view.state.progress.rows.findIndex((r) => r.includes(card));
    parts.push(el("p", "n-sheet-price", nt("row_cost", { row: row + 1, cost: s.view.state.progress.costs[row] })));
    const buys = model.legal.filter((a) => a.type === "buy" && a.card === card);
    for (const note of buyNotes(s.view, me, card)) parts.push(el("p", "n-sheet-note", note));
    const buttons = buys.map((a) => {
      const b = pressable("btn btn-primary n-buy is-target", actionLabel(a, s.view, me), s.busy, () => { ctx.dispatch({ set: { sheet: null } }); ctx.dispatch({ send: a }); });
      b.dataset.action = JSON.stringify(a);  // what the coach points at
      return b;
    });
    if (buttons.length) parts.push(el("div", "n-sheet-buys", ...buttons));
    else {
      const why = model.why.get(`progress:${card}`);
      parts.push(el("p", "n-sheet-why", helped(s) && why ? why : nt("not_buyable")));
    }
  } else if (owned) {
    const why = helped(s) && model.why.get(owned.dataset.key);
    if (why) parts.push(el("p", "n-sheet-why", why));
  }
  body.replaceChildren(...parts);
  ctx.root.dataset.sheet = card;
  if (!dialog.open) dialog.showModal();
}

let model = null;  // the choice model drawn last (the click handler reads it; redrawn from the store)
export function draw(s, prev, ctx) {
  const { root, page, store, lessonOf } = ctx;
  const v = s.view;
  const moved = v && (!prev.view || v.version !== prev.view.version || v.status !== prev.view.status || (v.players !== prev.view.players && JSON.stringify(v.players) !== JSON.stringify(prev.view.players)) || (v.presence !== prev.view.presence && JSON.stringify(v.presence) !== JSON.stringify(prev.view.presence)));
  if (v && v !== prev.view) drawTable(s, ctx);
  else if (v && s.rematch !== prev.rematch) finalBox(s, ctx);
  if (moved || s.settings !== prev.settings) $("n-why").textContent = "";  // a reason of the last position
  if (moved) drawBoards(s, ctx);
  if (v && (moved || s.open !== prev.open)) drawOthers(s);
  const coached = coachChanged(s, prev);
  if (v && (moved || coached || s.pick !== prev.pick || s.busy !== prev.busy || s.settings !== prev.settings || s.sheet !== prev.sheet)) {
    model = drawChoices(s, ctx);
    drawSheet(s, ctx, model);
    const lesson = lessonOf(s);
    const points = () => (s.busy ? [] : pointed(root, lesson, s.pick, s.sheet));  // a move in flight: nothing to click yet
    showCoach($("coach"), store, page.matchId, lesson, (move) => actionLabel(move, v, seatOf(page)), points, (c, at) => c.reveal(at, $("coach")));
  }
  $("n-conn").textContent = s.conn ? t(`ui.${s.conn}`) : "";
  $("n-error").hidden = !s.error;
  $("n-error").textContent = s.error;
  root.querySelector(".n-table").dataset.tab = s.tab;
  $("n-hints").checked = s.settings.hints;
  $("n-hints-box").hidden = !v || v.rated || !v.role;  // nothing to turn on there
  for (const b of root.querySelectorAll(".n-tab")) b.setAttribute("aria-pressed", String(b.dataset.tab === s.tab));
}

// the player's hands on the table

export function mount(ctx) {
  const { root, store, dispatch } = ctx;
  const activate = (node) => {
    if (!model || !node) return;
    const s = store.get();
    const key = [node.dataset.owned, node.dataset.key].find((k) => k && model.targets.has(k));
    const tile = node.closest("[data-card]");
    // a progress card opens its sheet (read it whole, then buy): never a purchase on one tap
    if (node.dataset.key?.startsWith("progress:")) { dispatch({ set: { sheet: node.dataset.card } }); return; }
    if (key) { dispatch(model.targets.get(key)); return; }
    const why = helped(s) && model.why.get(node.dataset.key);
    if (why) $("n-why").textContent = why;  // the reason, where a tap can see it
    else if (tile) dispatch({ set: { sheet: tile.dataset.card } });  // nothing to do with it: read it
  };
  root.addEventListener("click", (event) => {
    if (event.target.closest("#n-sheet, #n-final, .n-other-toggle, #n-invite")) return;
    // the worker and take-back controls sit inside a card: the innermost piece decides
    const node = event.target.closest("[data-key], .n-table [data-card]");
    if (node) { event.preventDefault(); activate(node); }
  });
  root.addEventListener("keydown", (event) => {
    // a piece's own button, or the name button of a card whose piece holds other buttons
    const button = event.target.closest && event.target.closest('[role="button"]');
    const node = button && button.closest("[data-key]");
    if (node && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); activate(node); }
  });
  const explain = (event) => {  // a mouse over (or the focus on) a closed piece says why it is closed
    const node = event.target.closest && event.target.closest("[data-key]");
    if (!node || !model) return;
    const why = helped(store.get()) && model.why.get(node.dataset.key);
    $("n-why").textContent = why || "";  // a piece that is open (or hints off): nothing to explain
  };
  root.addEventListener("pointerover", (event) => { if (event.pointerType === "mouse") explain(event); });
  root.addEventListener("focusin", explain);
  for (const b of root.querySelectorAll(".n-tab")) b.addEventListener("click", () => dispatch({ set: { tab: b.dataset.tab } }));
  $("n-theirs").addEventListener("click", (event) => {
    const toggle = event.target.closest(".n-other-toggle");
    if (!toggle) return;
    const seat = toggle.closest(".n-other").dataset.seat;
    dispatch({ set: { open: store.get().open === seat ? null : seat } });
  });
  $("n-hints").addEventListener("change", () => dispatch({ setting: { hints: $("n-hints").checked } }));
  const sheet = $("n-sheet");
  sheet.addEventListener("close", () => { if (store.get().sheet) dispatch({ set: { sheet: null } }); });
  sheet.addEventListener("click", (event) => { if (event.target === sheet) sheet.close(); });  // a tap beside it
  $("n-sheet-close").addEventListener("click", () => sheet.close());
  wireDetail(root.querySelector(".n-table"), $("n-detail"));
  $("n-resign").addEventListener("click", () => { $("n-menu").open = false; dispatch({ resign: true }); });
}

