// The admin's list of every tournament (issue 46), private ones too, the newest first, by status,
// paged over /api/admin/tournaments (the console's session cookie).
import { api } from "./api.js";
import { t } from "./i18n.js";
import { el } from "./people.js";
import { facts } from "./tournaments.js";

const $ = (id) => document.getElementById(id);
const PAGE = 50;
const when = (iso) => (iso ? new Date(iso).toLocaleString(document.documentElement.lang || undefined) : "—");
let offset = 0;

/** A tournament's status as the console shows it: a paused one says so. */
export function statusOf(tour) {
  const status = t(`tournaments.status.${tour.status}`);
  return tour.paused && (tour.status === "upcoming" || tour.status === "running") ? `${status} · ${t("tournaments.admin.paused")}` : status;
}

function row(tour) {
  const name = el("td", {},
    el("a", { href: `/admin/tournaments/${encodeURIComponent(tour.tournament_id)}`, textContent: tour.name }),
    el("div", { className: "muted small", textContent: facts(tour) }));
  const creator = tour.creator ? el("a", { href: `/players/${encodeURIComponent(tour.creator)}`, textContent: tour.creator_name || tour.creator }) : t("tournaments.admin.by_admin");
  return el("tr", {}, name,
    el("td", { className: `status-${tour.status}`, textContent: statusOf(tour) }),
    el("td", { textContent: `${tour.players} / ${tour.max_players}` }),
    el("td", { textContent: when(tour.starts_at) }),
    el("td", { textContent: when(tour.created_at) }),
    el("td", {}, creator));
}

async function load() {
  const params = new URLSearchParams({ limit: PAGE, offset });
  if ($("status").value) params.set("status", $("status").value);
  try {
    const page = await api(`/api/admin/tournaments?${params}`);
    $("rows").replaceChildren(...page.rows.map(row));
    $("page-info").textContent = page.total
      ? t("tournaments.admin.shown", { first: offset + 1, last: Math.min(offset + PAGE, page.total), total: page.total })
      : t("tournaments.admin.none");
    $("prev").disabled = offset === 0;
    $("next").disabled = offset + PAGE >= page.total;
  } catch (err) {
    if (err.status === 401 || err.status === 403) window.location.assign("/admin/login");
    else $("page-info").textContent = t("tournaments.admin.failed", { message: err.message });
  }
}

if ($("rows")) {
  $("filters").addEventListener("change", () => { offset = 0; load(); });
  $("filters").addEventListener("submit", (e) => { e.preventDefault(); offset = 0; load(); });
  $("prev").addEventListener("click", () => { offset = Math.max(0, offset - PAGE); load(); });
  $("next").addEventListener("click", () => { offset += PAGE; load(); });
  load();
}
