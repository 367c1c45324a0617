// A stored match step by step on the table's own boards: the public replay (every step at once,
// as spectators saw it) or the admin's step-through (one step per request, everything shown, the
// decks' order included). Each step becomes a view in the store, as a push would.
import { api } from "../api.js";
import { t } from "../i18n.js";

async function stepSource(matchId, mode) {
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

/** Wires the step controls under `root` ([data-step=first|back|slider|forward|last|info],
 * [data-shell=verify|verdict|steps]) and shows the last step (the admin: the first). */
export async function playSteps(root, store, page) {
  const $ = (sel) => root.querySelector(sel);
  let source;
  try { source = await stepSource(page.matchId, page.mode); } catch { store.set({ error: t("replay.unavailable") }); return; }
  const { last } = source;
  const slider = $("[data-step=slider]");
  slider.max = String(last);
  $("[data-shell=steps]").hidden = false;
  const verify = $("[data-shell=verify]");
  verify.hidden = page.mode === "admin";
  verify.addEventListener("click", async () => {  // the server's check of the deal
    const verdict = $("[data-shell=verdict]");
    verdict.textContent = t("fair.checking");
    try {
      const answer = await api(`/api/replays/${encodeURIComponent(page.matchId)}/verify`);
      verdict.textContent = answer.ok ? t("fair.proven") : t("fair.not_proven");
    } catch (err) { verdict.textContent = t("fair.error", { message: err.message }); }
  });
  let asked = 0;
  const show = async (k) => {
    const i = Math.max(0, Math.min(last, k));
    asked = i;
    const step = await source.at(i);
    if (asked !== i) return;  // a later step was asked for meanwhile
    const done = i === last && step.winner !== null;
    slider.value = String(i);
    $("[data-step=info]").textContent = t(`${page.game}.replay_step`, { k: i, n: last });
    store.set({ view: {
      match_id: page.matchId, role: null, status: done ? "finished" : "active", version: i,
      state: step.state, legal_actions: [], log: step.log, winner: step.winner,
      outcome: done ? { winner: step.winner, scores: step.state.scores, reason: step.reason } : null,
      fairness: source.fairness, deck_cards: step.decks || null,
    } });
  };
  const at = () => Number(slider.value);
  slider.addEventListener("input", () => show(at()));
  const to = { first: () => 0, back: () => at() - 1, forward: () => at() + 1, last: () => last };
  for (const key in to) $(`[data-step=${key}]`).addEventListener("click", () => show(to[key]()));
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") show(at() - 1);
    else if (e.key === "ArrowRight") show(at() + 1);
  });
  show(page.mode === "admin" ? 0 : +location.hash.slice(1) || last);  // "#12": a swing's step
}
