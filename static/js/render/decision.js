// The decision area: turns the server's legal_actions into prompts, buttons and clickable pieces.
// It never invents an action: every button and every clickable piece sends an offered object.
// Pure: decisionModel() says what is offered (with each offer's intent), renderDecision() draws it.
import { cardName, cardText, colorName, roleCap, t } from "../i18n.js";
import { actionLabel, handleName, learnTokens, playLabel, spaceName } from "../labels.js";
import { settlePick } from "../store.js";
import { el } from "./dom.js";

const tokenKey = (a) => (a.target === "initiative" || a.target === "momentum" ? `token:${a.target}` : a.handle !== undefined ? `token:ev-${a.handle}` : null);
const unique = (xs) => [...new Set(xs)];

function prompt(decision) {
  const against = decision.against || {};
  return t(`decision.${decision.kind}`, {
    role: roleCap(decision.role), card: cardName(decision.card || against.card), color: colorName(decision.color),
  });
}

/** What the decision area offers for `view` and the pending selection: its prompt, its
 * options ({label, intent, cls}) and `targets` (data-target key -> intent) for the pieces on the
 * table. An intent is {send: action} or {pick: {card} | {pin}}. */
export function decisionModel(view, rawPick) {
  const targets = new Map();
  const decision = view?.state.decision;
  if (!decision || view.status !== "active") return { hidden: true, targets, chosen: null };
  const legal = view.legal_actions || [];
  const pick = settlePick(view, rawPick);
  learnTokens(view);
  const me = view.role;
  const model = { prompt: prompt(decision), kind: decision.kind, waiting: !legal.length, options: [], targets, chosen: null };
  if (decision.against && decision.against.mode !== "value") model.against = cardText(decision.against.card);  // what the reaction would answer, in full
  if (model.waiting) return model;
  const kind = decision.kind;
  const offer = (a, key, cls = "btn") => {
    const intent = { send: a };
    model.options.push({ label: kind === "play" ? playLabel(a, me) : actionLabel(a, me), intent, cls, kind: a.type, moves: a.target });
    if (key) targets.set(key, intent);
  };
  if (kind === "play") {
    const cards = unique(legal.map((a) => a.card));
    for (const c of cards) targets.set(`card:${c}`, { pick: { card: c } });
    if (!pick.card) model.hint = t("ui.pick_card");
    else {
      model.title = cardName(pick.card);
      model.text = cardText(pick.card);
      for (const a of legal.filter((x) => x.card === pick.card)) offer(a, a.type === "play_value" ? tokenKey(a) : null, a.type === "play_action" ? "btn btn-primary" : "btn");
      if (cards.length > 1) model.cancel = { card: null };
      model.chosen = `card:${pick.card}`;
    }
  } else if (kind === "pin") {
    // Direct manipulation: a held token, then a space. The fallback is one button per token and
    // one list of spaces, never a button per token and space.
    const handles = unique(legal.map((a) => a.handle));
    for (const h of handles) targets.set(`token:ev-${h}`, { pick: { pin: h } });
    if (pick.pin === null) {
      model.hint = t("names.pick_token");
      for (const h of handles) model.options.push({ label: handleName(h, me), intent: { pick: { pin: h } }, cls: "btn" });
    } else {
      model.hint = t("names.pick_space");
      model.title = handleName(pick.pin, me);
      const spaces = legal.filter((x) => x.handle === pick.pin);
      for (const a of spaces) targets.set(`space:${a.space}`, { send: a });
      model.select = { label: t("names.choose_space_for"), button: t("names.pin_to"), choices: spaces.map((a) => ({ label: spaceName(a.space), intent: { send: a } })) };
      if (handles.length > 1) model.cancel = { pin: null };
      model.chosen = `token:ev-${pick.pin}`;
    }
  } else {
    for (const a of legal) {
      const key = a.type === "choose_space" ? `space:${a.space}` : a.type === "choose_picture" ? `picture:${a.person}` : (a.type === "choose_token" || a.type === "choose_target") ? tokenKey(a) : null;
      offer(a, key, a.type === "react" ? "btn btn-primary" : "btn");
    }
    // R18: a window with nothing but "pass"; R31: Gambit's prompt with nothing but "let it go".
    // The browser answers them by itself after a short random delay when the player allows it.
    if (kind === "react" || kind === "gambit") {
      model.autoPassBox = kind === "react" ? "ui.auto_pass" : "ui.auto_gambit";
      if (legal.length === 1) model.autoPass = legal[0];
    }
  }
  return model;
}

function autoPassBox(labelKey, checked, dispatch) {
  const label = el("label", "auto-pass");
  const box = document.createElement("input");
  box.type = "checkbox";
  box.checked = checked;
  box.addEventListener("change", () => dispatch({ setting: { autoPass: box.checked } }));
  label.append(box, ` ${t(labelKey)}`);
  return label;
}

function choiceSelect(spec, dispatch) {  // the accessible fallback for a long list of places
  const row = el("div", "choice-select");
  const label = el("label", null, spec.label);
  const select = document.createElement("select");
  select.id = "choice-select";
  label.htmlFor = select.id;
  spec.choices.forEach((c, i) => { const o = el("option", null, c.label); o.value = String(i); select.append(o); });
  const go = el("button", "btn", spec.button);
  go.type = "button";
  go.addEventListener("click", () => dispatch(spec.choices[Number(select.value)].intent));
  row.append(label, select, go);
  return row;
}

export function renderDecision(root, model, settings, dispatch) {
  if (model.hidden) { root.replaceChildren(); root.hidden = true; return; }
  root.hidden = false;
  root.dataset.kind = model.waiting ? "" : model.kind;  // what this seat is asked now (styles, tests)
  const head = el("p", "decision-prompt", model.prompt);
  const parts = [head];
  if (model.against) parts.push(el("p", "against-text muted", model.against));
  if (model.waiting) {
    head.classList.add("waiting");
    root.replaceChildren(...parts);
    return;
  }
  if (model.hint) parts.push(el("p", "muted", model.hint));
  if (model.title) {
    const row = el("div", "selected-row");
    row.append(el("p", "selected-card", model.title));
    if (model.cancel) {  // beside what it takes back, not one more row of choices
      const undo = el("button", "btn btn-quiet", t("ui.cancel"));
      undo.type = "button";
      undo.addEventListener("click", () => dispatch({ pick: model.cancel }));
      row.append(undo);
    }
    parts.push(row);
  }
  if (model.text) parts.push(el("p", "card-full", model.text));
  const list = el("div", "decision-options");
  const vh = model.options.find((o) => o.kind === "play_value")?.label.split(": ")[0];  // "Use value 2", said once
  for (const o of model.options) {
    const short = o.kind === "play_value" && o.label.startsWith(`${vh}: `) && o.label.slice(vh.length + 2);
    if (short && !list.querySelector(".value-head")) list.append(el("span", "value-head", `${vh}:`));
    const b = el("button", o.cls, short || o.label);
    if (short) b.setAttribute("aria-label", o.label);
    b.type = "button";
    if (o.kind) b.dataset.kind = o.kind;
    if (o.moves) b.dataset.moves = o.moves;
    if (o.intent.send) b.dataset.action = JSON.stringify(o.intent.send);  // the offer it sends (the coach points at one)
    b.addEventListener("click", () => dispatch(o.intent));
    list.append(b);
  }
  if (model.autoPassBox) parts.push(autoPassBox(model.autoPassBox, settings.autoPass, dispatch));
  if (model.select) parts.push(choiceSelect(model.select, dispatch));
  parts.push(list);
  root.replaceChildren(...parts);
}

export function renderTargets(model) {
  const svg = (el) => el.namespaceURI === "http://www.w3.org/2000/svg";
  document.querySelectorAll(".is-target").forEach((el) => {
    el.classList.remove("is-target");
    if (svg(el)) el.setAttribute("tabindex", "-1");
  });
  for (const key of model.targets.keys()) {
    document.querySelectorAll(`[data-target="${CSS.escape(key)}"]`).forEach((el) => {
      el.classList.add("is-target");
      if (svg(el)) el.setAttribute("tabindex", "0");
    });
  }
  document.querySelectorAll(".is-selected").forEach((el) => el.classList.remove("is-selected"));
  if (model.chosen) document.querySelectorAll(`[data-target="${CSS.escape(model.chosen)}"]`).forEach((el) => el.classList.add("is-selected"));
}
