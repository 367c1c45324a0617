// The decision area: turns the server's legal_actions into prompts, buttons and clickable pieces.
// It never invents an action: every button and every clickable piece sends an offered object.
import { BOOT, cardName, cardText, colorName, roleCap, t } from "../i18n.js";
import { actionLabel, playLabel } from "../labels.js";

const tokenKey = (a) => (a.target === "initiative" || a.target === "momentum" ? `token:${a.target}` : a.handle !== undefined ? `token:ev-${a.handle}` : null);
const AUTO_PASS = "wg.autopass";

function button(label, onClick, cls = "btn") {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.textContent = label;
  b.addEventListener("click", onClick);
  return b;
}

export function createDecision(root, { send, me }) {
  let selectedCard = null;
  let selectedPin = null;
  let view = null;
  let autoPassTimer = null;
  const targets = new Map();

  function prompt(decision) {
    const against = decision.against || {};
    return t(`decision.${decision.kind}`, {
      role: roleCap(decision.role), card: cardName(decision.card || against.card), color: colorName(decision.color),
    });
  }

  function autoPassBox() {
    const label = document.createElement("label");
    label.className = "auto-pass";
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = localStorage.getItem(AUTO_PASS) === "1";
    box.addEventListener("change", () => { localStorage.setItem(AUTO_PASS, box.checked ? "1" : "0"); render(view); });
    label.append(box, ` ${t("ui.auto_pass")}`);
    return label;
  }

  function render(next) {
    view = next;
    targets.clear();
    clearTimeout(autoPassTimer);
    const legal = view.legal_actions || [];
    const decision = view.state.decision;
    const parts = [];
    if (!decision || view.status !== "active") { root.replaceChildren(); root.hidden = true; return targets; }
    root.hidden = false;
    const head = document.createElement("p");
    head.className = "decision-prompt";
    head.textContent = prompt(decision);
    parts.push(head);
    if (decision.against) {  // what the reaction would answer, in full
      const what = document.createElement("p");
      what.className = "against-text muted";
      what.textContent = decision.against.mode === "value" ? "" : cardText(decision.against.card);
      if (what.textContent) parts.push(what);
    }
    if (!legal.length) {
      head.classList.add("waiting");
      root.replaceChildren(...parts);
      selectedCard = selectedPin = null;
      return targets;
    }
    const kind = decision.kind;
    const list = document.createElement("div");
    list.className = "decision-options";
    const offer = (a, key, cls) => {
      list.append(button(kind === "play" ? playLabel(a) : actionLabel(a), () => send(a), cls));
      if (key) targets.set(key, () => send(a));
    };
    if (kind === "play") {
      const cards = [...new Set(legal.map((a) => a.card))];
      if (cards.length === 1) selectedCard = cards[0];
      if (!cards.includes(selectedCard)) selectedCard = null;
      for (const c of cards) targets.set(`card:${c}`, () => { selectedCard = c; render(view); });
      if (!selectedCard) {
        const hint = document.createElement("p");
        hint.className = "muted";
        hint.textContent = t("ui.pick_card");
        parts.push(hint);
      } else {
        const mine = legal.filter((a) => a.card === selectedCard);
        const title = document.createElement("p");
        title.className = "selected-card";
        title.textContent = cardName(selectedCard);
        parts.push(title);
        for (const a of mine) offer(a, a.type === "play_value" ? tokenKey(a) : null, a.type === "play_action" ? "btn btn-primary" : "btn");
        if (cards.length > 1) list.append(button(t("ui.cancel"), () => { selectedCard = null; render(view); }, "btn btn-quiet"));
      }
    } else if (kind === "pin") {
      const handles = [...new Set(legal.map((a) => a.handle))];
      if (handles.length === 1) selectedPin = handles[0];
      if (!handles.includes(selectedPin)) selectedPin = null;
      for (const h of handles) targets.set(`token:ev-${h}`, () => { selectedPin = h; render(view); });
      for (const a of legal.filter((x) => selectedPin === null || x.handle === selectedPin)) {
        offer(a, selectedPin === null ? null : `space:${a.space}`);
      }
    } else {
      for (const a of legal) {
        const key = a.type === "choose_space" ? `space:${a.space}` : a.type === "choose_picture" ? `picture:${a.person}` : (a.type === "choose_token" || a.type === "choose_target") ? tokenKey(a) : null;
        offer(a, key, a.type === "react" ? "btn btn-primary" : "btn");
      }
      if (kind === "react") {
        parts.push(autoPassBox());
        if (legal.length === 1 && localStorage.getItem(AUTO_PASS) === "1") {
          // R18: answered here, after a short random delay, so timing tells the opponent nothing
          autoPassTimer = setTimeout(() => send(legal[0]), 700 + Math.random() * 1100);
        }
      }
    }
    parts.push(list);
    root.replaceChildren(...parts);
    document.querySelectorAll(".is-selected").forEach((el) => el.classList.remove("is-selected"));
    const chosen = kind === "play" ? selectedCard && `card:${selectedCard}` : kind === "pin" && selectedPin !== null ? `token:ev-${selectedPin}` : null;
    if (chosen) document.querySelectorAll(`[data-target="${chosen}"]`).forEach((el) => el.classList.add("is-selected"));
    return targets;
  }

  return { render, targets, activate(key) { const f = targets.get(key); if (f) { f(); return true; } return false; }, boot: BOOT };
}
