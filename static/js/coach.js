// The tutorial's coach: before each of the learner's decisions on the lesson's path it explains
// the rules that come up, names the move to make and points at it on the table; where the lesson
// needs that move, only it is offered. Off the path (the learner chose freely) the computer plays
// on as in any match, and the coach keeps the rules not yet met at hand. Pure: coachModel() says
// what to show, offered() narrows the choices, renderCoach() draws; drawCoach() and followCoach()
// are the wiring every table shares (its store's coach fields).
// The table supplies what is its own: the words for a move, and the pieces it is made with.
import { api } from "./api.js";
import { t } from "./i18n.js";
import { button, el } from "./render/dom.js";

export const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** What the coach shows for `view`: the step of the path at this version (if the learner decides
 * now), the topics explained so far, and whether the lesson is over (`finished`: this browser saw
 * its end already), left, or off its path. */
export function coachModel(coach, view, left, autoPass = true, finished = false) {
  if (!coach || !view || !view.tutorial) return null;
  const key = (topic) => `lessons.${coach.game}.${coach.lesson}.${topic}`;
  const steps = coach.steps;
  const version = view.version;
  const onPath = view.tutorial.on_path && version <= coach.length;
  const seenBefore = steps.filter((s) => s.version < version).flatMap((s) => s.topics);
  const model = {
    title: t(`lessons.${coach.game}.${coach.lesson}.title`),
    left, onPath, texts: [], move: null, only: false, step: null, done: false,
    progress: t("lessons.ui.progress", { n: steps.filter((s) => s.version < version).length + 1, total: steps.length }),
  };
  if (left) return model;
  if (finished || (onPath && (view.status !== "active" || version >= coach.length))) {
    model.done = true;
    model.texts = coach.closing.map((topic) => t(key(topic)));
    model.texts.push(t("lessons.ui.done"));
    return model;
  }
  if (!onPath) {
    const met = new Set(seenBefore);
    model.texts = [t("lessons.ui.off_path")];
    model.later = [...new Set(steps.flatMap((s) => s.topics).concat(coach.closing))].filter((x) => !met.has(x)).map((x) => t(key(x)));
    return model;
  }
  const step = steps.find((s) => s.version === version);
  const mine = view.legal_actions.length > 0;
  if (!step || !mine) { model.texts = [t("lessons.ui.watch")]; return model; }
  model.step = step;
  model.texts = step.topics.map((topic) => t(key(topic)));
  if (autoPass && !model.texts.length && step.action.type === "pass" && view.legal_actions.length === 1) {
    model.texts = [t("lessons.ui.auto_pass")];  // R18: the browser answers the lone pass itself
    model.step = null;
    return model;
  }
  model.only = step.only;
  model.move = step.action;
  model.progress = t("lessons.ui.progress", { n: steps.indexOf(step) + 1, total: steps.length });
  return model;
}

/** The view the table offers choices from: on a taught step, only the taught move. */
export function offered(model, view) {
  if (!model || !model.only || !model.move || !view) return view;
  const taught = view.legal_actions.filter((a) => same(a, model.move));
  return taught.length ? { ...view, legal_actions: taught } : view;
}

/** Whether the coach has words the learner should read before a pass-only window answers by
 * itself (R18's auto-pass waits for the learner while the coach explains). */
export const holdsAutoPass = (model) => Boolean(model && model.step && model.texts.length);

/** Draws the coach into `root` (hidden when there is no lesson), one explanation at a time
 * (`page` of them; the move comes with the last, in the table's `words`); `on.leave`,
 * `on.toggle`, `on.next`. */
export function renderCoach(root, model, words, collapsed, page, on) {
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
export function renderPointer(points) {
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

/** A table's store fields for its coach; leaving and the lesson's end are kept per match in
 * this browser. */
export function coachFields(matchId) {
  return {
    coach: null,  // a tutorial's coach (GET /api/lessons/…), once the view says it is one
    coachLeft: localStorage.getItem(`wg.lesson-left.${matchId}`) === "1",
    coachDone: localStorage.getItem(`wg.lesson-done.${matchId}`) === "1",  // the end, once seen
    coachHidden: false,
    coachPage: 0,  // which of the step's explanations is shown
  };
}

export const coachChanged = (s, prev) => ["coach", "coachLeft", "coachHidden", "coachPage", "coachDone"].some((k) => s[k] !== prev[k]);

/** Draws the coach of store state `s` into `box` (`lesson` its model, `words` the table's for a
 * move) with its controls wired to `store`; the lesson's end, once shown, stays. */
export function drawCoach(box, store, matchId, lesson, words) {
  const s = store.get();
  renderCoach(box, lesson, words, s.coachHidden, s.coachPage, {
    leave: () => { localStorage.setItem(`wg.lesson-left.${matchId}`, "1"); store.set({ coachLeft: true }); },
    toggle: () => store.set({ coachHidden: !s.coachHidden }),
    next: () => { store.set({ coachPage: s.coachPage + 1 }); box.querySelector(".coach-next, .coach-move")?.focus?.(); },
  });
}

/** A tutorial's effects, kept out of drawing: fetches the coach of `game`'s lesson once the view
 * names one (again with the next view if that failed), and keeps the lesson's end once reached
 * (`modelOf(state)` is the table's coach model). */
export function followCoach(store, game, matchId, modelOf) {
  let asked = false;
  store.subscribe((s) => {
    const lesson = s.view?.tutorial?.lesson;
    if (lesson && !s.coach && !asked) {
      asked = true;
      api(`/api/lessons/${game}/${encodeURIComponent(lesson)}`)
        .then((coach) => store.set({ coach }))
        .catch(() => { asked = false; });
    }
    const model = modelOf(s);
    if (model?.done && !s.coachDone && !model.left) {  // the lesson's end stays, whatever comes next
      localStorage.setItem(`wg.lesson-done.${matchId}`, "1");
      store.set({ coachDone: true });
    }
  });
}
