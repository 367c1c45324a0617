// Admin statistics, computed by the database.
import { api } from "./api.js";

const root = document.getElementById("stats");
const pct = (x) => (x == null ? "—" : `${(100 * x).toFixed(1)} %`);

function table(title, pairs) {
  const section = document.createElement("section");
  const h = document.createElement("h2");
  h.textContent = title;
  const t = document.createElement("table");
  t.className = "admin-table";
  for (const [k, v] of pairs) {
    const tr = document.createElement("tr");
    const a = document.createElement("th");
    a.textContent = k;
    const b = document.createElement("td");
    b.textContent = v;
    tr.append(a, b);
    t.append(tr);
  }
  section.append(h, t);
  return section;
}

api("/api/admin/stats").then((s) => {
  root.replaceChildren(
    table("Outcomes", [["decided matches", s.decided], ["Editor wins", s.editor_wins], ["Nixon wins", s.nixon_wins],
      ["Editor win rate", pct(s.editor_win_rate)], ["average rounds", s.avg_rounds?.toFixed(2) ?? "—"],
      ["average duration", s.avg_duration_seconds == null ? "—" : `${(s.avg_duration_seconds / 60).toFixed(1)} min`]]),
    table("By status", Object.entries(s.by_status)),
    table("End reasons", Object.entries(s.end_reasons)),
    table("Matches per day", s.matches_per_day.map((d) => [d.day, d.count])),
  );
}).catch((err) => { if (err.status === 401) window.location.assign("/admin/login"); else root.textContent = err.message; });
