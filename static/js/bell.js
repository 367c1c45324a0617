// The bell in the header (issue 43): the unread count, a dropdown of the newest notifications
// (each a link; opening one marks it read), "mark all read", older pages, and live updates
// through WS /ws/notifications (the player token in the first message, never in the URL).
import { api } from "./api.js";
import { t } from "./i18n.js";
import { asPlayer, loadPlayer } from "./player.js";
import { addStyles } from "./styles.js";

const $ = (id) => document.getElementById(id);
const box = $("bell");
const me = loadPlayer();
const PAGE = 10;
let next = null;  // the `before` of the next page
let retry = 1000;

function count(unread) {
  const badge = $("bell-count");
  badge.textContent = unread > 99 ? "99+" : String(unread);
  badge.hidden = !unread;
  $("bell-button").setAttribute("aria-label", t("bell.open", { count: unread }));
}

const lang = () => document.documentElement.lang || undefined;
const stamp = (iso) => new Date(iso).toLocaleString(lang(), { dateStyle: "medium", timeStyle: "short" });

// What a line's words name: the person it is about, and a ban's or mute's scopes and end
// (kind "sanction": never who imposed it).
function words(n) {
  const { scopes, until } = n.data || {};
  const named = Array.isArray(scopes) ? scopes.map((s) => t(`reliability.scopes.${s}`)) : [];
  return {
    name: n.name || t("bell.someone"),
    scopes: new Intl.ListFormat(lang(), { type: "conjunction" }).format(named),
    until: until ? stamp(until) : "",
  };
}

function item(n) {
  const known = t(`bell.kinds.${n.kind}`, words(n));
  const li = document.createElement("li");
  li.className = n.read ? "" : "unread";
  li.dataset.id = n.id;
  const a = document.createElement("a");
  a.href = n.url || "/";
  a.textContent = known.startsWith("bell.kinds.") ? t("bell.kinds.other") : known;
  const time = document.createElement("time");
  time.dateTime = n.at;
  time.textContent = stamp(n.at);
  a.append(time);
  a.addEventListener("click", () => {
    if (n.read) return;
    // kept alive while the link's page loads (or opens in another tab)
    const headers = { "Content-Type": "application/json", ...asPlayer(me) };
    fetch("/api/notifications/read", { method: "POST", headers, body: JSON.stringify({ ids: [n.id] }), keepalive: true }).catch(() => {});
  });
  li.append(a);
  return li;
}

async function load(more = false) {
  const before = more && next ? `&before=${next}` : "";
  const found = await api(`/api/notifications?limit=${PAGE}${before}`, { headers: asPlayer(me) });
  if (!more) $("bell-list").replaceChildren();
  $("bell-list").append(...found.items.map(item));
  next = found.next_before;
  $("bell-more").hidden = next === null;
  $("bell-empty").hidden = $("bell-list").children.length > 0;
  count(found.unread);
}

// a phone's panel spans the screen, just under the bell (wherever the header wrapped it)
function place() {
  const panel = $("bell-panel");
  const fixed = !panel.hidden && getComputedStyle(panel).position === "fixed";
  panel.style.top = fixed ? `${$("bell-button").getBoundingClientRect().bottom + 8}px` : "";
}

function toggle(open) {
  $("bell-panel").hidden = !open;
  place();
  $("bell-button").setAttribute("aria-expanded", String(open));
  if (open) load().catch(() => {});
}

function listen() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${window.location.host}/ws/notifications`);
  ws.addEventListener("open", () => ws.send(JSON.stringify({ type: "auth", player_token: me.token })));
  ws.addEventListener("message", (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "unread" || msg.type === "notification") {
      retry = 1000;
      count(msg.unread);
      box.dataset.live = "1";  // the socket is up (tests wait for it)
    }
    if (msg.type === "notification" && !$("bell-panel").hidden) {
      $("bell-list").prepend(item(msg.notification));
      $("bell-empty").hidden = true;
    } else if (msg.type === "unread" && !$("bell-panel").hidden) {
      load().catch(() => {});
    }
  });
  ws.addEventListener("close", (event) => {
    delete box.dataset.live;
    if (event.code === 4401) return;  // this player is gone (signed out, deleted)
    setTimeout(listen, retry);
    retry = Math.min(retry * 2, 60000);
  });
}

if (box && me) {
  await addStyles("/static/css/bell.css");  // a table's bell comes after the table: its styles too
  box.hidden = false;
  $("bell-button").addEventListener("click", () => toggle($("bell-panel").hidden));
  $("bell-more").addEventListener("click", () => load(true).catch(() => {}));
  $("bell-read-all").addEventListener("click", async () => {
    await api("/api/notifications/read", { method: "POST", body: { all: true }, headers: asPlayer(me) }).catch(() => {});
    load().catch(() => {});
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !$("bell-panel").hidden) { toggle(false); $("bell-button").focus(); }
  });
  document.addEventListener("click", (event) => {
    if (!$("bell-panel").hidden && !box.contains(event.target)) toggle(false);
  });
  window.addEventListener("resize", place);
  load().catch(() => {});
  listen();
}
