// The tutorial coach's drawing (coach.js says what it shows): the box of explanations and the
// pulse on the pieces it points at. Fetched with a lesson's first step, its styles with it.
import { t } from "./i18n.js";
import { button, el } from "./render/dom.js";
import { addStyles } from "./styles.js";

export const styled = addStyles("/static/css/coach.css");  // drawn only once it has its styles

/** Draws the coach into `root` (hidden when there is no lesson), one explanation at a time
 * (`page` of them; the move comes with the last, in the table's `words`); `on.leave`,
 * `on.toggle`, `on.next`. */
function renderCoach(root, model, words, collapsed, page, on) {
  if (!model) { root.hidden = true; return; }
  root.hidden = false;
  root.classList.toggle("collapsed", collapsed);
  const head = el("div", "coach-head");
  const title = el("h2", "coach-title", model.title);
  title.id = "coach-title";
  const toggle = button("btn btn-quiet coach-toggle", collapsed ? t("lessons.ui.show") : t("lessons.ui.hide"), on.toggle);
  toggle.setAttribute("aria-expanded", String(!collapsed));
  head.append(title, toggle);
  const parts = [head];
  if (collapsed) { root.replaceChildren(...parts); return; }
  if (model.left) {
    parts.push(el("p", null, t("lessons.ui.left")));
    root.replaceChildren(...parts);
    return;
  }
  if (!model.done) parts.push(el("p", "coach-progress muted", model.progress));
  const last = Math.max(0, model.texts.length - 1);
  const at = Math.min(page, last);
  if (model.texts.length) parts.push(el("p", "coach-text", model.texts[at]));
  if (at < last) {
    parts.push(button("btn btn-primary coach-next", t("lessons.ui.next", { n: at + 2, total: last + 1 }), on.next));
  } else if (model.move) {
    parts.push(el("p", "coach-move", t(model.only ? "lessons.ui.do" : "lessons.ui.suggest", { move: words(model.move) })));
  }
  if (model.later && model.later.length) {
    const more = document.createElement("details");
    more.append(el("summary", null, t("lessons.ui.later")), ...model.later.map((x) => el("p", "coach-text", x)));
    parts.push(more);
  }
  const row = el("div", "coach-actions");
  if (model.done) {
    const home = el("a", "btn", t("lessons.ui.more"));
    home.href = "/#learn";
    row.append(home);
  } else {
    row.append(button("btn btn-quiet", t("lessons.ui.leave"), on.leave));
  }
  parts.push(row);
  root.replaceChildren(...parts);
}

/** Marks the pieces the coach points at (coach-point): `points`, the table's elements for the
 * next click of the move (so not a piece already picked). */
function renderPointer(points) {
  document.querySelectorAll(".coach-point").forEach((x) => x.classList.remove("coach-point"));
  for (const x of points) x.classList.add("coach-point");
}

let revealed = null;  // the piece last brought into view: each is brought once
/** Scrolls the page just enough to show the first of `points` when the coach first points at
 * it out of sight: below the screen's edge, or under the coach `box` while that stays at the top
 * of the screen (position: sticky). */
export function reveal(points, box) {
  const first = points[0];
  if (!first || first === revealed || !first.getClientRects().length) return;  // not drawn: a phone's other tab
  revealed = first;
  const at = first.getBoundingClientRect();
  const pinned = !box.hidden && getComputedStyle(box).position === "sticky";
  const covered = pinned ? Math.max(0, box.getBoundingClientRect().bottom) : 0;
  const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const by = at.bottom > window.innerHeight ? at.bottom - window.innerHeight + 12 : at.top < covered ? at.top - covered - 12 : 0;
  if (by) window.scrollBy({ top: by, behavior: smooth ? "smooth" : "auto" });
}

/** Draws the coach of store state `s` into `box` (`lesson` its model, `words` the table's for a
 * move) with its controls wired to `store`; the lesson's end, once shown, stays. */
function drawCoach(box, store, matchId, lesson, words) {
  const s = store.get();
  renderCoach(box, lesson, words, s.coachHidden, s.coachPage, {
    leave: () => { localStorage.setItem(`wg.lesson-left.${matchId}`, "1"); store.set({ coachLeft: true }); },
    toggle: () => store.set({ coachHidden: !s.coachHidden }),
    next: () => { store.set({ coachPage: s.coachPage + 1 }); box.querySelector(".coach-next, .coach-move")?.focus?.(); },
  });
}

/** Draws the coach, then its pointers (coach.js showCoach). */
export function show(box, store, matchId, lesson, words, points) {
  drawCoach(box, store, matchId, lesson, words);
  renderPointer(points);
}
