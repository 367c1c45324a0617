// The admin's match page: the table chat of the match, oldest first, as text only.
import { api } from "./api.js";

const list = document.getElementById("admin-chat");
const matchId = document.getElementById("stepper")?.dataset.matchId;

async function show() {
  if (!list || !matchId) return;
  const detail = await api(`/api/admin/matches/${matchId}`);
  list.replaceChildren(...(detail.chat || []).map((line) => {
    const item = document.createElement("li");
    const when = new Date(line.at * 1000).toISOString().replace("T", " ").slice(0, 19);
    item.textContent = `${when} ${line.role} (${line.name}): ${line.text}`;  // never HTML
    return item;
  }));
  if (!list.children.length) say("No chat.");
}

function say(text) {  // a list holds only items
  const item = document.createElement("li");
  item.textContent = text;
  list.replaceChildren(item);
}

show().catch((err) => { if (list) say(err.message); });
