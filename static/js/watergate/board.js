// Watergate's board for the table shell (static/js/table/shell.js): draws a view into the match
// page (track, board, hand, decision, panels, log, status bar, end screen) and turns the player's
// clicks and keys into intents for the shell. It opens no socket and keeps nothing of its own:
// the pending pick and the settings are the shell's store fields.
import { coachChanged, showCoach } from "../coach.js";
import { flyCard, settleTokens } from "../effects.js";
import { t, useRulesVersion } from "../i18n.js";
import { SEATS } from "../meta.js";
import { renderBoard } from "../render/board.js";
import { decisionModel, renderDecision, renderTargets } from "../render/decision.js";
import { cardElement, renderHand } from "../render/hand.js";
import { renderHints } from "../render/hints.js";
import { moveWords, pointed } from "../render/lesson.js";
import { renderLog } from "../render/log.js";
import { renderPanels } from "../render/panels.js";
import { renderChrome, renderClocks, renderStatus } from "../render/status.js";
import { renderHolding, renderTrack } from "../render/track.js";
import { settlePick } from "../store.js";

export const game = "watergate";
const $ = (id) => document.getElementById(id);

export function fields() {
  // autoNotes: the log indices where this browser answered a window by itself (R18; the server
  // cannot tell), autoFrom: the log's length when it sent such a pass
  return { pick: { card: null, pin: null }, autoFrom: null, autoNotes: new Map() };
}

export const settle = (view, pick) => settlePick(view, pick);

const me = (page) => page.role || SEATS[0];  // a spectator sees the table from the first seat's side
const isMine = (view) => Boolean(view && view.legal_actions.length > 0);

/** R18's auto-pass: the lone pass the shell may send by itself, or null. */
export function autoPass(s, ctx) {
  return decisionModel(ctx.shown(s), s.pick).autoPass;
}

export function autoPassed(action, ctx) {
  // only a pass is logged (reaction_passed); Gambit's one-choice prompt (R31) leaves no entry
  ctx.dispatch({ set: { autoFrom: action.type === "pass" ? ctx.store.get().view.log.length : null } });
  ctx.dispatch({ send: action });
}

function autoPassNotes(s, role) {
  if (s.autoFrom !== null) {
    const i = s.view.log.findIndex((e, k) => k >= s.autoFrom && e.type === "reaction_passed" && e.role === role);
    if (i >= 0) s.autoNotes.set(i, t("names.auto_passed"));
  }
  return s.autoNotes;
}

export function draw(s, prev, ctx) {
  const { page, root, shown, lessonOf, dispatch, store } = ctx;
  const mine = me(page);
  const now = Date.now();
  const fresh = s.view !== prev.view;
  if (s.view && fresh) {
    useRulesVersion(s.view.rules_version);  // before any card or space is worded
    root.dataset.role = mine;
    root.dataset.version = String(s.view.version);  // which position is drawn (tests wait on it)
    settleTokens(renderTrack($("track"), s.view, mine));
    renderHolding($("holding"), s.view);
    renderBoard($("board"), s.view, mine);
    renderHand($("hand"), s.view, mine);
    document.querySelector(".area-hand").hidden = !(s.view.state.hands[mine] || []).length;
    renderPanels($("panels"), s.view, mine);
    renderLog($("log"), s.view, page.role, autoPassNotes(s, page.role));
    $("log-last").textContent = $("log").firstChild?.textContent ?? "";
  }
  if (s.view && (fresh || s.rematch !== prev.rematch)) renderStatus(s, page, now, dispatch);
  const coached = coachChanged(s, prev);
  if (s.view && (fresh || coached || s.pick !== prev.pick || s.settings !== prev.settings)) {
    const model = decisionModel(shown(s), s.pick);
    renderDecision($("decision"), model, s.settings, dispatch);
    renderTargets(model);
    renderHints($("hand"), $("decision"), s.view, model, s.settings);
  }
  if (s.view && (fresh || coached || s.pick !== prev.pick || s.busy !== prev.busy)) {
    const lesson = lessonOf(s);
    const points = () => (s.busy ? [] : pointed(lesson, settlePick(shown(s), s.pick)));  // a move in flight: nothing to click yet
    showCoach($("coach"), store, page.matchId, lesson, (move) => moveWords(move, mine), points, (c, at) => clear(at[0]));
  }
  renderChrome(s, root);
  if (s.view && prev.view && s.view !== prev.view && !page.spectator) showOpponentsCard(s, prev, page);
  moveFocus(s, prev, root);
}

// On a phone the choices bar (the coach at its top) lies over the page's foot: a piece the coach
// points at is scrolled above it.
function clear(x) {
  const bar = document.querySelector(".area-decision"), by = x?.getBoundingClientRect().bottom - bar.getBoundingClientRect().top + 12;
  if (by > 0 && !bar.contains(x) && getComputedStyle(bar).position === "fixed") scrollBy(0, by);
}

export function tick(s, now) {
  renderClocks($("clocks"), s, now);
}

const picture = (id) => { const c = cardElement(id, { button: false }); delete c.dataset.target; return c; };  // a picture, not a choice

function showOpponentsCard(s, prev, page) {
  const fresh = s.view.log.slice(prev.view.log.length);
  const played = fresh.filter((e) => e.type === "card_played" && e.role !== page.role).pop();
  if (played && played.card) flyCard($("fly-layer"), played.card, picture);
}

/** Focus follows the game for keyboard players: to the first choice once a card is chosen, back
 * to the hand once a move is made (only when the focus was on the table already). */
function moveFocus(s, prev, root) {
  if (!root.contains(document.activeElement) && document.activeElement !== document.body) return;
  const first = (sel) => { const x = document.querySelector(sel); if (x) x.focus({ preventScroll: true }); };
  if (s.pick.card && s.pick.card !== prev.pick.card) first("#decision .decision-options .btn, #decision select");
  else if (s.view !== prev.view && prev.view && s.view && s.view.version !== prev.view.version && isMine(s.view)) {
    if (!document.activeElement || document.activeElement === document.body || !document.activeElement.isConnected || root.querySelector("#decision").contains(document.activeElement)) first(document.querySelector("#hand .card.is-target") ? "#hand .card.is-target" : "#decision .decision-options .btn");
  }
}

export function mount(ctx) {
  const { store, dispatch, shown } = ctx;
  const activate = (event, el) => {  // a click (or key) on a highlighted piece of the table
    const s = store.get();
    const intent = el && el.classList.contains("is-target") && decisionModel(shown(s), s.pick).targets.get(el.dataset.target);
    if (!intent) return;
    event.preventDefault();
    dispatch(intent);
  };
  /** Keyboard shortcuts (listed in the help dialog): 1–9 a card, V value, A action, Esc cancel, ? help. */
  const shortcut = (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const tag = event.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const help = $("help");
    if (event.key === "?") { event.preventDefault(); if (!help.open) help.showModal(); return; }
    if (help.open) return;
    const s = store.get();
    const click = (sel) => { const b = document.querySelector(sel); if (b) { event.preventDefault(); b.click(); } };
    if (event.key === "Enter" && tag === "LI") sheet(event);
    if (/^[1-9]$/.test(event.key)) {
      const card = document.querySelectorAll("#hand .card")[Number(event.key) - 1];
      if (card && card.classList.contains("is-target")) { event.preventDefault(); dispatch({ pick: { card: card.dataset.card } }); }
    } else if (event.key === "v" || event.key === "V") click('#decision .btn[data-kind="play_value"]');
    else if (event.key === "a" || event.key === "A") click('#decision .btn[data-kind="play_action"]');
    else if (event.key === "Escape" && (s.pick.card || s.pick.pin !== null)) {
      event.preventDefault();
      dispatch({ pick: { card: null, pin: null } });
      const first = document.querySelector("#hand .card.is-target");
      if (first) first.focus({ preventScroll: true });
    }
  };
  document.addEventListener("keydown", shortcut);
  $("help-open").addEventListener("click", () => $("help").showModal());
  const sheet = (event) => {  // a card not offered now: the whole card
    const c = event.target.closest("#hand .card:not(.is-target), #log [data-card]");
    if (!c) return;
    $("card-sheet-card").replaceChildren(picture(c.dataset.card));
    $("card-sheet").showModal();
  };
  document.addEventListener("click", (event) => { activate(event, event.target.closest("[data-target]")); sheet(event); });
  document.addEventListener("keydown", (event) => {
    const el = event.target.closest && event.target.closest("[data-target].is-target");
    if (el && el.namespaceURI === "http://www.w3.org/2000/svg" && (event.key === "Enter" || event.key === " ")) activate(event, el);
  });
  const caption = (event) => {
    const named = event.target.closest && event.target.closest("[data-name]");
    if (named) $("board-caption").textContent = named.dataset.name;
  };
  $("board").addEventListener("pointerover", caption);
  $("board").addEventListener("focusin", caption);
  $("copy-invite").addEventListener("click", async () => {
    const input = $("invite-url");
    try { await navigator.clipboard.writeText(input.value); } catch { input.select(); document.execCommand("copy"); }
    $("copy-invite").textContent = t("ui.copied");
  });
  const setting = (id, name) => $(id).addEventListener("change", () => dispatch({ setting: { [name]: $(id).checked } }));
  setting("skip-anim", "noAnim");
  setting("auto-pass", "autoPass");
  setting("sound", "sound");
  setting("hints", "hints");
  $("resign").addEventListener("click", () => {
    $("menu").open = false;  // the end screen comes next: nothing should cover it
    dispatch({ resign: true });
  });
  const ask = $("notify");
  ask.hidden = !("Notification" in window) || Notification.permission !== "default";
  ask.addEventListener("click", async () => { await Notification.requestPermission(); ask.hidden = true; });
}
