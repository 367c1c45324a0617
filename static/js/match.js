// The match page: holds the latest view, renders every area from it, and sends chosen actions.
import { api } from "./api.js";
import { BOOT, roleCap, t } from "./i18n.js";
import { renderBoard } from "./render/board.js";
import { createDecision } from "./render/decision.js";
import { renderHand } from "./render/hand.js";
import { renderLog } from "./render/log.js";
import { renderPanels } from "./render/panels.js";
import { renderHolding, renderTrack } from "./render/track.js";
import { SEATS, other } from "./meta.js";
import { loadSeat, saveSeat } from "./seats.js";
import { connect } from "./socket.js";

const $ = (id) => document.getElementById(id);
const root = $("match");
const matchId = root.dataset.matchId;
const spectator = root.dataset.spectator === "yes";
const seat = spectator ? { role: null, token: null } : loadSeat(matchId);
const viewPath = spectator
  ? `/api/matches/${matchId}/spectate?key=${encodeURIComponent(BOOT.spectator_key || "")}`
  : `/api/matches/${matchId}`;
const socketPath = spectator
  ? `/ws/watch/${encodeURIComponent(matchId)}?key=${encodeURIComponent(BOOT.spectator_key || "")}`
  : `/ws/matches/${encodeURIComponent(matchId)}?token=${encodeURIComponent(seat?.token || "")}`;
let clockBase = 0;  // when the shown clocks were computed (ms since epoch)
let view = null;
let busy = false;
let socket = null;

function showError(message) {
  const box = $("match-error");
  box.textContent = message;
  box.hidden = !message;
}

function send(action) {
  if (busy || !view) return;
  busy = true;
  root.classList.add("busy");
  showError("");
  const message = { type: "action", action, expected_version: view.version };
  if (socket && socket.send(message)) return;
  api(`/api/matches/${matchId}/actions`, { method: "POST", token: seat.token, body: { action, expected_version: view.version } })
    .then(receive)
    .catch((err) => { busy = false; root.classList.remove("busy"); showError(err.message); refresh(); });
}

const decision = createDecision($("decision"), { send, me: seat?.role || "editor" });

function markTargets() {
  document.querySelectorAll(".is-target").forEach((el) => {
    el.classList.remove("is-target");
    if (el.namespaceURI === "http://www.w3.org/2000/svg") el.setAttribute("tabindex", "-1");
  });
  for (const key of decision.targets.keys()) {
    document.querySelectorAll(`[data-target="${CSS.escape(key)}"]`).forEach((el) => {
      el.classList.add("is-target");
      if (el.namespaceURI === "http://www.w3.org/2000/svg") el.setAttribute("tabindex", "0");
    });
  }
}

function ago(epoch) {
  const minutes = Math.max(0, Math.round((Date.now() / 1000 - epoch) / 60));
  return minutes < 60 ? `${minutes} min` : minutes < 2880 ? `${Math.round(minutes / 60)} h` : `${Math.round(minutes / 1440)} d`;
}

function renderPresence(v) {
  const box = $("presence");
  const who = spectator ? SEATS : [other(seat.role)];
  box.textContent = (v.presence ? who : []).map((r) => {
    const p = v.presence[r];
    const state = p.online ? t("ui.online") : p.last_seen ? t("ui.last_seen", { when: ago(p.last_seen) }) : t("ui.never_seen");
    return `${roleCap(r)}: ${state}`;
  }).join(" · ");
  box.className = `presence ${who.every((r) => v.presence?.[r]?.online) ? "on" : "off"}`;
}

function fmt(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s >= 86400) return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
  if (s >= 3600) return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function renderClocks() {
  const box = $("clocks");
  const c = view?.clocks;
  box.hidden = !c;
  if (!c) return;
  const spent = Date.now() - clockBase;
  box.textContent = SEATS.map((r) => {
    const left = c[r].remaining_ms - (c[r].running ? spent : 0);
    return `${c[r].running ? "▶ " : ""}${roleCap(r)} ${fmt(left)}`;
  }).join(" · ");
}
setInterval(renderClocks, 1000);

let wasMine = false;
function announceTurn(mine) {
  if (mine && !wasMine) {
    if (localStorage.getItem("wg.sound") === "1") beep();
    if (document.hidden && "Notification" in window && Notification.permission === "granted") {
      new Notification(t("ui.notify_turn"));  // eslint-disable-line no-new
    }
  }
  wasMine = mine;
}

function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.35);
  } catch { /* no audio here */ }
}

async function renderRematch(final, v) {
  if (spectator) return;
  const me = seat.role;
  const r = v.rematch;
  const row = document.createElement("div");
  row.className = "rematch";
  if (r && r.match_id) {
    if (!r.claimed[me]) {
      row.textContent = t("ui.rematch_opening");
      final.append(row);
      try {
        const next = await api(`/api/matches/${matchId}/rematch/claim`, { method: "POST", token: seat.token });
        saveSeat(next.match_id, next.role, next.seat_token, null);
        window.location.assign(`/match/${next.match_id}`);
      } catch (err) { row.textContent = err.message; }
      return;
    }
    return;
  }
  const go = async (path) => {
    try {
      const next = await api(`/api/matches/${matchId}/${path}`, { method: "POST", token: seat.token });
      if (next.seat_token) {
        saveSeat(next.match_id, next.role, next.seat_token, null);
        window.location.assign(`/match/${next.match_id}`);
      }
    } catch (err) { showError(err.message); }
  };
  const b = document.createElement("button");
  b.type = "button";
  b.className = "btn btn-primary";
  if (!r) { b.textContent = t("ui.rematch_offer"); b.addEventListener("click", () => go("rematch")); row.append(b); }
  else if (r.offered_by === me) row.textContent = t("ui.rematch_offered");
  else { b.textContent = t("ui.rematch_accept"); b.addEventListener("click", () => go("rematch/accept")); row.append(b); }
  final.append(row);
}

function renderStatus(v) {
  const me = seat.role;
  const d = v.state.decision;
  const mine = v.legal_actions.length > 0;
  renderPresence(v);
  clockBase = Date.now();
  renderClocks();
  announceTurn(mine);
  $("resign").hidden = spectator || v.status !== "active";
  const spectate = $("spectate-box");
  spectate.hidden = spectator || !v.spectate_path;
  if (!spectate.hidden) $("spectate-url").value = `${location.origin}${v.spectate_path}`;
  $("whoami").textContent = spectator ? t("ui.spectating")
    : `${t("ui.you_are")}: ${roleCap(me)} · ${t("ui.opponent_is")}: ${t(`ui.${v.opponent || "human"}`)}`;
  $("round").textContent = `${t("ui.round")} ${v.state.round}`;
  const turn = $("turn-indicator");
  turn.textContent = v.status === "finished" ? "" : v.status === "waiting" ? t("ui.waiting_opponent") : mine ? t("ui.your_turn") : t("ui.waiting_for", { role: roleCap(d ? d.role : "") });
  turn.className = `turn-indicator ${mine ? "mine" : "theirs"}`;
  turn.hidden = !turn.textContent;
  document.body.classList.toggle("my-turn", mine);
  document.title = `${mine ? "● " : ""}${t("ui.title")}`;
  $("favicon").href = mine ? "/static/img/favicon-turn.svg" : "/static/img/favicon.svg";
  const invite = $("invite-box");
  invite.hidden = !(v.status === "waiting" && seat.inviteUrl);
  if (!invite.hidden) $("invite-url").value = seat.inviteUrl;
  const final = $("final");
  final.hidden = v.status !== "finished";
  if (!final.hidden) {
    const won = v.winner === me;
    final.replaceChildren();
    const h = document.createElement("h2");
    h.textContent = v.winner ? (won ? t("ui.you_won") : t("ui.you_lost")) : t("ui.match_ended");
    const p = document.createElement("p");
    p.textContent = v.winner ? `${t("ui.winner_is", { role: roleCap(v.winner) })}: ${t(`reasons.${v.win_reason}`)}.` : t("ui.match_ended");
    const again = document.createElement("a");
    again.className = "btn btn-primary";
    again.href = "/";
    again.textContent = t("ui.play_again");
    const replay = document.createElement("a");
    replay.className = "btn";
    replay.href = `/match/${matchId}/replay`;
    replay.textContent = t("replay.open_replay");
    if (v.ended_by === "host") p.textContent = t("ui.ended_by_host");
    if (v.ended_by === "abandoned") p.textContent = t("log.match_ended_abandoned");
    if (spectator) h.textContent = t("ui.match_ended");
    final.append(h, p, again);
    if (!spectator && v.winner) {  // aborted or abandoned matches have neither replay nor rematch
      final.append(replay);
      renderRematch(final, v);
    }
    final.className = `final ${won ? "won" : "lost"}`;
  }
}

function render() {
  const me = seat.role || SEATS[0];  // a spectator sees the table from the first seat's side
  root.dataset.role = me;
  renderStatus(view);
  renderTrack($("track"), view, me);
  renderHolding($("holding"), view);
  renderBoard($("board"), view, me);
  renderHand($("hand"), view, me);
  document.querySelector(".area-hand").hidden = !(view.state.hands[me] || []).length;
  renderPanels($("panels"), view, me);
  renderLog($("log"), view, seat.role);
  decision.render(view);
  markTargets();
}

function receive(next) {
  if (view && next.version < view.version) return;  // an older push overtaken by a newer one
  view = next;
  busy = false;
  root.classList.remove("busy");
  render();
}

async function refresh() {
  try {
    receive(await api(viewPath, { token: seat.token }));
  } catch (err) {
    showError(err.status === 401 || err.status === 403 || err.status === 404 ? t("ui.not_found") : err.message);
  }
}

function start() {
  if (!seat) { showError(t("ui.not_found")); return; }
  if (spectator) root.classList.add("spectator");
  document.addEventListener("click", (event) => {
    const el = event.target.closest("[data-target]");
    if (el && el.classList.contains("is-target") && decision.activate(el.dataset.target)) {
      event.preventDefault();
      markTargets();
    }
  });
  document.addEventListener("keydown", (event) => {
    const el = event.target.closest && event.target.closest("[data-target].is-target");
    if (el && el.namespaceURI === "http://www.w3.org/2000/svg" && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      decision.activate(el.dataset.target);
      markTargets();
    }
  });
  $("copy-invite").addEventListener("click", async () => {
    const input = $("invite-url");
    try { await navigator.clipboard.writeText(input.value); } catch { input.select(); document.execCommand("copy"); }
    $("copy-invite").textContent = t("ui.copied");
  });
  const skip = $("skip-anim");
  skip.checked = localStorage.getItem("wg.noanim") === "1";
  document.body.classList.toggle("no-anim", skip.checked);
  skip.addEventListener("change", () => {
    localStorage.setItem("wg.noanim", skip.checked ? "1" : "0");
    document.body.classList.toggle("no-anim", skip.checked);
  });
  refresh();
  $("resign").addEventListener("click", async () => {
    if (!window.confirm(t("ui.resign_confirm"))) return;
    try { await api(`/api/matches/${matchId}/resign`, { method: "POST", token: seat.token }); } catch (err) { showError(err.message); }
  });
  const sound = $("sound");
  sound.checked = localStorage.getItem("wg.sound") === "1";
  sound.addEventListener("change", () => localStorage.setItem("wg.sound", sound.checked ? "1" : "0"));
  const notify = $("notify");
  notify.hidden = !("Notification" in window) || Notification.permission !== "default";
  notify.addEventListener("click", async () => { await Notification.requestPermission(); notify.hidden = true; });
  socket = connect(socketPath, {
    onView: receive,
    onError: (err) => { busy = false; root.classList.remove("busy"); showError(err.message); },
    onStatus: (s) => { const c = $("conn"); c.textContent = t(`ui.${s}`); c.className = `conn conn-${s}`; },
  });
}

start();
