// A small SVG line chart (the end screen's summary, the analysis).
const NS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs, parent) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.append(node);
  return node;
}

const W = 320;
const H = 140;
const PAD = 24;

/** `lines` [{values, attrs}] over `n` points, y from 0 to `top` (labelled `topLabel`), x by
 * `xLabel(i)` (empty: none); `at(i, v)` places a mark. */
export function lineChart(lines, { n, top, topLabel = String(top), xLabel, label }) {
  const x = (i) => PAD + (i * (W - 2 * PAD)) / Math.max(1, n - 1);
  const y = (v) => H - PAD - (v * (H - 2 * PAD)) / top;
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": label });
  const axes = svg("g", { class: "chart-axes", "aria-hidden": "true" }, chart);
  svg("line", { x1: PAD, y1: H - PAD, x2: W - PAD, y2: H - PAD }, axes);
  svg("line", { x1: PAD, y1: PAD, x2: PAD, y2: H - PAD }, axes);
  for (const [v, text] of [[0, "0"], [top, topLabel]]) svg("text", { x: PAD - 6, y: y(v) + 4, "text-anchor": "end" }, axes).textContent = text;
  for (let i = 0; i < n; i += 1) {
    const text = xLabel(i);
    if (text) svg("text", { x: x(i), y: H - 8, "text-anchor": "middle" }, axes).textContent = text;
  }
  for (const { values, attrs } of lines) svg("polyline", { points: values.map((v, i) => `${x(i)},${y(v)}`).join(" "), ...attrs }, chart);
  return { chart, at: (i, v) => ({ cx: x(i), cy: y(v) }) };
}
