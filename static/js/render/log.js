// The game log in plain sentences, newest first.
import { cardText } from "../i18n.js";
import { actorLabel, logSentence } from "../labels.js";

const seenBy = new WeakMap();  // root -> handle -> the token as the log last showed it

/** Records in `seen` the tokens entry `e` shows, so later entries naming them by handle can. */
export function learn(seen, e) {
  for (const tk of [e.token, ...(e.tokens || [])]) if (tk && tk.handle !== undefined) seen.set(tk.handle, { ...seen.get(tk.handle), ...tk });
}

/** Draws the entries of `view.log` not drawn yet; `notes` (log index -> text) adds a word the
 * client knows and the server does not (e.g. "auto-passed"). */
function chip(token) {  // the token as a small disc of its colours, as the track shows it
  const c = token.colors || [];
  const el = document.createElement("span");
  el.className = `chip ${c.length ? "" : "chip-down"}`;
  el.setAttribute("aria-hidden", "true");
  if (c.length) { el.style.setProperty("--c1", `var(--${c[0]})`); el.style.setProperty("--c2", `var(--${c[1] || c[0]})`); }
  return el;
}

export function renderLog(root, view, me, notes = new Map()) {
  const entries = view.log || [];
  const have = Number(root.dataset.count || 0);
  const who = actorLabel(view);
  const names = JSON.stringify(view.players || null);  // a player joined or was renamed: say it everywhere
  if (entries.length < have || !seenBy.has(root) || root.dataset.names !== names) {
    root.replaceChildren();
    root.dataset.count = "0";
    root.dataset.names = names;
    seenBy.set(root, new Map());
  }
  const seen = seenBy.get(root);
  const start = Number(root.dataset.count || 0);
  const fresh = [];
  for (let i = start; i < entries.length; i++) {
    const e = entries[i];
    learn(seen, e);
    if (e.type === "match_started") continue;
    const li = document.createElement("li");
    li.className = `log-${e.type} ${e.role ? `by-${e.role}` : ""}`;
    li.textContent = logSentence(e, me, seen, who, entries[i - 1]);
    if (e.card) { li.dataset.card = e.card; li.title = cardText(e.card); li.tabIndex = 0; }  // opens the card sheet
    const tk = e.token || (e.what === "evidence" ? seen.get(e.handle) : null);
    if (tk) li.prepend(chip(tk), " ");
    if (notes.has(i)) li.append(" ", Object.assign(document.createElement("span"), { className: "log-note", textContent: notes.get(i) }));
    fresh.push(li);
  }
  root.dataset.count = String(entries.length);
  for (const li of fresh) root.prepend(li);
  if (start > 0) fresh.forEach((li) => li.classList.add("log-new"));
}
