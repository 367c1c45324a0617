// The research track: its spaces (as many as the game's metadata says), your own side on the
// right; tokens keyed so moves slide. Pure: what enters and leaves is returned for effects.js.
import { colorLetter, t } from "../i18n.js";
import { letteredName, placeName } from "../labels.js";
import { SEATS, TRACK_CELLS, TRACK_REACH, TRACK_SIDES } from "../meta.js";

// Positions run from -reach to +reach; the metadata says whose end is which (+1: positive). Each
// seat sees its own end on the right; a spectator sees the track as the negative end's owner does.
const side = (me) => TRACK_SIDES[me] ?? -1;
const column = (p, me) => TRACK_REACH + side(me) * p;

function tokenEl(key) {
  const el = document.createElement("button");
  el.type = "button";
  el.className = "tk";
  el.dataset.key = key;
  return el;
}

export function evidenceFace(el, token) {
  el.classList.toggle("tk-down", token.face === "down");
  el.classList.toggle("tk-peeked", !!token.peeked);
  el.classList.toggle("tk-symbol", !!token.momentum_symbol);
  el.replaceChildren();
  const colors = token.colors || [];
  if (colors.length) {
    el.style.setProperty("--c1", `var(--${colors[0]})`);
    el.style.setProperty("--c2", `var(--${colors[1] || colors[0]})`);
    el.classList.add(colors.length > 1 ? "tk-pair" : "tk-single");
  } else {
    el.classList.remove("tk-pair", "tk-single");
  }
  const letters = document.createElement("span");
  letters.className = "tk-letters";
  letters.setAttribute("aria-hidden", "true");  // the accessible name says the colours in words
  const word = colors.map(colorLetter).join("");  // a pair longer than "BY" ("AmV", "GeGr") takes two lines: it fits the disc
  letters.textContent = !word ? "?" : word.length > 2 ? colors.map(colorLetter).join("\n") : word;
  el.append(letters);
  // the momentum symbol's ▲ is drawn by the stylesheet (.tk-symbol::after): as text it would
  // be a visible word missing from the accessible name, which says "momentum symbol"
}

function describe(token) {
  const parts = [letteredName(token)];
  if (token.colors) parts.push(token.face === "up" ? t("ui.face_up") : t("ui.face_down"));
  if (token.peeked) parts.push(t("ui.peeked"));
  if (token.momentum_symbol) parts.push(t("ui.momentum_symbol"));
  return parts.join(", ");
}

/** Draws the track; returns {entered, left}: the token elements that appeared and those to
 * remove once their leaving animation is over (settleTokens() in effects.js does both). */
export function renderTrack(root, view, me) {
  const state = view.state;
  if (!root.dataset.built) {
    root.dataset.built = "1";
    root.style.setProperty("--cells", TRACK_CELLS);
    const cells = document.createElement("div");
    cells.className = "track-cells";
    for (let c = 0; c < TRACK_CELLS; c++) {
      const p = side(me) * (c - TRACK_REACH);
      const cell = document.createElement("div");
      cell.className = `cell ${p === 0 ? "cell-zero" : (p > 0) === (side(me) > 0) ? "cell-mine" : "cell-theirs"}`;
      cell.textContent = Math.abs(p);
      cell.title = placeName(p, view.role);
      cells.append(cell);
    }
    const layer = document.createElement("div");
    layer.className = "track-tokens";
    root.append(cells, layer);
  }
  const layer = root.querySelector(".track-tokens");
  const leaving = (el) => el.classList.contains("tk-leave");  // already on its way out
  const existing = new Map([...layer.children].filter((el) => !leaving(el)).map((el) => [el.dataset.key, el]));
  const stacks = new Map();
  const entered = [];
  const place = (key, p, setup) => {
    let el = existing.get(key);
    if (!el) { el = tokenEl(key); el.classList.add("tk-enter"); layer.append(el); entered.push(el); }
    existing.delete(key);
    setup(el);
    const col = column(p, me);
    const row = stacks.get(col) || 0;
    stacks.set(col, row + 1);
    el.style.setProperty("--col", col);
    el.style.setProperty("--row", row);
    el.dataset.target = key;
  };
  if (state.track.initiative !== null) {
    place("token:initiative", state.track.initiative, (el) => {
      el.className = el.className.replace(/tk-(down|pair|single)/g, "");
      el.classList.add("tk-initiative");
      el.innerHTML = '<span aria-hidden="true">I</span>';
      el.setAttribute("aria-label", `${t("ui.initiative_token")}, ${placeName(state.track.initiative, view.role)}`);
    });
  }
  if (state.track.momentum !== null) {
    place("token:momentum", state.track.momentum, (el) => {
      el.classList.add("tk-momentum");
      el.innerHTML = '<span aria-hidden="true">M</span>';
      el.setAttribute("aria-label", `${t("ui.momentum_token")}, ${placeName(state.track.momentum, view.role)}`);
    });
  }
  for (const token of state.track.evidence) {
    place(`token:ev-${token.handle}`, token.position, (el) => {
      const wasDown = el.classList.contains("tk-down");
      evidenceFace(el, token);
      if (wasDown && token.face === "up") el.classList.add("tk-flip");
      el.setAttribute("aria-label", `${describe(token)}, ${placeName(token.position, view.role)}`);
    });
  }
  const rows = Math.max(5, ...stacks.values());  // as many as the CSS reserves: a push seldom grows it
  root.style.setProperty("--rows", rows);
  const left = [...existing.values()];
  for (const el of left) {  // on its way out: no longer a piece one can choose
    el.classList.add("tk-leave");
    el.classList.remove("is-target", "is-selected");
    delete el.dataset.target;
  }
  return { entered, left };
}

export function renderHolding(root, view) {
  root.replaceChildren();
  for (const role of SEATS) {
    for (const token of view.state.holding[role]) {
      const el = tokenEl(`token:ev-${token.handle}`);
      el.dataset.target = `token:ev-${token.handle}`;
      evidenceFace(el, token);
      el.setAttribute("aria-label", describe(token));
      el.classList.add("tk-held");
      root.append(el);
    }
  }
}
