// The full face of a compact card tile, shown beside it while a mouse hovers it or the keyboard
// focuses it. The tiles keep every line of their card (a screen reader reads them all; the tile
// only clips them), so the popover is for the eyes alone and floats above the table: showing it
// moves nothing.
import { cardFace } from "./boards.js";

const GAP = 6;

function place(box, tile) {
  const at = tile.getBoundingClientRect();
  const { width, height } = box.getBoundingClientRect();
  const right = at.right + GAP + width <= window.innerWidth;
  const left = right ? at.right + GAP : Math.max(GAP, at.left - GAP - width);
  const top = Math.min(Math.max(GAP, at.top), window.innerHeight - height - GAP);
  box.style.left = `${Math.round(left)}px`;
  box.style.top = `${Math.round(Math.max(GAP, top))}px`;
}

/** Whether a tile shows less than its whole face: a line cut at its foot or hidden, a name cut
 * short. */
function clipped(tile) {
  const foot = tile.getBoundingClientRect().bottom - 2;  // (its border)
  return [...tile.querySelectorAll(".n-card-type, .n-card-name, .n-card-line")].some((part) => {
    const at = part.getBoundingClientRect();
    return at.height <= 1 || at.bottom > foot || part.scrollWidth > part.clientWidth + 1 || part.scrollHeight > part.clientHeight + 1;
  });
}

/** Shows `box` beside any [data-card] tile under `root` that is hovered or keyboard-focused. */
export function wireDetail(root, box) {
  let shown = null;
  const hide = () => { shown = null; box.hidden = true; };
  const show = (tile) => {
    if (tile === shown) return;
    if (!clipped(tile)) { hide(); return; }  // all of it in sight already
    shown = tile;
    box.replaceChildren(cardFace(tile.dataset.card));
    box.hidden = false;
    place(box, tile);
  };
  const tileOf = (target) => target?.closest?.("[data-card]") || null;
  root.addEventListener("pointerover", (event) => {
    if (event.pointerType !== "mouse") return;  // a tap opens the card sheet instead (board.js)
    const tile = tileOf(event.target);
    if (tile) show(tile); else hide();
  });
  root.addEventListener("pointerleave", hide);
  root.addEventListener("focusin", (event) => {
    const tile = tileOf(event.target);
    if (tile && event.target.matches(":focus-visible")) show(tile); else hide();
  });
  root.addEventListener("focusout", hide);
  // a redrawn board replaces its tiles: the popover would describe one no longer there
  new MutationObserver(() => { if (shown && !shown.isConnected) hide(); }).observe(root, { childList: true, subtree: true });
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") hide(); });
}
