// The match page's controller. The store holds the latest view, the pending selection and the
// settings; the renderers draw from it; everything with an effect (requests, the socket, timers,
// sounds, notifications, the rematch's claim, navigation) happens here, in answer to the store or
// to the player.
import { api } from "./api.js";
import { mountChat } from "./chat.js";
import { coachChanged, coachFields, coachModel, drawCoach, followCoach, holdsAutoPass, offered, renderPointer } from "./coach.js";
import { beep, flyCard, notify, settleTokens, watchAutoPass } from "./effects.js";
import { rememberCommitment } from "./fairness.js";
import { BOOT, t, useRulesVersion } from "./i18n.js";
import { SEATS } from "./meta.js";
import { renderBoard } from "./render/board.js";
import { decisionModel, renderDecision, renderTargets } from "./render/decision.js";
import { cardElement, renderHand } from "./render/hand.js";
import { renderHints } from "./render/hints.js";
import { moveWords, pointed } from "./render/lesson.js";
import { renderLog } from "./render/log.js";
import { renderPanels } from "./render/panels.js";
import { renderChrome, renderClocks, renderStatus } from "./render/status.js";
import { renderHolding, renderTrack } from "./render/track.js";
import { loadSeat, saveSeat } from "./seats.js";
import { connect } from "./socket.js";
import { SETTING_KEYS, acceptView, createStore, loadSettings, settlePick } from "./store.js";

const $ = (id) => document.getElementById(id);
const root = $("match");
const matchId = root.dataset.matchId;
const spectator = root.dataset.spectator === "yes";
const seat = spectator ? { role: null, token: null } : loadSeat(matchId);
const page = { matchId, spectator, role: seat?.role ?? null, inviteUrl: seat?.inviteUrl, token: seat?.token };
const me = page.role || SEATS[0];  // a spectator sees the table from the first seat's side
const watchKey = encodeURIComponent(BOOT.spectator_key || "");
const viewPath = spectator ? `/api/matches/${matchId}/spectate?key=${watchKey}` : `/api/matches/${matchId}`;
// a seat's token goes in the socket's first message, never in its URL (which logs may print)
const socketPath = spectator ? `/ws/watch/${encodeURIComponent(matchId)}?key=${watchKey}` : `/ws/matches/${encodeURIComponent(matchId)}`;
const hello = spectator ? null : { type: "auth", token: seat?.token || "" };

const store = createStore({
  view: null,
  receivedAt: 0,  // when the view came (ms since epoch): the clocks run from there
  pick: { card: null, pin: null },
  settings: loadSettings(),
  busy: false,
  error: "",
  conn: "",
  rematch: { claiming: false, error: "" },
  ...coachFields(matchId),
});
// what the table offers: the view's choices, narrowed to the taught move on a lesson's step
const lessonOf = (s) => coachModel(s.coach, s.view, s.coachLeft, s.settings.autoPass, s.coachDone);
const shown = (s) => offered(lessonOf(s), s.view);
const isMine = (view) => Boolean(view && view.legal_actions.length > 0);

// ---- intents: what the player asked for -------------------------------------------------------

function receive(next) {
  rememberCommitment(matchId, next.fairness?.commitment);  // to compare once the seed is out
  const patch = acceptView(store.get(), next, Date.now());
  if (patch && store.get().view?.version !== next.version) patch.coachPage = 0;  // a new step's words
  if (patch) store.set(patch);
}

async function refresh() {
  try {
    receive(await api(viewPath, { token: seat.token }));
  } catch (err) {
    store.set({ error: err.status === 401 || err.status === 403 || err.status === 404 ? t("ui.not_found") : err.message });
  }
}

function send(action) {
  const { view, busy } = store.get();
  if (busy || !view) return;
  store.set({ busy: true, error: "" });
  if (socket && socket.send({ type: "action", action, expected_version: view.version })) return;
  api(`/api/matches/${matchId}/actions`, { method: "POST", token: seat.token, body: { action, expected_version: view.version } })
    .then(receive)
    .catch((err) => { store.set({ busy: false, error: err.message }); refresh(); });
}

function toNewMatch(next) {
  saveSeat(next.match_id, next.role, next.seat_token, null);
  window.location.assign(`/match/${next.match_id}`);
}

async function rematch(path) {  // "rematch" (offer) or "rematch/accept"
  try {
    const next = await api(`/api/matches/${matchId}/${path}`, { method: "POST", token: seat.token });
    if (next.seat_token) toNewMatch(next);
  } catch (err) { store.set({ error: err.message }); }
}

function dispatch(intent) {
  const s = store.get();
  if (intent.send) send(intent.send);
  else if (intent.pick) store.set({ pick: { ...s.pick, ...intent.pick } });
  else if (intent.setting) store.set({ settings: { ...s.settings, ...intent.setting } });
  else if (intent.rematch) rematch(intent.rematch);
}

// ---- drawing: every area from the store ------------------------------------------------------

function draw(s, prev) {
  const now = Date.now();
  const fresh = s.view !== prev.view;
  if (s.view && fresh) {
    useRulesVersion(s.view.rules_version);  // before any card or space is worded
    root.dataset.role = me;
    root.dataset.version = String(s.view.version);  // which position is drawn (tests wait on it)
    settleTokens(renderTrack($("track"), s.view, me));
    renderHolding($("holding"), s.view);
    renderBoard($("board"), s.view, me);
    renderHand($("hand"), s.view, me);
    document.querySelector(".area-hand").hidden = !(s.view.state.hands[me] || []).length;
    renderPanels($("panels"), s.view, me);
    renderLog($("log"), s.view, page.role, autoPassNotes(s.view));
  }
  if (s.view && (fresh || s.rematch !== prev.rematch)) renderStatus(s, page, now, dispatch);
  const coached = coachChanged(s, prev);
  if (s.view && (fresh || coached || s.pick !== prev.pick || s.settings !== prev.settings)) {
    const model = decisionModel(shown(s), s.pick);
    renderDecision($("decision"), model, s.settings, dispatch);
    renderTargets(model);
    renderHints($("hand"), $("decision"), s.view, model, s.settings);
  }
  if (s.view && (fresh || coached || s.pick !== prev.pick || s.busy !== prev.busy)) {
    const lesson = lessonOf(s);
    drawCoach($("coach"), store, matchId, lesson, (move) => moveWords(move, me));
    renderPointer(s.busy ? [] : pointed(lesson, settlePick(shown(s), s.pick)));  // a move in flight: nothing to click yet
  }
  renderChrome(s, root);
}

// R18: the log indices where this browser answered a window by itself (the server cannot tell)
let autoPassedFrom = null;
const autoNotes = new Map();
function autoPassNotes(view) {
  if (autoPassedFrom !== null) {
    const i = view.log.findIndex((e, k) => k >= autoPassedFrom && e.type === "reaction_passed" && e.role === page.role);
    if (i >= 0) { autoNotes.set(i, t("names.auto_passed")); autoPassedFrom = null; }
  }
  return autoNotes;
}
function autoPass(action) {
  // only a pass is logged (reaction_passed); Gambit's one-choice prompt (R31) leaves no entry
  autoPassedFrom = action.type === "pass" ? store.get().view.log.length : null;
  send(action);
}

// ---- effects that follow the store ----------------------------------------------------------

function keepSettings(s, prev) {
  for (const [name, key] of Object.entries(SETTING_KEYS)) {
    if (s.settings[name] !== prev.settings[name]) localStorage.setItem(key, s.settings[name] ? "1" : "0");
  }
}

function showOpponentsCard(s, prev) {  // what the other side just played, in motion
  if (!s.view || !prev.view || s.view === prev.view || spectator) return;
  const fresh = s.view.log.slice(prev.view.log.length);
  const played = fresh.filter((e) => e.type === "card_played" && e.role !== page.role).pop();
  const draw = (id) => { const c = cardElement(id, { button: false }); delete c.dataset.target; return c; };  // a picture, not a choice
  if (played && played.card) flyCard($("fly-layer"), played.card, draw);
}

function announceTurn(s, prev) {  // a sound and a notification when the turn becomes mine
  if (s.view === prev.view || !isMine(s.view) || isMine(prev.view)) return;
  if (s.settings.sound) beep();
  notify(t("ui.notify_turn"));
}

function claimRematch(s, prev) {  // the opponent accepted: this seat's place in the new match
  const r = s.view?.rematch;
  const wanted = !spectator && s.view?.status === "finished" && s.view.winner && r?.match_id && !r.claimed[page.role];
  if (!wanted || s.view === prev.view || s.rematch.claiming) return;
  store.set({ rematch: { claiming: true, error: "" } });
  api(`/api/matches/${matchId}/rematch/claim`, { method: "POST", token: seat.token })
    .then(toNewMatch)
    .catch((err) => store.set({ rematch: { claiming: false, error: err.message } }));
}

// ---- the player's hands on the page ---------------------------------------------------------

function activate(event, el) {  // a click (or key) on a highlighted piece of the table
  const s = store.get();
  const intent = el && el.classList.contains("is-target") && decisionModel(shown(s), s.pick).targets.get(el.dataset.target);
  if (!intent) return;
  event.preventDefault();
  dispatch(intent);
}

/** Focus follows the game for keyboard players: to the first choice once a card is chosen, back
 * to the hand once a move is made (only when the focus was on the table already). */
function moveFocus(s, prev) {
  if (!root.contains(document.activeElement) && document.activeElement !== document.body) return;
  const first = (sel) => { const x = document.querySelector(sel); if (x) x.focus({ preventScroll: true }); };
  if (s.pick.card && s.pick.card !== prev.pick.card) first("#decision .decision-options .btn, #decision select");
  else if (s.view !== prev.view && prev.view && s.view.version !== prev.view.version && isMine(s.view)) {
    if (!document.activeElement || document.activeElement === document.body || !document.activeElement.isConnected || root.querySelector("#decision").contains(document.activeElement)) first(document.querySelector("#hand .card.is-target") ? "#hand .card.is-target" : "#decision .decision-options .btn");
  }
}

/** Keyboard shortcuts (listed in the help dialog): 1–9 a card, V value, A action, Esc cancel, ? help. */
function shortcut(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const tag = event.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const help = $("help");
  if (event.key === "?") { event.preventDefault(); if (!help.open) help.showModal(); return; }
  if (help.open) return;
  const s = store.get();
  const click = (sel) => { const b = document.querySelector(sel); if (b) { event.preventDefault(); b.click(); } };
  if (/^[1-9]$/.test(event.key)) {
    const card = document.querySelectorAll("#hand .card")[Number(event.key) - 1];
    if (card && card.classList.contains("is-target")) { event.preventDefault(); dispatch({ pick: { card: card.dataset.card } }); }
  } else if (event.key === "v" || event.key === "V") click('#decision .btn[data-kind="play_value"]');
  else if (event.key === "a" || event.key === "A") click('#decision .btn[data-kind="play_action"]');
  else if (event.key === "Escape" && (s.pick.card || s.pick.pin !== null)) {
    event.preventDefault();
    dispatch({ pick: { card: null, pin: null } });
    const first = document.querySelector("#hand .card.is-target");
    if (first) first.focus({ preventScroll: true });
  }
}

function wire() {
  document.addEventListener("keydown", shortcut);
  $("help-open").addEventListener("click", () => $("help").showModal());
  document.addEventListener("click", (event) => activate(event, event.target.closest("[data-target]")));
  document.addEventListener("keydown", (event) => {
    const el = event.target.closest && event.target.closest("[data-target].is-target");
    if (el && el.namespaceURI === "http://www.w3.org/2000/svg" && (event.key === "Enter" || event.key === " ")) activate(event, el);
  });
  const caption = (event) => {  // the human name of the piece under the pointer or the focus
    const named = event.target.closest && event.target.closest("[data-name]");
    if (named) $("board-caption").textContent = named.dataset.name;
  };
  $("board").addEventListener("pointerover", caption);
  $("board").addEventListener("focusin", caption);
  $("copy-invite").addEventListener("click", async () => {
    const input = $("invite-url");
    try { await navigator.clipboard.writeText(input.value); } catch { input.select(); document.execCommand("copy"); }
    $("copy-invite").textContent = t("ui.copied");
  });
  const setting = (id, name) => $(id).addEventListener("change", () => dispatch({ setting: { [name]: $(id).checked } }));
  setting("skip-anim", "noAnim");
  setting("auto-pass", "autoPass");
  setting("sound", "sound");
  setting("hints", "hints");
  $("resign").addEventListener("click", async () => {
    if (!window.confirm(t("ui.resign_confirm"))) return;
    $("menu").open = false;  // the end screen comes next: nothing should cover it
    try { await api(`/api/matches/${matchId}/resign`, { method: "POST", token: seat.token }); } catch (err) { store.set({ error: err.message }); }
  });
  const ask = $("notify");
  ask.hidden = !("Notification" in window) || Notification.permission !== "default";
  ask.addEventListener("click", async () => { await Notification.requestPermission(); ask.hidden = true; });
}

store.subscribe(draw);
store.subscribe(keepSettings);
store.subscribe(announceTurn);
store.subscribe(showOpponentsCard);
store.subscribe(claimRematch);
watchAutoPass(store, (s) => (s.settings.autoPass && !holdsAutoPass(lessonOf(s)) ? decisionModel(shown(s), s.pick).autoPass : null), autoPass);
followCoach(store, "watergate", matchId, lessonOf);  // a tutorial: its coach, once the view names the lesson
store.subscribe(moveFocus);
setInterval(() => renderClocks($("clocks"), store.get(), Date.now()), 1000);
draw(store.get(), { ...store.get(), view: null });

if (!seat) store.set({ error: t("ui.not_found") });
else {
  if (spectator) root.classList.add("spectator");
  wire();
  refresh();
}
const chat = mountChat($("chat"), { spectator, send: (message) => Boolean(socket?.send(message)) });
store.subscribe((s, before) => { if (s.view && s.view !== before.view) chat.view(s.view); });
const socket = seat ? connect(socketPath, {
  hello,
  onView: receive,
  onError: (err) => store.set({ busy: false, error: err.message }),
  onStatus: (conn) => store.set({ conn }),
  onMessage: chat.frame,
}) : null;
