// A tournament's page (/tournaments/{id}): what it is, a countdown to its start or end, join
// and withdraw, the standings (50 a page; the flame for a streak), the games in progress with
// their spectator links, your own games, and the podium at the end. It is live: the page's
// socket is pushed the tournament again whenever it changes, and an entrant's open socket is
// what makes them available for pairing. When you are paired, the page takes you to your game.
import { api } from "./api.js";
import { BOOT, t } from "./i18n.js";
import { el } from "./people.js";
import { asPlayer, loadPlayer } from "./player.js";
import { connect } from "./socket.js";
import { facts, pointsShown, said, when } from "./tournaments.js";

const $ = (id) => document.getElementById(id);
const id = BOOT.tournament_id;
const path = `/api/tournaments/${encodeURIComponent(id)}`;
const code = new URLSearchParams(location.search).get("code");
const me = loadPlayer();
let page = 1;
let sort = "rank";
let shown = null;  // the tournament as last rendered
let mine = null;  // your own line (rank, score, playing, withdrawn), or null
let socket = null;
const started = new Set();  // games this page already sent you to
const berserked = new Set();
const GO_AFTER_S = 3;  // seconds before a paired player is taken to the table

const tablePath = (game, matchId) => `${game === "nations" ? "/nations" : ""}/match/${encodeURIComponent(matchId)}`;

function countdown() {
  if (!shown) return;
  if (shown.rounds && shown.status === "running") {
    const round = { round: shown.round, rounds: shown.rounds };
    // a correspondence round's deadline: the next round starts by then at the latest
    $("t-countdown").textContent = shown.round_ends_at && shown.round < shown.rounds
      ? t("tournaments.round_ends", { ...round, when: when(shown.round_ends_at) })
      : t("tournaments.round_of", round);
    return;
  }
  const target = shown.status === "upcoming" ? shown.starts_at : shown.status === "running" ? shown.ends_at : null;
  if (!target) { $("t-countdown").textContent = t(`tournaments.status.${shown.status}`); return; }
  const left = Math.max(0, Math.round((Date.parse(target) - Date.now()) / 1000));
  const clock = `${Math.floor(left / 3600) ? `${Math.floor(left / 3600)}:` : ""}${String(Math.floor(left / 60) % 60).padStart(2, "0")}:${String(left % 60).padStart(2, "0")}`;
  $("t-countdown").textContent = t(shown.status === "upcoming" ? "tournaments.starts_in" : "tournaments.ends_in", { time: clock });
}

/** A player's games in the tournament, opened under their row of the standings. */
async function toggleResults(button, s) {
  const row = button.closest("tr");
  const open = row.nextElementSibling?.classList.contains("t-details");
  if (open) { row.nextElementSibling.remove(); button.setAttribute("aria-expanded", "false"); return; }
  const found = await api(`${path}/players/${encodeURIComponent(s.player_id)}`).catch(() => ({ games: [] }));
  const list = el("ul", { className: "t-list" }, ...found.games.map((g) => resultLine(g, s.player_id)));
  if (!found.games.length) list.append(el("li", { className: "muted", textContent: t("tournaments.no_results") }));
  row.after(el("tr", { className: "t-details" }, el("td", { colSpan: 5 }, list)));
  button.setAttribute("aria-expanded", "true");
}

function standingRow(s) {
  const name = el("a", { href: `/players/${encodeURIComponent(s.player_id)}`, textContent: s.name });
  const more = el("button", { type: "button", className: "t-more", textContent: "▸", title: t("tournaments.results_of", { name: s.name }) });
  more.setAttribute("aria-expanded", "false");
  more.setAttribute("aria-label", t("tournaments.results_of", { name: s.name }));
  more.addEventListener("click", () => toggleResults(more, s));
  const cell = el("td", {}, more, " ", name);
  if (s.streak) cell.append(" ", el("span", { className: "t-fire", title: t("tournaments.on_fire"), textContent: "🔥" }));
  if (s.withdrawn) cell.append(" ", el("span", { className: "badge quiet", textContent: t("tournaments.withdrawn_mark") }));
  if (s.playing) cell.append(" ", el("span", { className: "badge quiet", textContent: t("tournaments.playing_now") }));
  const row = el("tr", {}, el("td", { textContent: String(s.rank) }), cell,
    el("td", { className: "t-score", textContent: String(s.score) }), el("td", { textContent: String(s.games) }));
  if (s.buchholz !== undefined) row.append(el("td", { className: "t-tb", textContent: `${s.buchholz} · ${s.sonneborn_berger}` }));
  if (me && s.player_id === me.id) row.className = "t-mine";
  return row;
}

function gameLine(g, watch) {
  const [a, b] = g.seats;
  const line = el("li", { className: "t-item" }, el("span", { textContent: t("tournaments.vs", { a: a?.name ?? "?", b: b?.name ?? "?" }) }));
  if (watch) line.append(" ", el("a", { className: "btn", href: watch, textContent: t("tournaments.watch") }));
  return line;
}

function resultLine(g, whose = me?.id) {
  if (!g.match_id) return el("li", { className: "t-item" }, el("span", { textContent: t("tournaments.bye") }), el("span", { className: "muted", textContent: t("tournaments.points", { count: 1 }) }));
  const own = g.seats.find((s) => s.player_id === whose);
  const other = g.seats.find((s) => s.player_id !== whose);
  const outcome = own?.outcome ? t(`tournaments.${{ win: "won", loss: "lost", draw: "drawn" }[own.outcome]}`) : t("tournaments.playing_now");
  const points = own?.points ? t("tournaments.points", { count: pointsShown(shown.format, own.points) }) : "";
  return el("li", { className: "t-item" }, el("a", { href: tablePath(shown.game, g.match_id), textContent: `${outcome} · ${other?.name ?? "?"}` }), el("span", { className: "muted", textContent: points }));
}

function showMine() {
  const inIt = Boolean(mine);
  const open = shown.status === "upcoming" || shown.status === "running";
  $("t-join").hidden = !open || !me || (inIt && !mine.withdrawn);
  $("t-withdraw").hidden = !open || !inIt || mine.withdrawn;
  let text = "";
  if (!open) text = t(shown.status === "canceled" ? "tournaments.was_canceled" : "tournaments.over");
  else if (!me) text = t("tournaments.sign_in");
  else if (inIt && mine.withdrawn) text = t("tournaments.withdrawn");
  else if (inIt && !mine.playing && shown.status === "running") text = t(shown.rounds ? "tournaments.round_wait" : "tournaments.waiting");
  else if (inIt) text = t(shown.rounds ? "tournaments.joined_rounds" : "tournaments.joined");
  $("t-me-text").textContent = text;
  const playing = inIt && mine.playing && shown.status !== "canceled";
  $("t-ready").hidden = !playing;
  $("t-berserk").hidden = !playing || shown.format !== "arena" || berserked.has(mine.playing);
  if (playing) {
    const to = tablePath(shown.game, mine.playing);
    $("t-play").href = to;
    // a new pairing takes you to your game in a few seconds (time to go berserk first); once:
    // coming back here does not send you again
    if (!started.has(mine.playing) && sessionStorage.getItem(`wg.t.${mine.playing}`) !== "1") {
      started.add(mine.playing);
      sessionStorage.setItem(`wg.t.${mine.playing}`, "1");
      go(to);
    }
  }
}

let leaving = null;
function go(to) {
  clearInterval(leaving);
  let left = GO_AFTER_S;
  const tick = () => {
    $("t-going").textContent = t("tournaments.going", { count: left });
    if (left-- <= 0) { clearInterval(leaving); location.assign(to); }
  };
  tick();
  leaving = setInterval(tick, 1000);
}

async function berserk() {
  const matchId = mine?.playing;
  if (!matchId) return;
  try {
    await api(`${path}/berserk`, { method: "POST", body: { match_id: matchId }, headers: asPlayer(me) });
    berserked.add(matchId);
    location.assign(tablePath(shown.game, matchId));
  } catch (err) {
    $("t-error").textContent = said(err);
    $("t-error").hidden = false;
  }
}

function render(data) {
  shown = data;
  document.title = `${data.name} · ${t("tournaments.title")}`;
  $("t-name").textContent = data.name;
  $("t-facts").textContent = `${facts(data)} · ${t("tournaments.players", { count: data.players })}`;
  $("t-paused").hidden = !data.paused;
  $("t-tb-head").hidden = data.format !== "swiss";
  countdown();
  if (data.page === page) {
    $("t-rows").replaceChildren(...data.standings.map(standingRow));
    $("t-prev").hidden = page <= 1;
    $("t-next").hidden = page * 50 >= data.players;
    $("t-page").textContent = data.players > 50 ? t("tournaments.page", { page }) : "";
  }
  $("t-count").textContent = data.players ? `(${data.players})` : "";
  $("t-games-now").replaceChildren(...data.games.map((g) => gameLine(g, data.watch[g.match_id])));
  $("t-no-games").hidden = data.games.length > 0;
  $("t-podium-box").hidden = !data.podium;
  if (data.podium) $("t-podium").replaceChildren(...data.podium.map((s) => el("li", {}, el("strong", { textContent: s.name }), ` ${s.score}`)));
  $("t-export").href = `${path}/export`;
  showMine();
  $("tournament").setAttribute("aria-busy", "false");
}

async function load() {
  try {
    const data = await api(`${path}?page=${page}&sort=${sort}`, { headers: asPlayer(me) });
    mine = data.me;
    render(data);
    $("t-mine-box").hidden = !mine || !mine.games.length;
    if (mine) $("t-mine").replaceChildren(...mine.games.map((g) => resultLine(g)));
  } catch (err) {
    if (err.status === 404) { $("t-missing").hidden = false; $("t-me").hidden = true; }
    $("tournament").setAttribute("aria-busy", "false");
  }
}

function live() {
  if (socket) socket.close();
  socket = connect(`/ws/tournaments/${encodeURIComponent(id)}`, {
    hello: me ? { type: "auth", player_token: me.token } : { type: "watch" },
    onView: () => {},
    onError: () => {},
    onStatus: (s) => { $("t-live").hidden = s !== "reconnecting" || !shown; },
    onMessage: (msg) => {
      if (msg.type === "you" && msg.you) {  // your own line at once (a pairing)
        mine = { ...(mine || {}), ...msg.you };
        if (shown) showMine();
        return;
      }
      if (msg.type !== "tournament") return;
      const wasPlaying = mine?.playing;
      if (msg.you) mine = { ...(mine || {}), ...msg.you };
      // your own games and other pages of the standings come from the API, on what changed
      if (page !== 1 || sort !== "rank" || (mine && mine.playing !== wasPlaying)) load();
      else render(msg);
    },
  });
}

async function act(what) {
  $("t-error").hidden = true;
  try {
    await api(`${path}/${what}`, { method: "POST", body: what === "join" && code ? { code } : undefined, headers: asPlayer(me) });
    await load();
    live();  // the socket says again who you are: joined, you are available for pairing
  } catch (err) {
    $("t-error").textContent = said(err);
    $("t-error").hidden = false;
  }
}

$("t-join").addEventListener("click", () => act("join"));
$("t-berserk").addEventListener("click", berserk);
$("t-withdraw").addEventListener("click", () => act("withdraw"));
for (const th of document.querySelectorAll(".t-standings th[data-sort]")) {
  th.querySelector("button").addEventListener("click", () => {
    sort = th.dataset.sort;
    for (const other of document.querySelectorAll(".t-standings th[data-sort]")) other.removeAttribute("aria-sort");
    th.setAttribute("aria-sort", sort === "games" ? "descending" : "ascending");
    page = 1;
    load();
  });
}
$("t-prev").addEventListener("click", () => { page = Math.max(1, page - 1); load(); });
$("t-next").addEventListener("click", () => { page += 1; load(); });
setInterval(countdown, 1000);
load().then(live);
