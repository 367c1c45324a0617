// Admin match list: filters, sorting and paging over /api/admin/matches-page (cookie session).
import { api } from "./api.js";

const form = document.getElementById("filters");
const rows = document.getElementById("rows");
const info = document.getElementById("page-info");
const PAGE = 50;
let offset = 0;

// a seat: its kind, and who took it (a player's name, "guest"; a leaver the computer replaced);
// admin pages speak English
function seat(m, role) {
  const p = (m.players || {})[role];
  const kind = (m.kinds || {})[role] || m[`${role}_kind`] || "";
  if (p && p.replaced) return `bot (${p.left}: ${p.left_by || "guest"})`;
  if (p && p.kind === "bot") return p.level ? `${kind} · ${p.level}` : kind;  // its true level (issue 42)
  const who = !p ? "" : p.player_id ? ` · ${p.name}` : p.name ? " · guest" : " · (free)";
  return `${kind}${who}`;
}

// every seat of the match, one line each (a Watergate duel or a Nations table of up to five)
function seats(m) {
  const td = document.createElement("td");
  for (const role of Object.keys(m.kinds || {})) {
    const line = document.createElement("div");
    line.textContent = `${role}: ${seat(m, role)}`;
    td.append(line);
  }
  return td;
}

function cell(text, cls) {
  const td = document.createElement("td");
  if (cls) td.className = cls;
  td.textContent = text ?? "—";
  return td;
}

async function load() {
  const params = new URLSearchParams();
  for (const [key, value] of new FormData(form)) if (value) params.set(key, value);
  params.set("limit", PAGE);
  params.set("offset", offset);
  try {
    const page = await api(`/api/admin/matches-page?${params}`);
    rows.replaceChildren(...page.rows.map((m) => {
      const tr = document.createElement("tr");
      const id = document.createElement("td");
      const link = document.createElement("a");
      link.href = `/admin/matches/${m.match_id}`;
      link.textContent = m.match_id;
      id.append(link);
      tr.append(id, cell(m.game), cell(m.status, `status-${m.status}`), seats(m), cell(m.round), cell(m.version),
        cell(m.winner ? `${m.winner} (${m.win_reason})` : null), cell(new Date(m.created_at).toLocaleString()), cell(new Date(m.updated_at).toLocaleString()));
      return tr;
    }));
    info.textContent = page.total ? `${offset + 1}–${Math.min(offset + PAGE, page.total)} of ${page.total}` : "no matches";
    document.getElementById("prev").disabled = offset === 0;
    document.getElementById("next").disabled = offset + PAGE >= page.total;
  } catch (err) {
    if (err.status === 401) window.location.assign("/admin/login");
    else info.textContent = err.message;
  }
}

form.addEventListener("change", () => { offset = 0; load(); });
form.addEventListener("submit", (e) => { e.preventDefault(); offset = 0; load(); });
document.getElementById("q").addEventListener("input", () => { offset = 0; load(); });
document.getElementById("prev").addEventListener("click", () => { offset = Math.max(0, offset - PAGE); load(); });
document.getElementById("next").addEventListener("click", () => { offset += PAGE; load(); });
load();
