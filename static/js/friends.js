// The people page (/people): the player's challenges (live), whom they follow with each one's
// status (online, playing) and whether they are friends, their followers (follow back), who may
// challenge them, and whom they blocked (unblock). Everything comes from the API, as this
// browser's player (X-Player-Token): a guest's player too.
import { api } from "./api.js";
import { listen, mountChallenges, openChallenge, problem } from "./challenges.js";
import { t } from "./i18n.js";
import { botMark } from "./botmark.js";
import { el } from "./people.js";
import { asPlayer, loadPlayer } from "./player.js";

const $ = (id) => document.getElementById(id);
const me = loadPlayer();
const error = $("people-error");
const say = (err) => { error.textContent = problem(err); error.hidden = false; };
const call = (path, method, body) => api(path, { method, body, headers: asPlayer(loadPlayer()) });

function status(p) {
  const which = p.playing ? "playing" : p.online ? "online" : "offline";
  return el("span", { className: `status is-${which}`, textContent: t(`social.${which}`) });
}

function button(label, action, primary = false) {
  const b = el("button", { type: "button", className: primary ? "btn btn-primary" : "btn", textContent: label });
  b.addEventListener("click", async () => {
    error.hidden = true;
    try { await action(); } catch (err) { say(err); }
  });
  return b;
}

function person(p, ...actions) {
  const name = el("a", { className: "who", href: `/players/${encodeURIComponent(p.player_id)}`, textContent: p.name });
  const marks = el("span", { className: "marks" }, ...botMark(p));
  if (p.friend) marks.append(el("span", { className: "badge", textContent: t("social.friend") }));
  if (p.online !== undefined) marks.append(status(p));
  return el("li", { className: "person" }, name, marks, el("span", { className: "actions" }, ...actions));
}

function fill(list, empty, count, items) {
  $(list).replaceChildren(...items);
  $(empty).hidden = items.length > 0;
  if (count) $(count).textContent = items.length ? `(${items.length})` : "";
}

async function show() {
  const found = await call("/api/players/me/follows");
  const following = new Set(found.following.map((p) => p.player_id));
  fill("following", "no-following", "following-count", found.following.map((p) => person(p,
    button(t("social.challenge"), () => openChallenge(p, (made) => challenges.remember(made)), true),
    button(t("social.unfollow"), async () => { await call(`/api/players/me/follows/${p.player_id}`, "DELETE"); await show(); }))));
  fill("followers", "no-followers", "followers-count", found.followers.map((p) => person(p,
    ...(following.has(p.player_id) ? [] : [button(t("social.follow_back"), async () => { await call(`/api/players/me/follows/${p.player_id}`, "PUT"); await show(); })]))));
  const blocked = (await call("/api/players/me/blocks")).blocked;
  fill("blocked", "no-blocked", null, blocked.map((p) => person(p,
    button(t("social.unblock"), async () => { await call(`/api/players/me/blocks/${p.player_id}`, "DELETE"); await show(); }))));
}

async function settings() {
  const { challenges: current } = await call("/api/players/me/settings");
  for (const input of document.querySelectorAll("#challenge-setting input")) {
    input.checked = input.value === current;
    input.addEventListener("change", async () => {
      try {
        await call("/api/players/me/settings", "PATCH", { challenges: input.value });
        $("setting-state").textContent = t("social.saved");
      } catch (err) { say(err); }
    });
  }
}

const challenges = mountChallenges($("challenges-panel"));
if (!me) {
  $("no-player").hidden = false;
  $("people-body").hidden = true;
  $("people").setAttribute("aria-busy", "false");
} else {
  Promise.all([show(), settings()])
    .catch(say)
    .finally(() => $("people").setAttribute("aria-busy", "false"));
  listen(() => { challenges.refresh(); });
  setInterval(() => { show().catch(() => {}); }, 30000);  // statuses change without a notification
}
