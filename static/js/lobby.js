// The lobby page: the player's name, a challenge to open (or quick pairing), and the live list of
// open challenges (WS /ws/lobby, reconnecting with backoff), each joined with one click. The
// socket says which player this browser is in its first message, so that this player's own
// challenges stay listed while they look on (and are shown as theirs, with a cancel button).
// A player on a ban (issue 43) sees its notice instead of the buttons it closes; each entry shows
// its creator's reliability, and a filter hides the low ones.
import { api } from "./api.js";
import { mountChallenges } from "./challenges.js";
import { followGame } from "./gamechoice.js";
import { roleName, t } from "./i18n.js";
import { asPlayer, loadPlayer, nameProblem, namedPlayer, suggestion, withPlayer } from "./player.js";
import { mountPush } from "./push.js";
import { figureText, filtered, hideLow, LOW, running, setHideLow, showNotice } from "./reliability.js";
import { saveSeat } from "./seats.js";

const $ = (id) => document.getElementById(id);
const form = $("challenge-form");
const nameInput = $("player-name");
const error = $("form-error");
const known = loadPlayer();
nameInput.value = known ? known.name : suggestion();
nameInput.addEventListener("input", () => { $("name-error").hidden = true; });

function refused(err) {
  if (err.code === "invalid_name") {
    $("name-error").textContent = nameProblem(err);
    $("name-error").hidden = false;
    nameInput.focus();
    return;
  }
  const texts = {
    taken: "lobby.taken",
    own_challenge: "lobby.own",
    too_many_challenges: "lobby.too_many",
    too_many_challenges_from_address: "lobby.too_many_here",
  };
  if (err.code === "banned") { standing(); return; }  // the notice says what, until when and why
  error.textContent = texts[err.code] ? t(texts[err.code]) : err.message;
  error.hidden = false;
}

/** Take the seat `call(headers)` gives, as this browser's player, and sit down at the table. */
async function sit(call) {
  error.hidden = true;
  try {
    const made = await withPlayer(nameInput.value, call);
    saveSeat(made.match_id, made.role, made.seat_token, made.invite_url, made.invites);
    window.location.assign(`/match/${made.match_id}`);
  } catch (err) { refused(err); }
}

followGame(form, $("game-choice"));

// a Nations table of more than two: how many (sent only then, so a table of two works with any server)
const showPlayers = () => { $("players-choice").hidden = (new FormData(form).get("game") || "watergate") !== "nations"; };
form.addEventListener("change", showPlayers);
showPlayers();

const choice = () => {
  const data = new FormData(form);
  const made = { game: data.get("game") || "watergate", role: data.get("role"), clock: data.get("clock") || "none", rated: data.get("rated") === "on" };
  const players = Number(data.get("players")) || 2;
  if (made.game === "nations" && players > 2) made.players = players;
  return made;
};

const seatName = (game, seat) => (game === "nations" ? t(`nations.seats.${seat}`) : roleName(seat));

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const body = { ...choice(), opponent: "human", visibility: "public" };
  sit((headers) => api("/api/matches", { method: "POST", body, headers }));
});
$("quick-pair").addEventListener("click", () => {
  sit((headers) => api("/api/lobby/quick", { method: "POST", body: choice(), headers }));
});

// ---- a ban in force: its notice, and no button that it would refuse ----------------------------
let closed = new Set();  // the scopes banned now: lobby, pairing, rated
let recheck = null;

async function standing() {
  const me = loadPlayer();
  const found = me ? await running(asPlayer(me)) : [];
  closed = new Set(found.map((s) => s.scope));
  showNotice($("ban-notice"), found);
  form.hidden = closed.has("lobby");  // nothing in it would be allowed: the notice says why
  $("open-challenge").hidden = closed.has("lobby");
  $("quick-pair").hidden = closed.has("lobby") || closed.has("pairing");
  $("quick-hint").hidden = $("quick-pair").hidden;
  $("rated").disabled = closed.has("rated");
  if (closed.has("rated")) $("rated").checked = false;
  show(shown);
  clearTimeout(recheck);
  if (found.length) {  // open again once the earliest of them ends
    const ends = Math.min(...found.map((s) => new Date(s.until).getTime()));
    recheck = setTimeout(standing, Math.min(2 ** 31 - 1, Math.max(1000, ends - Date.now() + 1000)));
  }
}

/** A Watergate challenge played by an earlier edition than today's says which (issue 41), so
 * nobody joins a match under rules they did not expect; today's goes without saying. */
function edition(c) {
  const today = document.getElementById("challenges").dataset.currentEdition;
  if (c.game !== "watergate" || !c.rules_version || c.rules_version === today) return null;
  return `${t("rules_edition.label")}: ${t(`rules_edition.names.${c.rules_version}`)}`;
}

function row(c) {
  const me = loadPlayer();
  const mine = me && c.creator.player_id === me.id;
  const item = document.createElement("li");
  item.className = mine ? "challenge mine" : "challenge";
  item.dataset.matchId = c.match_id;
  const who = Object.assign(document.createElement("a"), { className: "who", textContent: c.creator.name, href: `/players/${encodeURIComponent(c.creator.player_id)}` });
  const facts = Object.assign(document.createElement("span"), { className: "facts" });
  // contract v1.2: a table of several carries its size and its open seats ("2/4 seated")
  const open = Array.isArray(c.open_seats) && c.open_seats.length ? c.open_seats : [c.open_role];
  const total = c.players || 2;
  facts.textContent = [
    t(`games.${c.game}`),
    total > 2 || c.open_seats ? t("nations.seated", { seated: total - open.length, total }) : null,
    open.length === 1 ? t("lobby.plays_as", { role: seatName(c.game, open[0]) }) : null,
    t(`ui.clock_${c.clock}`),
    c.rated ? t("lobby.rated") : t("lobby.unrated"),
    edition(c),
  ].filter(Boolean).join(" · ");
  if (c.creator.reliability != null) {  // issue 43: the finished share of the creator's last games
    const low = c.creator.reliability < LOW;
    facts.append(" · ", Object.assign(document.createElement("span"), { className: low ? "figure low" : "figure", textContent: figureText(c.creator.reliability) }));
  }
  let seat = null;  // several open seats: the joiner picks one
  if (!mine && open.length > 1) {
    seat = Object.assign(document.createElement("select"), { className: "seat-pick" });
    seat.setAttribute("aria-label", t("nations.pick_seat"));
    for (const s of open) seat.append(Object.assign(document.createElement("option"), { value: s, textContent: seatName(c.game, s) }));
  }
  const button = Object.assign(document.createElement("button"), { type: "button", className: mine ? "btn" : "btn btn-primary" });
  if (mine) {
    button.textContent = t("lobby.cancel");
    button.addEventListener("click", async () => {
      try { await api(`/api/lobby/${c.match_id}`, { method: "DELETE", headers: asPlayer(loadPlayer()) }); } catch (err) { refused(err); }
    });
  } else {
    button.textContent = t("lobby.join");
    const body = () => (seat ? { seat: seat.value } : undefined);
    button.addEventListener("click", () => sit((headers) => api(`/api/lobby/${c.match_id}/join`, { method: "POST", headers, body: body() })));
  }
  const barred = !mine && (closed.has("lobby") || (c.rated && closed.has("rated")));
  item.append(who, facts, ...(seat && !barred ? [seat] : []), ...(barred ? [] : [button]));
  if (!mine) {  // issue 43: report the creator (their page opens the report dialog)
    const flag = Object.assign(document.createElement("a"), { className: "report-entry", href: `/players/${encodeURIComponent(c.creator.player_id)}#report`, textContent: "⚑", title: t("report.title") });
    flag.setAttribute("aria-label", `${t("report.title")}: ${c.creator.name}`);
    item.append(flag);
  }
  return item;
}

let shown = [];
function show(challenges) {
  shown = challenges;
  const me = loadPlayer();
  const kept = challenges.filter((c) => !filtered(c, me && c.creator.player_id === me.id));
  $("challenges").replaceChildren(...kept.map(row));
  $("no-challenges").hidden = challenges.length > 0;
  const hidden = challenges.length - kept.length;
  $("hidden-count").hidden = hidden === 0;
  $("hidden-count").textContent = hidden ? t("reliability.hidden", { count: hidden }) : "";
}

$("hide-low").checked = hideLow();
$("hide-low").addEventListener("change", () => { setHideLow($("hide-low").checked); show(shown); });

// direct challenges to and from this player, shown only when there are some; fetched again
// whenever this socket says a notification came for the player
const direct = mountChallenges($("challenges-panel"), {
  onChange: (ins, outs) => { $("challenges-panel").hidden = !ins.length && !outs.length; },
});
$("challenges-panel").hidden = true;

let attempt = 0;
function open() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/lobby`);
  ws.onopen = () => {
    const me = loadPlayer();
    if (me) ws.send(JSON.stringify({ type: "auth", player_token: me.token }));
    direct.refresh();
  };
  ws.onmessage = (event) => {
    let msg;
    try { msg = JSON.parse(event.data); } catch { return; }
    if (msg.type === "lobby") {
      attempt = 0;
      $("lobby-conn").textContent = `● ${t("lobby.live")}`;
      show(msg.challenges);
    } else if (msg.type === "notified") {
      direct.refresh();
    }
  };
  ws.onclose = () => {
    $("lobby-conn").textContent = t("lobby.offline");
    setTimeout(open, Math.min(10000, 500 * 2 ** attempt++) * (0.75 + Math.random() / 2));
  };
}
open();
standing();
mountPush($("push-toggle"), $("push-state"), () => namedPlayer(nameInput.value));
