// The public replay: an ended match step by step as spectators saw it (the table's own renderers,
// the log kept in step), and the "Verify this deal" panel. The store holds the replay and the
// step shown; render() draws a step; verify() runs the browser's check and asks the server's.
import { api } from "./api.js";
import { settleTokens } from "./effects.js";
import { roleCap, t, useRulesVersion } from "./i18n.js";
import { actionLabel } from "./labels.js";
import { SEATS, other } from "./meta.js";
import { recompute, seenCommitment } from "./fairness.js";
import { renderBoard } from "./render/board.js";
import { el } from "./render/dom.js";
import { renderLog } from "./render/log.js";
import { analysisBox } from "./render/analysis.js";
import { renderPanels } from "./render/panels.js";
import { renderHolding, renderTrack } from "./render/track.js";
import { loadSeat } from "./seats.js";
import { createStore } from "./store.js";

const $ = (id) => document.getElementById(id);
const root = $("replay");
const matchId = root.dataset.matchId;
const side = SEATS[0];  // seen as a spectator sees the table
const store = createStore({ replay: null, k: -1, error: "" });

function summary(r) {
  if (r.ended_by === "host") return t("ui.ended_by_host");
  if (r.ended_by === "abandoned") return t("log.match_ended_abandoned");
  return r.winner ? `${t("ui.winner_is", { role: roleCap(r.winner) })}: ${t(`reasons.${r.win_reason}`)}.` : t("ui.match_ended");
}

function render(r, k) {
  const step = r.steps[k];
  const last = k === r.steps.length - 1;
  const view = { role: null, state: step.state, legal_actions: [], log: r.log.slice(0, step.log_length), status: last ? "finished" : "active" };
  settleTokens(renderTrack($("track"), view, side));
  renderHolding($("holding"), view);
  renderBoard($("board"), view, side);
  renderPanels($("panels"), view, side);
  renderLog($("log"), view, null);
  $("step-action").textContent = step.action ? `${step.action.seq}. ${roleCap(step.action.role)}: ${actionLabel(step.action.action, null)}` : t("replay.setup");  // worded as a spectator reads it (nobody's "your side")
  $("step-info").textContent = t("replay.step", { k, n: r.steps.length - 1 });
  $("slider").value = String(k);
  history.replaceState(null, "", k ? `#${k}` : location.pathname);
}

function start(r) {
  $("replay-summary").textContent = summary(r);
  $("side-mine").textContent = roleCap(side);
  $("side-theirs").textContent = roleCap(other(side));
  $("slider").max = String(r.steps.length - 1);
  $("fair-commitment").textContent = r.fairness.commitment;
  $("fair-seed").textContent = r.fairness.seed;
  $("fair-algorithm").textContent = r.fairness.algorithm;
  $("replay-body").hidden = false;
  // a seat of the match, in the browser it played in, may see its own analysis here as well
  const seat = loadSeat(matchId);
  if (seat?.token && r.winner && r.ended_by !== "abandoned") {
    // the end screen's one replay link leads here; the seat's step-through with both hands is one more click
    const hands = el("a", "btn", t("replay.open_replay"));
    hands.href = `/match/${matchId}/replay`;
    $("replay-analysis").replaceChildren(hands, analysisBox({ matchId, token: seat.token, role: seat.role }, { label: actionLabel, replay: location.pathname }));
    $("replay-analysis").hidden = false;
  }
}

store.subscribe((s, prev) => {
  if (s.replay && s.replay !== prev.replay) start(s.replay);
  if (s.replay && (s.k !== prev.k || s.replay !== prev.replay)) render(s.replay, s.k);
  const box = $("match-error");
  box.textContent = s.error;
  box.hidden = !s.error;
});

function go(k) {
  const { replay } = store.get();
  if (!replay) return;
  store.set({ k: Math.max(0, Math.min(k, replay.steps.length - 1)) });
}

// ---- the deal's check -------------------------------------------------------------------------

function result(ok, text) {
  const li = el("li", ok === null ? "verify-note" : ok ? "verify-ok" : "verify-bad");
  li.append(el("span", "verify-mark", ok === null ? "–" : ok ? "✔" : "✘"), " ", el("span", null, text));
  li.dataset.ok = ok === null ? "" : String(ok);
  return li;
}

function replayLine(check) {
  if (!check.ok) return result(false, t("fair.server_replay_bad", { seq: check.seq ?? "?", message: check.message }));
  return result(true, check.seq ? t("fair.server_replay_ok", { count: check.seq }) : t("fair.server_replay_none"));
}

async function verify() {
  const { replay } = store.get();
  const button = $("verify-run");
  const list = $("verify-results");
  const verdict = $("verify-verdict");
  button.disabled = true;
  button.textContent = t("fair.checking");
  verdict.hidden = true;
  const lines = [];
  const fair = replay.fairness;
  try {
    const made = await recompute(matchId, fair.seed);
    if (made === null) lines.push(result(null, t("fair.browser_unavailable")));
    else lines.push(result(made === fair.commitment, made === fair.commitment ? t("fair.browser_ok") : t("fair.browser_bad", { computed: made })));
    const seen = seenCommitment(matchId);
    if (seen) lines.push(result(seen === fair.commitment, seen === fair.commitment ? t("fair.seen_ok") : t("fair.seen_bad", { seen })));
    const server = await api(`/api/replays/${encodeURIComponent(matchId)}/verify`);
    const c = server.checks.commitment;
    const same = server.fairness.commitment === fair.commitment && server.fairness.seed === fair.seed;
    lines.push(result(c.ok && same, c.ok && same ? t("fair.server_commitment_ok") : t("fair.server_commitment_bad", { message: c.message })));
    lines.push(replayLine(server.checks.replay));
  } catch (err) {
    lines.push(result(false, t("fair.error", { message: err.message })));
  }
  list.replaceChildren(...lines);
  const proven = lines.every((li) => li.dataset.ok !== "false") && lines.some((li) => li.dataset.ok === "true");
  verdict.textContent = proven ? t("fair.proven") : t("fair.not_proven");
  verdict.className = `verify-verdict ${proven ? "verify-ok" : "verify-bad"}`;
  verdict.hidden = false;
  button.disabled = false;
  button.textContent = t("fair.verify");
}

// ---- the reader's hands on the page ---------------------------------------------------------

const current = () => store.get().k;
$("first").addEventListener("click", () => go(0));
$("back").addEventListener("click", () => go(current() - 1));
$("forward").addEventListener("click", () => go(current() + 1));
$("last").addEventListener("click", () => go(Infinity));
$("slider").addEventListener("input", () => go(Number($("slider").value)));
$("verify-run").addEventListener("click", verify);
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.tagName === "INPUT" && event.target.type !== "range") return;
  const to = { ArrowLeft: current() - 1, ArrowRight: current() + 1, Home: 0, End: Infinity }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  go(to);
});

// "#12": the step after the 12th move (an analysis swing links its position so); the address
// follows the step shown, so a link to a step is always a change of address
const hashed = () => (/^#\d+$/.test(location.hash) ? Number(location.hash.slice(1)) : 0);
addEventListener("hashchange", () => go(hashed()));

(async () => {
  try {
    const replay = await api(`/api/replays/${encodeURIComponent(matchId)}`);
    useRulesVersion(replay.rules_version);  // its cards worded as its version played them
    const k = hashed();
    store.set({ replay, k: 0 });
    go(k);
  } catch (err) {
    if (err.status === 404) $("replay-missing").hidden = false;
    else store.set({ error: err.message });
  }
})();
