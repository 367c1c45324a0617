// The end screen's account of a match, read from its public log: each seat's momentum and
// evidence after every round (a small SVG chart), the cards each seat played, the match's length.
import { roleCap, t } from "../i18n.js";
import { SEATS } from "../meta.js";
import { lineChart } from "./chart.js";
import { el } from "./dom.js";

const zero = () => Object.fromEntries(SEATS.map((r) => [r, 0]));

/** {points: [{round, momentum: {role: n}, evidence: {role: n}}], cards: {role: n}, rounds}:
 * the first point is the start (all zero), then one after each round (the last one as it ended). */
export function matchSeries(log) {
  const momentum = zero();
  const evidence = zero();
  const cards = zero();
  const points = [{ round: 0, momentum: zero(), evidence: zero() }];
  let round = 0;
  const close = () => { if (round > 0) points.push({ round, momentum: { ...momentum }, evidence: { ...evidence } }); };
  for (const e of log || []) {
    if (e.type === "round_started") { close(); round = e.round; }
    else if (e.type === "momentum_placed") momentum[e.role] += 1;
    else if (e.type === "evidence_gained") evidence[e.role] += e.tokens.length;
    else if (e.type === "card_played") cards[e.role] += 1;  // for value, action or reaction
  }
  close();
  return { points, cards, rounds: round };
}

/** The chart: a line per seat and measure (momentum solid, evidence dashed), rounds across. */
export function seriesChart(series) {
  const { points } = series;
  const top = Math.max(5, ...points.flatMap((p) => SEATS.flatMap((r) => [p.momentum[r], p.evidence[r]])));
  const last = points[points.length - 1];
  const said = SEATS.map((r) => `${roleCap(r)}: ${t("ui.chart_momentum")} ${last.momentum[r]}, ${t("ui.chart_evidence")} ${last.evidence[r]}`).join("; ");
  const lines = SEATS.flatMap((r) => ["momentum", "evidence"].map((measure) => ({
    values: points.map((p) => p[measure][r]),
    attrs: { class: `chart-line line-${r} line-${measure}`, "data-role": r, "data-measure": measure },
  })));
  const xLabel = (i) => (i > 0 ? String(points[i].round) : "");
  return lineChart(lines, { n: points.length, top, xLabel, label: `${t("ui.chart_title")}. ${said}` }).chart;
}

/** The summary block: chart, legend and the match's figures in words. */
export function renderSummary(view) {
  const series = matchSeries(view.log);
  const box = el("div", "summary");
  box.append(el("h3", "summary-title", t("ui.chart_title")));
  box.append(seriesChart(series));
  const legend = el("ul", "chart-legend");
  for (const r of SEATS) {
    for (const measure of ["momentum", "evidence"]) {
      const li = el("li", `legend-${r} legend-${measure}`);
      li.append(el("span", "legend-swatch"), ` ${roleCap(r)} · ${t(`ui.chart_${measure}`)}`);
      legend.append(li);
    }
  }
  const figures = el("p", "summary-figures");
  figures.textContent = [
    t("ui.match_length", { count: series.rounds }),
    ...SEATS.map((r) => t("ui.cards_played_by", { count: series.cards[r], role: roleCap(r) })),
  ].join(" · ");
  box.append(legend, figures);
  return box;
}
