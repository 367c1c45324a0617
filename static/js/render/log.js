// The game log in plain sentences, newest first.
import { logSentence } from "../labels.js";

export function renderLog(root, view, me) {
  const entries = view.log || [];
  const have = Number(root.dataset.count || 0);
  if (entries.length < have) { root.replaceChildren(); root.dataset.count = "0"; }
  const start = Number(root.dataset.count || 0);
  const fresh = [];
  for (let i = start; i < entries.length; i++) {
    const e = entries[i];
    if (e.type === "match_started") continue;
    const li = document.createElement("li");
    li.className = `log-${e.type} ${e.role ? `by-${e.role}` : ""}`;
    li.textContent = logSentence(e, me);
    fresh.push(li);
  }
  root.dataset.count = String(entries.length);
  for (const li of fresh) root.prepend(li);
  if (start > 0) fresh.forEach((li) => li.classList.add("log-new"));
}
