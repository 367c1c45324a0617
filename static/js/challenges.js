// Direct challenges in the browser (contract v1.2 "People"): the dialog that sends one (game,
// players, seat, clock, rated; a Nations table's other seats open or the computer), and the
// live list of a player's challenges: incoming ones accepted or declined with a reason, outgoing
// ones withdrawn, and the challenger taken to the match the moment it is accepted. The list is
// fetched again whenever the lobby socket says a notification came for this player.
import { api } from "./api.js";
import { followGame } from "./gamechoice.js";
import { roleCap, t } from "./i18n.js";
import { el } from "./people.js";
import { asPlayer, loadPlayer } from "./player.js";
import { saveSeat } from "./seats.js";

export const REASONS = ["generic", "later", "too_fast", "too_slow", "rated", "casual", "game"];
const KNOWN = ["challenge_refused", "blocked", "challenge_open", "too_many_follows", "too_many_challenges", "rated_needs_accounts", "account_required", "challenge_closed", "challenge_expired"];

/** A refusal in the reader's language (the server's own words for an unforeseen one). */
export const problem = (err) => (KNOWN.includes(err.code) ? t(`social.errors.${err.code}`) : err.message);

const seatName = (game, seat) => (game === "nations" ? t(`nations.seats.${seat}`) : roleCap(seat));
const tableOf = (matchId) => `/match/${encodeURIComponent(matchId)}`;

/** Fill and open the challenge dialog (templates/challenge_dialog.html) for `target` ({player_id,
 * name}); `sent(made)` hears of a challenge sent. */
export function openChallenge(target, sent) {
  const dialog = document.getElementById("challenge-dialog");
  const form = dialog.querySelector("form");
  const error = dialog.querySelector(".form-error");
  dialog.querySelector("h2").textContent = t("social.dialog_title", { name: target.name });
  error.hidden = true;
  if (!form.dataset.ready) {
    form.dataset.ready = "1";
    followGame(form, form.querySelector("#dialog-game"));
    form.addEventListener("change", () => otherSeats(form));
    dialog.querySelector("[data-close]").addEventListener("click", () => dialog.close());
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      error.hidden = true;
      try {
        const made = await api("/api/challenges", { method: "POST", body: wanted(form, dialog.dataset.to), headers: asPlayer(loadPlayer()) });
        saveSeat(made.match_id, made.role, made.seat_token, null, made.invites);
        dialog.close();
        dialog.onsent?.(made);
      } catch (err) {
        error.textContent = problem(err);
        error.hidden = false;
      }
    });
  }
  dialog.dataset.to = target.player_id;
  dialog.onsent = sent;
  otherSeats(form);
  dialog.showModal();
}

/** A Nations table of three or more: each seat beyond the two players', open or the computer. */
function otherSeats(form) {
  const data = new FormData(form);
  const nations = data.get("game") === "nations";
  const players = nations ? Number(data.get("players")) || 2 : 2;
  form.querySelector("#dialog-players").hidden = !nations;
  const box = form.querySelector("#dialog-seats");
  const kept = Object.fromEntries([...box.querySelectorAll("select")].map((s) => [s.name, s.value]));
  box.replaceChildren();
  for (let n = 3; n <= players; n++) {
    const seat = `p${n}`;
    const pick = el("select", { name: `seat_${seat}` },
      el("option", { value: "bot", textContent: t("social.seat_computer") }),
      el("option", { value: "human", textContent: t("social.seat_open") }));
    pick.value = kept[`seat_${seat}`] || "bot";
    box.append(el("label", { className: "clock-choice" }, `${t(`nations.seats.${seat}`)} `, pick));
  }
  box.hidden = players < 3;
}

function wanted(form, to) {
  const data = new FormData(form);
  const body = { to, game: data.get("game") || "watergate", role: data.get("role") || "random", clock: data.get("clock") || "none", rated: data.get("rated") === "on" };
  if (body.game === "nations") {
    body.players = Number(data.get("players")) || 2;
    const seats = {};
    for (const [k, v] of data.entries()) if (k.startsWith("seat_p")) seats[k.slice(5)] = v;
    if (Object.keys(seats).length) body.seats = seats;
  }
  return body;
}

function facts(c) {
  return [
    t(`games.${c.game}`),
    c.players > 2 ? t("social.players_n", { n: c.players }) : null,
    t(`ui.clock_${c.clock}`),
    c.rated ? t("lobby.rated") : t("lobby.unrated"),
  ].filter(Boolean).join(" · ");
}

/** The live list of the player's challenges in `root` (its #incoming and #outgoing lists);
 * `only`: a player id, to show the challenges with that player only. Returns {refresh}. */
export function mountChallenges(root, { only = null, onChange = null } = {}) {
  const seen = new Map();  // challenge id -> status this page last showed
  const error = root.querySelector(".form-error");
  const say = (err) => { error.textContent = problem(err); error.hidden = false; };

  function incoming(c) {
    const reason = el("select", { className: "reason" }, ...REASONS.map((r) => el("option", { value: r, textContent: t(`social.reasons.${r}`) })));
    reason.setAttribute("aria-label", t("social.decline_reason"));
    const accept = el("button", { type: "button", className: "btn btn-primary", textContent: t("social.accept") });
    accept.addEventListener("click", async () => {
      try {
        const seat = await api(`/api/challenges/${c.challenge_id}/accept`, { method: "POST", headers: asPlayer(loadPlayer()) });
        saveSeat(seat.match_id, seat.role, seat.seat_token);
        window.location.assign(tableOf(seat.match_id));
      } catch (err) { say(err); refresh(); }
    });
    const decline = el("button", { type: "button", className: "btn", textContent: t("social.decline") });
    decline.addEventListener("click", async () => {
      try {
        await api(`/api/challenges/${c.challenge_id}/decline`, { method: "POST", body: { reason: reason.value }, headers: asPlayer(loadPlayer()) });
      } catch (err) { say(err); }
      refresh();
    });
    return el("li", { className: "challenge incoming" },
      el("span", { className: "who" }, el("a", { href: `/players/${encodeURIComponent(c.challenger.player_id)}`, textContent: t("social.from", { name: c.challenger.name }) })),
      el("span", { className: "facts", textContent: `${facts(c)} · ${t("social.your_seat", { seat: seatName(c.game, c.seat) })}` }),
      el("span", { className: "answer" }, accept, reason, decline));
  }

  function outgoing(c) {
    const status = c.status === "open" && new Date(c.expires_at) <= new Date() ? "expired" : c.status;
    const said = status === "declined" && c.reason ? t("social.declined_because", { reason: t(`social.reasons.${c.reason}`) }) : t(`social.status.${status}`);
    const item = el("li", { className: `challenge outgoing is-${status}` },
      el("span", { className: "who", textContent: t("social.to", { name: c.target.name }) }),
      el("span", { className: "facts", textContent: facts(c) }),
      el("span", { className: "state", textContent: said }));
    if (status === "open") {
      const cancel = el("button", { type: "button", className: "btn", textContent: t("social.cancel") });
      cancel.addEventListener("click", async () => {
        try { await api(`/api/challenges/${c.challenge_id}/cancel`, { method: "POST", headers: asPlayer(loadPlayer()) }); } catch (err) { say(err); }
        refresh();
      });
      item.append(cancel);
    } else if (status === "accepted") {
      item.append(el("a", { className: "btn btn-primary", href: tableOf(c.match_id), textContent: t("social.go") }));
    }
    return item;
  }

  async function refresh() {
    const me = loadPlayer();
    if (!me) return;
    let found;
    try {
      found = await api("/api/challenges", { headers: asPlayer(me) });
    } catch { return; }
    const mine = (c) => !only || c.challenger.player_id === only || c.target.player_id === only;
    const ins = found.incoming.filter(mine), outs = found.outgoing.filter(mine);
    for (const c of outs) {  // the challenger is taken to the match once it is accepted
      if (c.status === "accepted" && seen.get(c.challenge_id) === "open") window.location.assign(tableOf(c.match_id));
      seen.set(c.challenge_id, c.status);
    }
    const list = (id, items, render) => {
      const node = root.querySelector(id);
      if (node) node.replaceChildren(...items.map(render));
      return node;
    };
    list("#incoming", ins, incoming);
    list("#outgoing", outs, outgoing);
    const none = root.querySelector("#no-incoming");
    if (none) none.hidden = ins.length > 0 || only !== null;  // a player's page: theirs only
    root.querySelector("#incoming-title").hidden = !ins.length && only !== null;
    root.querySelector("#outgoing-title").hidden = !outs.length;
    root.hidden = only !== null && !ins.length && !outs.length;
    onChange?.(ins, outs);
  }
  return { refresh, remember: (made) => { seen.set(made.challenge_id, "open"); refresh(); } };
}

/** Fetch again whenever the lobby socket tells this player of a notification (its own socket,
 * reconnecting with backoff). */
export function listen(refresh) {
  let attempt = 0;
  const open = () => {
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/lobby`);
    ws.onopen = () => {
      const me = loadPlayer();
      if (me) ws.send(JSON.stringify({ type: "auth", player_token: me.token }));
      attempt = 0;
      refresh();
    };
    ws.onmessage = (event) => {
      try { if (JSON.parse(event.data).type === "notified") refresh(); } catch { /* not ours */ }
    };
    ws.onclose = () => setTimeout(open, Math.min(10000, 500 * 2 ** attempt++) * (0.75 + Math.random() / 2));
  };
  open();
}
