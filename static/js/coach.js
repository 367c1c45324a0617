// The tutorial's coach: before each of the learner's decisions on the lesson's path it explains
// the rules that come up, names the move to make and points at it on the table; where the lesson
// needs that move, only it is offered. Off the path (the learner chose freely) the computer plays
// on as in any match, and the coach keeps the rules not yet met at hand. Pure: coachModel() says
// what to show, offered() narrows the choices, renderCoach() draws.
import { cardName, t } from "./i18n.js";
import { actionLabel, playLabel } from "./labels.js";
import { el } from "./render/dom.js";

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

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

function moveWords(action, me) {
  if (action.type === "play_value" || action.type === "play_action") {
    return t("lessons.ui.play_card", { card: cardName(action.card), how: playLabel(action, me) });
  }
  return actionLabel(action, me);
}

/** The data-target keys of the pieces the move is made with, to point at on the table. */
export function pointedKeys(move) {
  if (!move) return [];
  const token = (a) => (a.target === "initiative" || a.target === "momentum" ? `token:${a.target}` : a.handle !== undefined ? `token:ev-${a.handle}` : null);
  switch (move.type) {
    case "play_value": case "play_action": case "react": return [`card:${move.card}`];
    case "pin": return [`token:ev-${move.handle}`, `space:${move.space}`];
    case "choose_space": return [`space:${move.space}`];
    case "choose_picture": return [`picture:${move.person}`];
    case "choose_token": case "choose_target": return [token(move)].filter(Boolean);
    default: return [];
  }
}

/** Draws the coach into `root` (hidden when there is no lesson), one explanation at a time
 * (`page` of them; the move comes with the last); `on.leave`, `on.toggle`, `on.next`. */
export function renderCoach(root, model, me, collapsed, page, on) {
  if (!model) { root.hidden = true; return; }
  root.hidden = false;
  root.classList.toggle("collapsed", collapsed);
  const head = el("div", "coach-head");
  const title = el("h2", "coach-title", model.title);
  title.id = "coach-title";
  const toggle = el("button", "btn btn-quiet coach-toggle", collapsed ? t("lessons.ui.show") : t("lessons.ui.hide"));
  toggle.type = "button";
  toggle.setAttribute("aria-expanded", String(!collapsed));
  toggle.addEventListener("click", on.toggle);
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
    const next = el("button", "btn btn-primary coach-next", t("lessons.ui.next", { n: at + 2, total: last + 1 }));
    next.type = "button";
    next.addEventListener("click", on.next);
    parts.push(next);
  } else if (model.move) {
    const words = moveWords(model.move, me);
    parts.push(el("p", "coach-move", t(model.only ? "lessons.ui.do" : "lessons.ui.suggest", { move: words })));
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
    const leave = el("button", "btn btn-quiet", t("lessons.ui.leave"));
    leave.type = "button";
    leave.addEventListener("click", on.leave);
    row.append(leave);
  }
  parts.push(row);
  root.replaceChildren(...parts);
}

/** Marks the pieces the coach points at (coach-point), after the table has drawn them: the
 * next one to click, so not the card or token already picked. */
export function renderPointer(model, pick) {
  document.querySelectorAll(".coach-point").forEach((x) => x.classList.remove("coach-point"));
  if (!model || !model.move || model.left) return;
  const picked = new Set([pick.card && `card:${pick.card}`, pick.pin !== null && `token:ev-${pick.pin}`]);
  for (const key of pointedKeys(model.move).filter((k) => !picked.has(k))) {
    document.querySelectorAll(`[data-target="${CSS.escape(key)}"]`).forEach((x) => x.classList.add("coach-point"));
  }
  for (const button of document.querySelectorAll("#decision .decision-options .btn[data-action]")) {
    if (same(JSON.parse(button.dataset.action), model.move)) button.classList.add("coach-point");
  }
}
