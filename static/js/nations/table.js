// The Nations table's controller (its own entry module: the Watergate table is match.js). The
// store holds the latest view and the pending selection; the renderers draw the boards from it;
// a click on a board piece is looked up in the choice model and becomes an action or a pick.
// Requests, the socket, the rematch's claim and navigation happen here only. In replay mode the
// same boards show each step of an ended match.
import { api } from "../api.js";
import { coachChanged, coachFields, coachModel, drawCoach, followCoach, offered, renderPointer, reveal } from "../coach.js";
import { rememberCommitment } from "../fairness.js";
import { clockText } from "../clock.js";
import { BOOT, t } from "../i18n.js";
import { loadSeat, saveSeat } from "../seats.js";
import { connect } from "../socket.js";
import { SETTING_KEYS, createStore, loadSettings, overtaken } from "../store.js";
import { el } from "../render/dom.js";
import { renderProgress, renderScoring } from "./boards.js";
import { actionLabel, choiceModel } from "./choices.js";
import { wireDetail } from "./detail.js";
import { pointed } from "./lesson.js";
import { renderNation } from "./nation.js";
import { renderLog, renderSummary, scoreSheet } from "./summary.js";
import { cardLines, cardName, nationName, nt } from "./text.js";

const $ = (id) => document.getElementById(id);
const root = $("nations");
let shownClocks = null;  // the newest view's clocks and when it came (drawClocks)
const matchId = root.dataset.matchId;
const mode = root.dataset.mode;  // table | replay | admin
const replayMode = mode === "replay" || mode === "admin";
const spectator = root.dataset.spectator === "yes" || replayMode;
const seat = spectator ? { role: null, token: null } : loadSeat(matchId);
const role = seat?.role ?? null;
const SEATS = BOOT.meta.seats;
const me = role || SEATS[0];  // a spectator sees the table from the first seat's side
const them = SEATS.find((s) => s !== me);
const watchKey = encodeURIComponent(BOOT.spectator_key || "");
const viewPath = spectator ? `/api/matches/${matchId}/spectate?key=${watchKey}` : `/api/matches/${matchId}`;
const socketPath = spectator ? `/ws/watch/${encodeURIComponent(matchId)}?key=${watchKey}` : `/ws/matches/${encodeURIComponent(matchId)}`;
const NO_PICK = { worker: null, buying: null };

const store = createStore({ view: null, pick: NO_PICK, busy: false, error: "", conn: "", claiming: false, tab: "board", theirs: false, hints: loadSettings().hints, ...coachFields(matchId) });
// why a choice is closed (its cost, its strength, the moment): a hint, so never in a rated match
// and not once the player turned hints off; the closed piece is still marked
const helped = (s) => Boolean(s.view && !s.view.rated && s.hints);
// a tutorial's coach (Nations has no auto-pass); what the table offers: the view's choices,
// narrowed to the taught move on a lesson's step
const lessonOf = (s) => coachModel(s.coach, s.view, s.coachLeft, false, s.coachDone);
const shown = (s) => offered(lessonOf(s), s.view);
let socket = null;

// ---- intents ---------------------------------------------------------------------------------

function receive(next) {
  rememberCommitment(matchId, next.fairness?.commitment);
  const s = store.get();
  if (overtaken(s.view, next)) return;  // a push overtaken by a newer one
  const again = s.view && next.version === s.view.version;  // the same position: keep what is under way
  store.set({ view: next, busy: false, pick: again ? s.pick : NO_PICK, coachPage: again ? s.coachPage : 0 });
}

async function refresh() {
  try { receive(await api(viewPath, { token: seat.token })); } catch (err) {
    store.set({ error: [401, 403, 404].includes(err.status) ? t("ui.not_found") : err.message });
  }
}

function send(action) {
  const { view, busy } = store.get();
  if (busy || !view) return;
  store.set({ busy: true, error: "", pick: NO_PICK });
  if (socket && socket.send({ type: "action", action, expected_version: view.version })) return;
  api(`/api/matches/${matchId}/actions`, { method: "POST", token: seat.token, body: { action, expected_version: view.version } })
    .then(receive)
    .catch((err) => { store.set({ busy: false, error: err.message }); refresh(); });
}

function toNewMatch(next) {
  saveSeat(next.match_id, next.role, next.seat_token, null);
  window.location.assign(`/nations/match/${next.match_id}`);
}

async function rematch(path) {
  try {
    const next = await api(`/api/matches/${matchId}/${path}`, { method: "POST", token: seat.token });
    if (next.seat_token) toNewMatch(next);
  } catch (err) { store.set({ error: err.message }); }
}

function dispatch(intent) {
  if (!intent) return;
  if (intent.send) send(intent.send);
  else if (intent.pick) store.set({ pick: { ...store.get().pick, ...intent.pick } });
}

// ---- drawing ---------------------------------------------------------------------------------

function turnText(v) {
  if (v.status === "waiting") return nt("waiting");
  if (v.status === "finished") return t("ui.match_ended");
  if (spectator) return nt("spectating");
  const decider = v.state.decision?.seat;
  return decider === role ? nt("your_turn") : nt("their_turn", { nation: nationName(v, decider, me) });
}

function finalBox(v) {
  const box = $("n-final");
  box.hidden = v.status !== "finished";
  if (box.hidden) return;
  const o = v.outcome || {};
  const winner = o.winner || v.winner;
  const parts = [];
  if (o.scores) parts.push(el("h2", "n-h", nt("winner", { nation: nationName(v, winner, me), score: o.scores[winner] })));
  else if (winner && o.reason === "resigned") parts.push(el("h2", "n-h", nt("ended_resigned", { nation: nationName(v, winner, me) })));
  else parts.push(el("h2", "n-h", nt("ended_other", { reason: t(`reasons.${o.reason || v.ended_by}`) })));
  if (role && winner) parts.push(el("p", "n-result", winner === role ? t("ui.you_won") : t("ui.you_lost")));
  if (v.state.scores) parts.push(scoreSheet(v, me));
  if (role && !replayMode) parts.push(rematchRow(v));
  if (!replayMode) {
    const link = el("a", "n-replay-link", t("replay.public_link"));
    link.href = `/nations/replay/${matchId}`;
    parts.push(link);
  }
  box.replaceChildren(...parts.filter(Boolean));
}

function rematchRow(v) {
  const r = v.rematch;
  const row = el("div", "n-rematch");
  if (r && r.match_id) { row.textContent = t("ui.rematch_opening"); return row; }
  if (r && r.offered_by === role) { row.textContent = t("ui.rematch_offered"); return row; }
  const b = el("button", "btn btn-primary", r ? t("ui.rematch_accept") : nt("rematch"));
  b.type = "button";
  b.id = "n-rematch";
  b.addEventListener("click", () => rematch(r ? "rematch/accept" : "rematch"));
  row.append(b);
  return row;
}

function drawTable(v) {
  root.dataset.version = String(v.version);  // what a test (or a style) can wait on
  root.dataset.status = v.status;
  $("n-turn").textContent = turnText(v);
  $("n-round").textContent = nt("round_of", { round: v.state.round, rounds: v.state.rounds });
  $("n-fingerprint").textContent = v.fairness ? v.fairness.commitment : "";
  $("n-whoami").textContent = role ? nationName(v, role, me) : nt("spectating");
  $("n-resign").hidden = !role || v.status !== "active";
  const path = v.spectate_path;
  $("n-spectate").hidden = !path;
  if (path) $("n-spectate-url").value = `${BOOT.link_base || location.origin}${path}`;
  $("n-invite").hidden = !(v.status === "waiting" && seat?.inviteUrl);
  if (seat?.inviteUrl) $("n-invite-url").value = seat.inviteUrl;
  finalBox(v);
  shownClocks = v.clocks ? { clocks: v.clocks, at: performance.now() } : null;
  drawClocks();
}

// the running clock counts down between views, a second at a time, from when its view came
function drawClocks() {
  if (!shownClocks) { $("n-clocks").textContent = ""; return; }
  const { clocks, at } = shownClocks;
  const spent = performance.now() - at;
  $("n-clocks").textContent = SEATS.map((s) => {
    const c = clocks[s];
    return `${c.running ? "▶ " : ""}${nt(`seats.${s}`)} ${clockText(c.remaining_ms - (c.running ? spent : 0))}`;
  }).join(" · ");
}
setInterval(drawClocks, 1000);

/** The boards: drawn again only when the match moved on, not for a refresh of the same version
 * (presence, a rematch offer), so a click under way never loses the piece it began on. */
function drawBoards(v) {
  renderScoring($("n-scoring"), v, me);
  renderProgress($("n-progress"), $("n-progress-title"), v);
  renderNation($("n-mine"), v, me, me);
  renderNation($("n-theirs"), v, them, me);
  renderSummary($("n-summary"), v, me);
  renderLog($("n-log"), v, me);
}

/** Marks every board piece with what a click on it does now, and lays out the buttons. */
function drawChoices(s) {
  const model = choiceModel(shown(s), me, s.pick);
  for (const node of root.querySelectorAll("[data-key]")) {
    const key = [node.dataset.owned, node.dataset.key].find((k) => k && model.targets.has(k));
    node.classList.toggle("is-target", Boolean(key));
    node.classList.toggle("is-picked", s.pick.worker !== null && (node.dataset.key === `worker:${s.pick.worker}` || (s.pick.worker === "idle" && node.dataset.key === "idle")));
    node.classList.toggle("is-buying", s.pick.buying !== null && node.dataset.key === `progress:${s.pick.buying}`);
    const why = model.why.get(node.dataset.key);
    node.classList.toggle("is-blocked", Boolean(why));
    if (why && helped(s)) node.title = why; else node.removeAttribute("title");
    // on the control itself: a card whose name is its button is a plain box around it
    const control = node.matches('button, [role="button"]') ? node : node.querySelector(':scope > [role="button"]');
    if (control) control.setAttribute("aria-disabled", key ? "false" : "true");
  }
  $("n-prompt").textContent = model.prompt;
  root.dataset.pick = s.pick.worker || s.pick.buying ? `${s.pick.worker || ""}|${s.pick.buying || ""}` : "";
  root.dataset.mine = String(model.legal.length > 0 && !s.busy);
  root.dataset.busy = String(s.busy);  // an action sent, its answer not yet here
  const controls = model.buttons.map((b) => {
    const button = el("button", `btn n-control n-control-${b.kind}${b.kind === "pass" ? "" : " btn-primary"}`, b.label);
    button.type = "button";
    button.dataset.kind = b.kind;
    if (b.intent.send) button.dataset.action = JSON.stringify(b.intent.send);  // what the coach points at
    button.disabled = s.busy;
    button.addEventListener("click", () => dispatch(b.intent));
    return button;
  });
  $("n-controls").replaceChildren(...controls);
  // the accessible fallback: every legal action as a button, in the engine's order
  const fallback = model.legal.map((a) => {
    const button = el("button", "btn n-fallback-btn", actionLabel(a, s.view, me));
    button.type = "button";
    button.disabled = s.busy;
    button.addEventListener("click", () => send(a));
    return button;
  });
  $("n-fallback-box").hidden = !fallback.length;
  $("n-fallback").replaceChildren(...fallback);
  return model;
}

let model = null;
function draw(s, prev) {
  const moved = s.view && (!prev.view || s.view.version !== prev.view.version || s.view.status !== prev.view.status || s.view.players !== prev.view.players && JSON.stringify(s.view.players) !== JSON.stringify(prev.view.players));
  if (s.view && s.view !== prev.view) drawTable(s.view);
  if (moved) drawBoards(s.view);
  const coached = coachChanged(s, prev);
  if (s.view && (moved || coached || s.pick !== prev.pick || s.busy !== prev.busy || s.hints !== prev.hints)) {
    model = drawChoices(s);
    const lesson = lessonOf(s);
    drawCoach($("coach"), store, matchId, lesson, (move) => actionLabel(move, s.view, me));
    const points = s.busy ? [] : pointed(root, lesson, s.pick);  // a move in flight: nothing to click yet
    renderPointer(points);
    reveal(points, $("coach"));
  }
  $("n-conn").textContent = s.conn ? t(`ui.${s.conn}`) : "";
  $("n-error").hidden = !s.error;
  $("n-error").textContent = s.error;
  root.querySelector(".n-table").dataset.tab = s.tab;
  $("n-hints-box").hidden = !s.view || s.view.rated || !s.view.role;  // nothing to turn on there
  for (const b of root.querySelectorAll(".n-tab")) b.setAttribute("aria-pressed", String(b.dataset.tab === s.tab));
  root.querySelector(".n-area-theirs").dataset.open = String(s.theirs);  // the other board: a strip, or whole
  $("n-theirs-toggle").setAttribute("aria-expanded", String(s.theirs));
}

// ---- the player's hands on the table ----------------------------------------------------------

function activate(node) {
  if (!model || !node) return;
  const key = [node.dataset.owned, node.dataset.key].find((k) => k && model.targets.has(k));
  if (key) { dispatch(model.targets.get(key)); return; }
  const why = helped(store.get()) && model.why.get(node.dataset.key);
  if (why) $("n-why").textContent = why;
}

function explain(event) {  // hovering or focusing a piece names it and, if it cannot be chosen, says why
  const node = event.target.closest && event.target.closest("[data-key]");
  if (!node || !model) return;
  const card = node.dataset.card;
  const what = card ? `${cardName(card)}: ${cardLines(card).join("; ")}` : "";
  const why = helped(store.get()) && model.why.get(node.dataset.key);
  $("n-why").textContent = [why, what].filter(Boolean).join(" — ");  // why first: the line may be cut
}

function claimRematch(s, prev) {  // the opponent accepted: this seat's place in the new match
  const r = s.view?.rematch;
  if (!role || s.view === prev.view || s.claiming || !(s.view?.status === "finished" && r?.match_id && !r.claimed[role])) return;
  store.set({ claiming: true });
  api(`/api/matches/${matchId}/rematch/claim`, { method: "POST", token: seat.token })
    .then(toNewMatch)
    .catch((err) => store.set({ claiming: false, error: err.message }));
}

function wire() {
  root.addEventListener("click", (event) => {
    // the worker and take-back controls sit inside a card: the innermost piece decides
    const node = event.target.closest("[data-key]");
    if (node) { event.preventDefault(); activate(node); }
  });
  root.addEventListener("keydown", (event) => {
    // a piece's own button, or the name button of a card whose piece holds other buttons
    const button = event.target.closest && event.target.closest('[role="button"]');
    const node = button && button.closest("[data-key]");
    if (node && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); activate(node); }
  });
  root.addEventListener("pointerover", explain);
  root.addEventListener("focusin", explain);
  for (const b of root.querySelectorAll(".n-tab")) b.addEventListener("click", () => store.set({ tab: b.dataset.tab }));
  $("n-theirs-toggle").addEventListener("click", () => store.set({ theirs: !store.get().theirs }));
  $("n-hints").checked = store.get().hints;
  $("n-hints").addEventListener("change", () => {
    const hints = $("n-hints").checked;
    localStorage.setItem(SETTING_KEYS.hints, hints ? "1" : "0");
    store.set({ hints });
  });
  wireDetail(root, $("n-detail"));
  $("n-copy").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText($("n-invite-url").value); } catch { $("n-invite-url").select(); }
    $("n-copy").textContent = t("ui.copied");
  });
  $("n-resign").addEventListener("click", async () => {
    if (!window.confirm(t("ui.resign_confirm"))) return;
    try { await api(`/api/matches/${matchId}/resign`, { method: "POST", token: seat.token }); } catch (err) { store.set({ error: err.message }); }
  });
}

// ---- replay and admin modes: the same boards at every step of a stored match ---------------------

/** Where the steps come from: a public replay (every step at once, as spectators saw it) or the
 * admin's step-through (one step per request, everything shown, the decks' order included). */
async function stepSource() {
  if (mode === "admin") {
    const get = (k) => api(`/api/admin/matches/${encodeURIComponent(matchId)}/steps/${k}`);
    const first = await get(0);
    return {
      last: first.steps,
      fairness: null,
      async at(k) {
        const step = k === 0 ? first : await get(k);
        return { state: step.view, log: step.events, winner: step.winner, reason: step.win_reason, decks: step.view.deck_cards };
      },
    };
  }
  const data = await api(`/api/replays/${encodeURIComponent(matchId)}`);
  return {
    last: data.steps.length - 1,
    fairness: data.fairness,
    async at(k) {
      const step = data.steps[k];
      const done = k === data.steps.length - 1;
      return { state: step.state, log: data.log.slice(0, step.log_length), winner: done ? data.winner : null, reason: data.win_reason };
    },
  };
}

function drawDecks(decks) {  // the admin sees every deck, top last
  const box = $("n-decks");
  box.hidden = !decks;
  if (!decks) return;
  const lines = [...decks.progress.map((d, i) => [`${nt("decks_title")} ${i + 1}`, d]), ...decks.events.map((d, i) => [`${nt("events_title")} ${i + 1}`, d])];
  box.replaceChildren(...lines.map(([title, cards]) => el("p", "n-deck-line", `${title}: ${cards.map(cardName).join(", ") || "—"}`)));
}

async function replay() {
  let source;
  try { source = await stepSource(); } catch { store.set({ error: t("replay.unavailable") }); return; }
  const { last } = source;
  const slider = $("n-slider");
  slider.max = String(last);
  $("n-steps").hidden = false;
  $("n-verify-run").hidden = mode === "admin";
  $("n-verify-run").addEventListener("click", async () => {  // the server's check of the deal
    $("n-verdict").textContent = t("fair.checking");
    try {
      const verdict = await api(`/api/replays/${encodeURIComponent(matchId)}/verify`);
      $("n-verdict").textContent = verdict.ok ? t("fair.proven") : t("fair.not_proven");
    } catch (err) { $("n-verdict").textContent = t("fair.error", { message: err.message }); }
  });
  let asked = 0;
  const show = async (k) => {
    const i = Math.max(0, Math.min(last, k));
    asked = i;
    const step = await source.at(i);
    if (asked !== i) return;  // a later step was asked for meanwhile
    const done = i === last && step.winner !== null;
    slider.value = String(i);
    $("n-step-info").textContent = nt("replay_step", { k: i, n: last });
    drawDecks(step.decks);
    store.set({ view: {
      match_id: matchId, role: null, status: done ? "finished" : "active", version: i,
      state: step.state, legal_actions: [], log: step.log, winner: step.winner,
      outcome: done ? { winner: step.winner, scores: step.state.scores, reason: step.reason } : null,
      fairness: source.fairness,
    } });
  };
  const at = () => Number(slider.value);
  slider.addEventListener("input", () => show(at()));
  $("n-first").addEventListener("click", () => show(0));
  $("n-back").addEventListener("click", () => show(at() - 1));
  $("n-forward").addEventListener("click", () => show(at() + 1));
  $("n-last").addEventListener("click", () => show(last));
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") show(at() - 1);
    else if (e.key === "ArrowRight") show(at() + 1);
  });
  show(mode === "admin" ? 0 : last);
}

store.subscribe(draw);
store.subscribe(claimRematch);
if (!replayMode) followCoach(store, "nations", matchId, lessonOf);  // a tutorial: its coach, once the view names the lesson
wire();
if (replayMode) replay();
else if (!seat) store.set({ error: t("ui.not_found") });
else {
  if (spectator) root.classList.add("spectator");
  refresh();
  socket = connect(socketPath, {
    hello: spectator ? null : { type: "auth", token: seat.token || "" },
    onView: receive,
    onError: (err) => store.set({ busy: false, error: err.message }),
    onStatus: (conn) => store.set({ conn }),
  });
}
