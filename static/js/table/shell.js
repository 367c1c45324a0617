// The table shell: one controller for every game's table (docs/table-shell.md). It owns the
// session — seat, store, socket or stored steps, HTTP, chat, coach, clocks' tick, notices, resign,
// rematch — and hands each state to the game's board module (fields, settle, mount, draw; tick,
// autoPass, autoPassed, steps optional), which draws it and reports choices as intents: {send}, {pick},
// {set}, {setting}, {rematch: "offer"|"accept"|"decline"}, {resign}. A board keeps no state.
import { api } from "../api.js";
import { mountChat } from "../chat.js";
import { coachFields, coachModel, followCoach, holdsAutoPass, offered } from "../coach.js";
import { beep, notify, watchAutoPass } from "../effects.js";
import { rememberCommitment } from "../fairness.js";
import { BOOT, t } from "../i18n.js";
import { loadSeat, saveSeat } from "../seats.js";
import { connect } from "../socket.js";
import { SETTING_KEYS, createStore, loadSettings, overtaken } from "../store.js";

const REMATCH_PATHS = { offer: "rematch", accept: "rematch/accept", decline: "rematch/decline" };

/** Runs the table of `root` (a page's table element, data-match-id, data-spectator, data-mode)
 * with `board` (a game's board module). */
export function runTable(root, board) {
  const matchId = root.dataset.matchId;
  const mode = root.dataset.mode || "table";  // table | replay | admin
  const replaying = mode === "replay" || mode === "admin";
  const spectator = root.dataset.spectator === "yes" || replaying;
  const seat = spectator ? { role: null, token: null } : loadSeat(matchId);
  const page = {
    matchId, mode, replaying, spectator, game: board.game,
    role: seat?.role ?? null, token: seat?.token ?? null,
    inviteUrl: seat?.inviteUrl ?? null, invites: seat?.invites ?? null,
  };
  const watchKey = encodeURIComponent(BOOT.spectator_key || "");
  const viewPath = spectator ? `/api/matches/${matchId}/spectate?key=${watchKey}` : `/api/matches/${matchId}`;
  // a seat's token: in the socket's first message, never its URL (logs print URLs)
  const socketPath = spectator ? `/ws/watch/${encodeURIComponent(matchId)}?key=${watchKey}` : `/ws/matches/${encodeURIComponent(matchId)}`;

  const store = createStore({
    view: null,
    receivedAt: 0,  // when the view came (ms since epoch): the clocks run from there
    busy: false,
    error: "",
    conn: "",
    settings: loadSettings(),
    rematch: { claiming: false, error: "" },
    ...coachFields(matchId),
    ...board.fields(page),
  });
  // what the table offers: the view's choices, narrowed to the taught move on a lesson's step
  const lessonOf = (s) => coachModel(s.coach, s.view, s.coachLeft, Boolean(board.autoPass) && s.settings.autoPass, s.coachDone);
  const shown = (s) => offered(lessonOf(s), s.view);
  const isMine = (view) => Boolean(view && view.status === "active" && view.legal_actions.length > 0);
  let socket = null;

  function receive(next) {
    if (!replaying) rememberCommitment(matchId, next.fairness?.commitment);  // to compare once the seed is out
    const s = store.get();
    if (overtaken(s.view, next)) return;  // a push overtaken by a newer one
    const again = Boolean(s.view) && next.version === s.view.version;  // the same position: keep what is under way
    store.set({ view: next, receivedAt: Date.now(), busy: false, pick: board.settle(next, s.pick, again), coachPage: again ? s.coachPage : 0 });
  }

  async function refresh() {
    try { receive(await api(viewPath, { token: page.token })); } catch (err) {
      store.set({ error: [401, 403, 404].includes(err.status) ? t("ui.not_found") : err.message });
    }
  }

  function send(action) {
    const { view, busy } = store.get();
    if (busy || !view || replaying) return;
    store.set({ busy: true, error: "" });
    if (socket && socket.send({ type: "action", action, expected_version: view.version })) return;
    api(`/api/matches/${matchId}/actions`, { method: "POST", token: page.token, body: { action, expected_version: view.version } })
      .then(receive)
      .catch((err) => { store.set({ busy: false, error: err.message }); refresh(); });
  }

  function toNewMatch(next) {
    saveSeat(next.match_id, next.role, next.seat_token, null);
    window.location.assign(`/match/${next.match_id}`);  // the server sends each game to its own page
  }

  async function rematch(which) {
    try {
      const next = await api(`/api/matches/${matchId}/${REMATCH_PATHS[which]}`, { method: "POST", token: page.token });
      if (next.seat_token) toNewMatch(next);
    } catch (err) { store.set({ error: err.message }); }
  }

  function resign() {  // asked in the page's own dialog (templates/resign_dialog.html), not confirm()
    const ask = root.querySelector("[data-shell=resign]");
    ask.returnValue = "";
    ask.onclose = () => ask.returnValue && api(`/api/matches/${matchId}/resign`, { method: "POST", token: page.token }).catch((err) => store.set({ error: err.message }));
    ask.showModal();
  }

  function dispatch(intent) {
    if (!intent) return;
    const s = store.get();
    if (intent.send) send(intent.send);
    else if (intent.pick) store.set({ pick: { ...s.pick, ...intent.pick } });
    else if (intent.set) store.set(intent.set);
    else if (intent.setting) store.set({ settings: { ...s.settings, ...intent.setting } });
    else if (intent.rematch) rematch(intent.rematch);
    else if (intent.resign) resign();
  }

  const ctx = { root, page, store, dispatch, shown, lessonOf, send };

  // ---- effects that follow the store

  store.subscribe((s, prev) => board.draw(s, prev, ctx));
  store.subscribe((s, prev) => {  // settings are kept in this browser
    for (const [name, key] of Object.entries(SETTING_KEYS)) {
      if (s.settings[name] !== prev.settings[name]) localStorage.setItem(key, s.settings[name] ? "1" : "0");
    }
  });
  store.subscribe((s, prev) => {  // a sound and a notice when the decision becomes mine
    if (s.view === prev.view || !isMine(s.view) || isMine(prev.view)) return;
    if (s.settings.sound) beep();
    notify(t("ui.notify_turn"));
  });
  store.subscribe((s, prev) => {  // the others accepted: this seat's place in the new match
    const r = s.view?.rematch;
    const wanted = page.role && s.view?.status === "finished" && r?.match_id && r.claimed && !r.claimed[page.role];
    if (!wanted || s.view === prev.view || s.rematch.claiming) return;
    store.set({ rematch: { claiming: true, error: "" } });
    api(`/api/matches/${matchId}/rematch/claim`, { method: "POST", token: page.token })
      .then(toNewMatch)
      .catch((err) => store.set({ rematch: { claiming: false, error: err.message } }));
  });
  if (board.autoPass) watchAutoPass(store, (s) => (s.settings.autoPass && !holdsAutoPass(lessonOf(s)) ? board.autoPass(s, ctx) : null), (action) => board.autoPassed(action, ctx));
  if (!replaying) followCoach(store, board.game, matchId, lessonOf);  // a tutorial: its coach, once the view names the lesson

  board.mount(ctx);
  if (board.tick) setInterval(() => board.tick(store.get(), Date.now(), ctx), 1000);
  board.draw(store.get(), { ...store.get(), view: null }, ctx);

  // a replay's step controls: a board that has replay pages (steps) loads them, only there
  if (replaying) { board.steps().then(({ playSteps }) => playSteps(root, store, page)); return; }
  if (!seat) { window.location.replace(`/match/${encodeURIComponent(matchId)}/here`); return; }
  if (spectator) root.classList.add("spectator");
  refresh();
  const chatBox = root.querySelector("[data-shell=chat]");
  const chat = chatBox ? mountChat(chatBox, { spectator, send: (message) => Boolean(socket?.send(message)) }) : null;
  if (chat) store.subscribe((s, before) => { if (s.view && s.view !== before.view) chat.view(s.view); });
  socket = connect(socketPath, {
    hello: spectator ? null : { type: "auth", token: page.token || "" },
    onView: receive,
    onError: (err) => store.set({ busy: false, error: err.message }),
    onStatus: (conn) => store.set({ conn }),
    onMessage: chat ? chat.frame : undefined,
  });
  // the bell comes after the first view (the first paint's budget: tests/e2e/test_locales.py)
  let bell = false;
  store.subscribe((s) => { if (s.view && !bell) bell = import("../bell.js"); });
}
