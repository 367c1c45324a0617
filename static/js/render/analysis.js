// The post-game analysis: asked for on a click, polled while the server computes it, drawn as the
// seat's chance to win after each decision, the biggest drops marked with the computer's choice.
import { api } from "../api.js";
import { t } from "../i18n.js";
import { button, el } from "./dom.js";
import { lineChart, svg } from "./chart.js";

const POLL_MS = 1500;
const MARKED = 3;  // the biggest swings shown in words
const MIN_SWING = 0.02;  // a smaller drop is the estimate's noise, not a mistake
const boxes = new Map();  // the end screen is drawn again on every change: one box per match
const pct = (v) => `${Math.round(v * 100)}%`;

function draw(box, moves, me, { label: word, note = "ui.analysis_note", replay }) {
  const values = moves.map((m) => m.after);
  const swings = moves.map((m, i) => ({ m, i, drop: m.before - m.after }))
    .filter((s) => s.drop >= MIN_SWING).sort((a, b) => b.drop - a.drop).slice(0, MARKED);
  const label = `${t("ui.analysis_title")}. ${t("ui.analysis_summary", { start: pct(values[0] ?? 0.5), end: pct(values[values.length - 1] ?? 0.5) })}`;
  const { chart, at } = lineChart(
    [{ values, attrs: { class: `chart-line line-${me} analysis-line` } }],
    { n: values.length, top: 1, topLabel: "100", xLabel: () => "", label },
  );
  const list = el("ol", "analysis-swings");
  for (const { m, i } of swings) {
    svg("circle", { ...at(i, m.after), r: 4, class: "analysis-mark" }, chart);
    const text = t("ui.analysis_swing", { seq: m.seq, before: pct(m.before), after: pct(m.after), action: word(m.best, me) });
    list.append(el("li", null, replay ? Object.assign(el("a", null, text), { href: replay + "#" + m.seq }) : text));
  }
  box.replaceChildren(el("h3", "summary-title", t("ui.analysis_title")), chart);
  box.append(swings.length ? list : el("p", null, t("ui.analysis_no_swings")), el("p", "muted", t(note)));
}

async function fetchAnalysis(box, page, opts) {
  const status = box.querySelector(".analysis-status");
  try {
    for (;;) {
      const data = await api(`/api/matches/${page.matchId}/analysis`, { token: page.token });
      if (data.moves) return draw(box, data.moves, page.role, opts);
      status.textContent = t("ui.analysis_running");
      await new Promise((done) => setTimeout(done, POLL_MS));
    }
  } catch (err) {
    status.textContent = err.code === "analysis_unavailable" ? t("ui.analysis_unavailable") : err.message;
    box.querySelector("button").disabled = false;
  }
}

/** A seat's analysis section (one node across redraws); `opts.label(action, seat)` words a
 * choice; a swing links its step of the replay at `opts.replay`. */
export function analysisBox(page, opts) {
  let box = boxes.get(page.matchId);
  if (box) return box;
  box = el("div", "analysis");
  const ask = button("btn", t("ui.analyse"), () => { ask.disabled = true; fetchAnalysis(box, page, opts); });
  ask.id = "analyse";
  box.append(ask, el("p", "analysis-status"));
  boxes.set(page.matchId, box);
  return box;
}
