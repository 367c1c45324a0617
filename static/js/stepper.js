// Step through a stored match with everything shown: admins (any match) and players (their
// finished match). Each step is the server's replay of the first k actions. The store holds the
// step shown and the one asked for; render() draws a step; go() and the admin tools fetch.
import { api } from "./api.js";
import { settleTokens } from "./effects.js";
import { L, cardName, t, useRulesVersion } from "./i18n.js";
import { actionLabel, actorLabel, logSentence, seatLabel, seatName } from "./labels.js";
import { SEATS } from "./meta.js";
import { renderBoard } from "./render/board.js";
import { el } from "./render/dom.js";
import { cardElement } from "./render/hand.js";
import { renderPanels } from "./render/panels.js";
import { renderHolding, renderTrack } from "./render/track.js";
import { loadSeat } from "./seats.js";
import { createStore } from "./store.js";

const $ = (id) => document.getElementById(id);
const root = $("stepper");
const matchId = root.dataset.matchId;
const admin = root.dataset.mode === "admin";
const seat = admin ? null : loadSeat(matchId);
const side = SEATS[0];  // the table is seen from the first seat's side
// steps: how many there are; current: the step asked for last; step: the one shown
const store = createStore({ steps: 0, current: -1, step: null, error: "" });

const url = (k) => (admin ? `/api/admin/matches/${matchId}/steps/${k}` : `/api/matches/${matchId}/replay/${k}`);

/** Draws one step; returns what renderTrack() says entered and left. */
function render(step) {
  useRulesVersion(step.rules_version);  // its cards worded as its version played them
  const edition = $("rules-edition");
  const named = L.rules_edition?.names?.[step.rules_version];
  if (edition && named) {
    edition.querySelector("a").textContent = named;
    edition.querySelector("a").href = `/rules?version=${encodeURIComponent(step.rules_version)}`;
    edition.hidden = false;
  }
  const view = { state: step.view, legal_actions: [], log: [], status: "finished" };
  const moved = renderTrack($("track"), view, side);
  renderHolding($("holding"), view);
  renderBoard($("board"), view, side);
  renderPanels($("panels"), view, side);
  const hands = [];
  for (const role of SEATS) {
    const box = el("div", "hand-row");
    box.append(el("h3", null, seatLabel(step, role)));
    const cards = el("div", "hand");
    cards.append(...step.view.hands[role].map((c) => cardElement(c.id, { button: false })));
    box.append(cards);
    hands.push(box);
  }
  $("hands").replaceChildren(...hands);
  const hidden = [];
  for (const role of SEATS) {
    hidden.push(el("p", null, `${seatLabel(step, role)} — ${L.replay.deck_order}: ${step.view.deck_cards[role].map(cardName).join(", ") || "—"}`));
  }
  hidden.push(el("p", null, `${L.replay.bag}: ${step.view.bag_tokens.map((b) => b.colors.map((c) => L.colors[c]).join("/")).join(", ") || "—"}`));
  const secret = step.view.track.evidence.filter((tk) => tk.hidden_from);
  if (secret.length) hidden.push(el("p", "muted", `#${secret.map((tk) => tk.handle).join(", #")}: ${L.replay.hidden}`));
  $("hidden-info").replaceChildren(...hidden);
  const who = actorLabel(step);
  $("events").replaceChildren(...step.events.filter((e) => e.type !== "match_started").map((e, i, all) => el("li", `log-${e.type}`, logSentence(e, side, new Map(), who, all[i - 1]))));
  $("step-action").textContent = step.action ? `${step.action.seq}. ${who(step.action.role)}: ${actionLabel(step.action.action)}` : L.replay.setup;
  $("step-info").textContent = t("replay.step", { k: step.step, n: step.steps });
  $("slider").max = String(step.steps);
  $("slider").value = String(step.step);
  return moved;
}

function showError(message) {
  const box = $("match-error");
  box.textContent = message;
  box.hidden = !message;
}

store.subscribe((s, prev) => {
  if (s.step !== prev.step) settleTokens(render(s.step));
  if (s.error !== prev.error && s.error) showError(s.error);
});

async function go(k) {
  const { steps, current } = store.get();
  k = Math.max(0, Math.min(k, steps || k));
  if (k === current) return;
  store.set({ current: k });
  try {
    const step = await api(url(k), { token: seat?.token });
    if (store.get().current !== k) return;  // a newer step was asked for meanwhile
    store.set({ steps: step.steps, step });
  } catch (err) {
    if (admin && err.status === 401) window.location.assign("/admin/login");
    store.set({ error: err.message });
  }
}

const current = () => store.get().current;
$("first").addEventListener("click", () => go(0));
$("back").addEventListener("click", () => go(current() - 1));
$("forward").addEventListener("click", () => go(current() + 1));
$("last").addEventListener("click", () => go(store.get().steps));
$("slider").addEventListener("input", () => go(Number($("slider").value)));
document.addEventListener("keydown", (event) => {
  if (event.target.tagName === "INPUT" && event.target.type !== "range") return;
  if (event.key === "ArrowLeft") { event.preventDefault(); go(current() - 1); }
  if (event.key === "ArrowRight") { event.preventDefault(); go(current() + 1); }
});

async function adminTools() {
  const result = $("admin-result");
  const detail = await api(`/api/admin/matches/${matchId}`);
  const m = detail.match;
  const players = SEATS.map((role) => `${role} ${seatName(m, role) ?? "(free seat)"}`).join(", ");
  $("match-facts").textContent = `seed ${detail.seed_text} · rules ${detail.rules_version} · ${m.status}${detail.ended_by ? ` (ended by ${detail.ended_by})` : ""} · editor ${m.editor_kind}, nixon ${m.nixon_kind} · ${detail.actions.length} actions · created ${new Date(m.created_at).toLocaleString()} · players: ${players}`;
  $("verify-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    try {
      // the file goes as it is: parsing it here would round seeds above 2**53
      const outcome = await api("/api/admin/verify", { method: "POST", raw: await file.text() });
      result.textContent = outcome.ok ? `✔ ${outcome.reason} (${outcome.seq} actions)` : `✘ diverges at action ${outcome.seq}: ${outcome.reason}`;
    } catch (err) { result.textContent = err.message; }
  });
  $("abort").addEventListener("click", async () => {
    if (!window.confirm("Abort this match? Both players will see it was ended by the host.")) return;
    try { await api(`/api/admin/matches/${matchId}/abort`, { method: "POST" }); result.textContent = "Aborted."; } catch (err) { result.textContent = err.message; }
  });
  $("delete").addEventListener("click", async () => {
    if (!window.confirm("Delete this match and everything stored about it?")) return;
    try { await api(`/api/admin/matches/${matchId}`, { method: "DELETE" }); window.location.assign("/admin"); } catch (err) { result.textContent = err.message; }
  });
  return detail.actions.length;
}

(async () => {
  if (!admin && !seat) { store.set({ error: t("ui.not_found") }); return; }
  const total = admin ? await adminTools() : 0;
  await go(admin ? total : 0);
})();
