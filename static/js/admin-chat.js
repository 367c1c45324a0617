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
  if (!list.children.length) list.textContent = "No chat.";
}

show().catch((err) => { if (list) list.textContent = err.message; });
