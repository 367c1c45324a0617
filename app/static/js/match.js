// The match page: holds the latest view, renders every area from it, and sends chosen actions.
import { api } from "./api.js";
import { roleCap, t } from "./i18n.js";
import { renderBoard } from "./render/board.js";
import { createDecision } from "./render/decision.js";
import { renderHand } from "./render/hand.js";
import { renderLog } from "./render/log.js";
import { renderPanels } from "./render/panels.js";
import { renderHolding, renderTrack } from "./render/track.js";
import { loadSeat } from "./seats.js";
import { connect } from "./socket.js";

const $ = (id) => document.getElementById(id);
const root = $("match");
const matchId = root.dataset.matchId;
const seat = loadSeat(matchId);
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

const decision = createDecision($("decision"), { send, me: seat ? seat.role : "editor" });

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

function renderStatus(v) {
  const me = seat.role;
  const d = v.state.decision;
  const mine = v.legal_actions.length > 0;
  $("whoami").textContent = `${t("ui.you_are")}: ${roleCap(me)} · ${t("ui.opponent_is")}: ${t(`ui.${v.opponent || "human"}`)}`;
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
    p.textContent = `${t("ui.winner_is", { role: roleCap(v.winner) })}: ${t(`reasons.${v.win_reason}`)}.`;
    const again = document.createElement("a");
    again.className = "btn btn-primary";
    again.href = "/";
    again.textContent = t("ui.play_again");
    const replay = document.createElement("a");
    replay.className = "btn";
    replay.href = `/match/${matchId}/replay`;
    replay.textContent = t("replay.open_replay");
    if (v.ended_by === "host") p.textContent = t("ui.ended_by_host");
    final.append(h, p, again, replay);
    final.className = `final ${won ? "won" : "lost"}`;
  }
}

function render() {
  const me = seat.role;
  root.dataset.role = me;
  renderStatus(view);
  renderTrack($("track"), view, me);
  renderHolding($("holding"), view);
  renderBoard($("board"), view, me);
  renderHand($("hand"), view, me);
  document.querySelector(".area-hand").hidden = !(view.state.hands[me] || []).length;
  renderPanels($("panels"), view, me);
  renderLog($("log"), view, me);
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
    receive(await api(`/api/matches/${matchId}`, { token: seat.token }));
  } catch (err) {
    showError(err.status === 401 || err.status === 403 || err.status === 404 ? t("ui.not_found") : err.message);
  }
}

function start() {
  if (!seat) { showError(t("ui.not_found")); return; }
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
  socket = connect(matchId, seat.token, {
    onView: receive,
    onError: (err) => { busy = false; root.classList.remove("busy"); showError(err.message); },
    onStatus: (s) => { const c = $("conn"); c.textContent = t(`ui.${s}`); c.className = `conn conn-${s}`; },
  });
}

start();
