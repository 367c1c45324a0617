// One tournament in the admin console (issue 46): its facts and status, cancel / pause / resume,
// its entrants (50 a page) each with "remove", the record of actions (who, when, why) and every
// pairing with its players, result and a link to the admin replay. Each action asks for a reason
// in a dialog first; the record keeps it. Reads and acts through the tournament API with the
// console's session cookie.
import { api } from "./api.js";
import { BOOT, roleLabel, t } from "./i18n.js";
import { el } from "./people.js";
import { facts, pointsShown, said } from "./tournaments.js";
import { statusOf } from "./admin-tournaments.js";

const $ = (id) => document.getElementById(id);
const A = (key, params) => t(`tournaments.admin.${key}`, params);
const path = `/api/tournaments/${encodeURIComponent(BOOT.tournament_id)}`;
const when = (iso) => (iso ? new Date(iso).toLocaleString(document.documentElement.lang || undefined) : "—");
const OUTCOMES = { win: "won", loss: "lost", draw: "drawn", bye: "bye" };
const HISTORY = 200;  // the most the history endpoint sends of each
let shown = null;
let page = 1;
let asked = null;  // the action the dialog asks a reason for: { action, player }

const cell = (content) => el("td", {}, content ?? "—");
const playerLink = (id, name) => el("a", { href: `/players/${encodeURIComponent(id)}`, textContent: name || id });

function factsTable(d) {
  const lines = [
    [A("status"), statusOf(d)],
    [A("starts"), when(d.starts_at)],
    d.ends_at ? [A("ends"), when(d.ends_at)] : null,
    d.finished_at ? [A("finished"), when(d.finished_at)] : null,
    d.rounds ? [A("round"), `${d.round} / ${d.rounds}`] : null,
    [A("players"), `${d.players} / ${d.max_players}`],
    [A("limits"), `${d.min_rating ?? "—"} · ${d.min_games ?? "—"}`],
  ].filter(Boolean);
  $("t-table").replaceChildren(...lines.map(([label, value]) => el("tr", {}, el("th", { scope: "row", textContent: label }), el("td", { textContent: value }))));
}

function entrant(s, open) {
  const who = el("td", {}, playerLink(s.player_id, s.name));
  if (s.withdrawn) who.append(" ", el("span", { className: "badge quiet", textContent: t("tournaments.withdrawn_mark") }));
  if (s.playing) who.append(" ", el("span", { className: "badge quiet", textContent: t("tournaments.playing_now") }));
  const remove = el("td", {});
  if (open) {
    const button = el("button", { className: "btn", type: "button", textContent: A("actions.remove") });
    button.setAttribute("aria-label", `${A("actions.remove")}: ${s.name}`);
    button.addEventListener("click", () => ask("remove", s));
    remove.append(button);
  }
  return el("tr", { id: `entrant-${s.player_id}` }, el("td", { textContent: String(s.rank) }), who,
    el("td", { textContent: String(s.score) }), el("td", { textContent: String(s.games) }), remove);
}

function event(e) {
  const by = e.by === "admin" ? A("by_admin") : playerLink(e.by, e.by_name);
  const whom = e.detail?.player_id ? playerLink(e.detail.player_id, e.player_name) : null;
  return el("tr", {}, cell(when(e.at)), cell(A(`done_actions.${e.action}`)), cell(by), cell(whom), cell(e.detail?.reason));
}

function pairing(g) {
  const seats = el("td", {}, ...g.seats.map((s) => {
    const outcome = s.outcome ? t(`tournaments.${OUTCOMES[s.outcome] ?? s.outcome}`) : t("tournaments.playing_now");
    const points = s.points ? ` · ${t("tournaments.points", { count: pointsShown(shown.format, s.points) })}` : "";
    return el("div", {}, playerLink(s.player_id, s.name), ` (${roleLabel(s.seat)}): ${outcome}${points}`);
  }));
  const replay = g.match_id ? el("a", { href: `/admin/matches/${encodeURIComponent(g.match_id)}`, textContent: A("replay") }) : t("tournaments.bye");
  return el("tr", {}, cell(g.round ? String(g.round) : null), cell(when(g.started_at)), seats, cell(replay));
}

function render(d, history) {
  shown = d;
  const open = d.status === "upcoming" || d.status === "running";
  document.title = `${d.name} · ${t("tournaments.title")} · Admin`;
  $("t-name").textContent = d.name;
  $("t-facts").textContent = facts(d);
  factsTable(d);
  for (const button of $("t-actions").querySelectorAll("button")) {
    const action = button.dataset.action;
    button.hidden = !open || (action === "pause" && d.paused) || (action === "resume" && !d.paused);
  }
  if (!open) $("t-result").textContent = A("closed");
  $("t-count").textContent = `(${d.players})`;
  $("t-entrants").replaceChildren(...d.standings.map((s) => entrant(s, open)));
  $("t-no-entrants").hidden = d.standings.length > 0;
  $("t-prev").hidden = page <= 1;
  $("t-next").hidden = page * 50 >= d.players;
  $("t-page").textContent = d.players > 50 ? t("tournaments.page", { page }) : "";
  $("t-record").replaceChildren(...history.events.map(event));
  $("t-no-record").hidden = history.events.length > 0;
  $("t-pairings").replaceChildren(...history.pairings.map(pairing));
  $("t-no-pairings").hidden = history.pairings.length > 0;
  $("t-capped").hidden = history.pairings.length < HISTORY;
  $("t-capped").textContent = A("capped", { count: HISTORY });
}

async function load() {
  try {
    const [d, history] = await Promise.all([api(`${path}?page=${page}`), api(`${path}/history`)]);
    render(d, history);
  } catch (err) {
    if (err.status === 401 || err.status === 403) { window.location.assign("/admin/login"); return; }
    $("t-error").textContent = err.status === 404 ? t("tournaments.not_found") : A("failed", { message: err.message });
    $("t-error").hidden = false;
  } finally {
    $("t-admin").setAttribute("aria-busy", "false");
  }
}

function ask(action, player) {
  asked = { action, player };
  $("t-dialog-title").textContent = A(`ask.${action}`, { name: shown.name, player: player?.name ?? "" });
  $("t-reason").value = "";
  $("t-dialog-error").hidden = true;
  $("t-dialog").showModal();
  $("t-reason").focus();
}

$("t-dialog-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const reason = $("t-reason").value.trim();
  if (!reason || !asked) return;
  const body = { action: asked.action, reason };
  if (asked.player) body.player_id = asked.player.player_id;
  try {
    await api(`${path}/admin`, { method: "POST", body });
  } catch (err) {
    $("t-dialog-error").textContent = said(err);
    $("t-dialog-error").hidden = false;
    return;
  }
  $("t-dialog").close();
  $("t-result").textContent = A("done");
  await load();
});
$("t-back").addEventListener("click", () => $("t-dialog").close());
for (const button of $("t-actions").querySelectorAll("button")) button.addEventListener("click", () => ask(button.dataset.action));
$("t-prev").addEventListener("click", () => { page = Math.max(1, page - 1); load(); });
$("t-next").addEventListener("click", () => { page += 1; load(); });
load();
