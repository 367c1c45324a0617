// The tutorial's coach: before each of the learner's decisions on the lesson's path it explains
// the rules that come up, names the move to make and points at it on the table; where the lesson
// needs that move, only it is offered. Off the path (the learner chose freely) the computer plays
// on as in any match, and the coach keeps the rules not yet met at hand. Pure: coachModel() says
// what to show, offered() narrows the choices; showCoach() draws (coachview.js, fetched with a
// lesson's first step) and followCoach() is the wiring every table shares (its store's fields).
// The table supplies what is its own: the words for a move, and the pieces it is made with.
import { api } from "./api.js";
import { t } from "./i18n.js";

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

let drawing = null;  // coachview.js, once fetched: from then on it draws in step with the table
/** Draws a lesson's coach into `box`, marks the pieces it points at (`pointsOf()`, read when
 * drawn: the first drawing waits for its module, and the table may redraw meanwhile), then calls
 * `after(coachview, points)`. Drawn on demand: a table without a lesson never loads it. */
export function showCoach(box, store, matchId, lesson, words, pointsOf, after) {
  if (!lesson && box.hidden) return;
  if (!drawing) {
    import("./coachview.js").then((v) => v.styled.then(() => { drawing = v; showCoach(box, store, matchId, lesson, words, pointsOf, after); }));
    return;
  }
  const points = pointsOf();
  drawing.show(box, store, matchId, lesson, words, points);
  after(drawing, points);
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
