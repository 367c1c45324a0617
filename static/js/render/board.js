// The evidence board as SVG: threads, coloured evidence spaces, informants, Nixon in the centre.
// Nixon sees it from the other side of the table: every position is turned half a turn about the
// drawing's middle, the letters are not (they stay upright).
import { META, colorLetter, personName, t } from "../i18n.js";
import { letteredName, spaceName } from "../labels.js";
import { CENTRE, POINTS } from "../meta.js";

const NS = "http://www.w3.org/2000/svg";
const [vx, vy, vw, vh] = META.layout.viewbox;
const turned = Object.fromEntries(Object.entries(POINTS).map(([id, [x, y]]) => [id, [2 * vx + vw - x, 2 * vy + vh - y]]));
let pts = POINTS;  // the points as this seat sees them (set by build)
const personAt = Object.fromEntries(META.informants.map((i) => [i.space, i.person]));

function svg(tag, attrs = {}, parent) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (parent) parent.append(el);
  return el;
}

function build(root, me) {
  pts = me === "nixon" ? turned : POINTS;
  const [cx, cy] = pts[CENTRE];  // Nixon's picture
  const s = svg("svg", { viewBox: META.layout.viewbox.join(" "), class: "board-svg", role: "group", "aria-label": t("ui.evidence_board") });
  const defs = svg("defs", {}, s);
  const hatch = svg("pattern", { id: "hatch", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
  svg("rect", { width: 8, height: 8, fill: "#3b362f" }, hatch);
  svg("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#8a8273", "stroke-width": 3 }, hatch);
  // each colour's letter is drawn once here and shown on its spaces by <use>: a space is a button
  // named in words, and letters inside it would be visible words its name lacks (WCAG 2.5.3)
  for (const color of new Set(META.spaces.map((space) => space.color))) {
    svg("text", { id: `slip-letter-${color}`, "text-anchor": "middle", class: "slip-letter" }, defs).textContent = colorLetter(color);
  }
  const g = svg("g", { class: "board-root" }, s);
  const threads = svg("g", { class: "threads" }, g);
  for (const [a, b] of META.edges) {
    svg("line", { x1: pts[a][0], y1: pts[a][1], x2: pts[b][0], y2: pts[b][1], class: "thread", "data-a": a, "data-b": b }, threads);
  }
  const centre = svg("g", { class: "nixon-picture" }, g);
  svg("circle", { cx, cy, r: 62 }, centre);
  const label = svg("text", { x: cx, y: cy + 12, "text-anchor": "middle", class: "centre-label", "aria-hidden": "true" }, centre);
  label.textContent = "RN";
  for (const space of META.spaces) {
    const [x, y] = pts[space.id];
    const node = svg("g", { class: `space space-${space.color}`, "data-space": space.id, "data-target": `space:${space.id}`, "data-name": spaceName(space.id), tabindex: "-1", role: "button" }, g);
    svg("circle", { cx: x, cy: y, r: 44, class: "slip" }, node);
    // colour told by letter too (colour-blind players)
    svg("use", { href: `#slip-letter-${space.color}`, x, y: y + 16, "aria-hidden": "true" }, node);
    svg("g", { class: "piece" }, node);
  }
  for (const inf of META.informants) {
    const [x, y] = pts[inf.space];
    const node = svg("g", { class: "informant", "data-person": inf.person, "data-target": `picture:${inf.person}`, "data-name": personName(inf.person), tabindex: "-1", role: "button" }, g);
    svg("rect", { x: x - 62, y: y - 46, width: 124, height: 92, rx: 10, class: "tile" }, node);
    const name = svg("text", { x, y: y - 6, "text-anchor": "middle", class: "informant-name" }, node);
    const words = personName(inf.person).split(" ");
    const last = words.pop();
    svg("tspan", { x, dy: 0 }, name).textContent = `${words.join(" ")} `;  // the space: read as two words
    svg("tspan", { x, dy: 24 }, name).textContent = last;
  }
  root.replaceChildren(s);
  return s;
}

function drawPiece(node, token, x, y) {
  const piece = node.querySelector(".piece");
  piece.replaceChildren();
  if (!token) return;
  const [c1, c2] = [token.colors[0], token.colors[1] || token.colors[0]];
  svg("path", { d: `M ${x} ${y - 30} A 30 30 0 0 0 ${x} ${y + 30} Z`, fill: `var(--${c1})` }, piece);
  svg("path", { d: `M ${x} ${y - 30} A 30 30 0 0 1 ${x} ${y + 30} Z`, fill: `var(--${c2})` }, piece);
  svg("circle", { cx: x, cy: y, r: 30, class: token.face === "down" ? "piece-rim piece-down" : "piece-rim" }, piece);
  if (token.face === "down") svg("circle", { cx: x, cy: y, r: 30, fill: "url(#hatch)", opacity: 0.72 }, piece);
  const label = svg("text", { x, y: y + 9, "text-anchor": "middle", class: "piece-letters", "aria-hidden": "true" }, piece);
  label.textContent = `${token.colors.map(colorLetter).join("")}`;
  if (label.textContent.length > 3) label.style.fontSize = "15px";  // a long pair ("AMAZ", "GeGr") stays inside the disc
  if (token.momentum_symbol) svg("path", { d: `M ${x} ${y - 44} L ${x + 11} ${y - 26} L ${x - 11} ${y - 26} Z`, class: "piece-symbol" }, piece);
}

export function renderBoard(root, view, me) {
  const s = root.querySelector("svg") || build(root, me);
  const board = view.state.board;
  const lit = new Set(board.lit);
  const connected = new Set(board.connected);
  for (const node of s.querySelectorAll(".space")) {
    const id = node.dataset.space;
    const token = board.spaces[id];
    const [x, y] = pts[id];
    const before = node.dataset.piece || "";
    const now = token ? `${token.handle}:${token.face}` : "";
    if (before !== now) {
      drawPiece(node, token, x, y);
      node.dataset.piece = now;
      if (now) { node.classList.remove("pop"); void node.getBBox; node.classList.add("pop"); }
    }
    node.classList.toggle("lit", lit.has(id));
    const desc = token ? `${letteredName(token)}, ${token.face === "up" ? t("ui.face_up") : t("ui.face_down")}` : t("ui.empty");
    node.setAttribute("aria-label", `${node.dataset.name}: ${desc}`);
  }
  for (const node of s.querySelectorAll(".informant")) {
    const person = node.dataset.person;
    const face = board.pictures[person];
    const before = node.dataset.face || "";
    node.dataset.face = face || "";
    node.classList.toggle("pic-up", face === "up");
    node.classList.toggle("pic-down", face === "down");
    node.classList.toggle("connected", Boolean(connected.has(person)));
    if (face && before !== face) { node.classList.remove("pop"); node.classList.add("pop"); }
    const faceWord = face === "up" ? t("ui.face_up") : face === "down" ? t("ui.face_down") : t("ui.empty");
    node.setAttribute("aria-label", `${personName(person)}: ${faceWord}${connected.has(person) ? `, ${t("ui.connected_informants")}` : ""}`);
  }
  for (const line of s.querySelectorAll(".thread")) {
    const { a, b } = line.dataset;
    const on = (n) => lit.has(n) || n === CENTRE || Boolean(personAt[n] && connected.has(personAt[n]));
    line.classList.toggle("lit", Boolean(on(a) && on(b) && (lit.has(a) || lit.has(b))));
  }
}
