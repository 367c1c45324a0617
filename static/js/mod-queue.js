// The moderators' report queue (issue 43): reported players, the most reported (or the newest)
// first, each with its open reports, the chat around a reported line, the player's history, and
// the actions (dismiss, warn, mute, ban, lift, reset name, close). Asks /api/mod/… as the admin
// (its console cookie) or as a moderator's account (this browser's player token).
import { api } from "./api.js";
import { t } from "./i18n.js";
import { el } from "./people.js";
import { asPlayer, loadPlayer } from "./player.js";

const ACTIONS = ["dismiss", "warn", "mute", "ban", "lift", "reset_name", "close"];
const SCOPES = { ban: ["lobby", "pairing", "rated", "tournaments", "all"], lift: ["chat", "lobby", "pairing", "rated", "tournaments", "all"] };
const $ = (id) => document.getElementById(id);
const headers = asPlayer(loadPlayer());
const when = (iso) => (iso ? new Date(iso).toLocaleString() : "");
let sort = "most";

function chatLines(lines) {
  return el("ol", { className: "mod-chat" }, ...lines.map((c) => el("li", {
    className: `${c.reported ? "reported" : ""}${c.hidden ? " hidden-line" : ""}`,
    textContent: `${c.name} (${c.role}): ${c.text}${c.hidden ? ` [${t("moderation.queue.by_site")}]` : ""}`,
  })));
}

function report(r) {
  const who = r.reporter ? r.reporter_name || r.reporter : t("moderation.queue.by_site");
  return el("li", {},
    el("span", { textContent: `#${r.report_id} · ${t(`report.reasons.${r.reason}`)} · ${t("moderation.queue.reported_by")} ${who} · ${when(r.at)}` }),
    ...(r.text ? [el("blockquote", { textContent: r.text })] : []),
    ...(r.chat ? [el("p", { className: "muted small", textContent: t("moderation.queue.context") }), chatLines(r.chat)] : []));
}

function historyList(h) {
  const rows = [
    ...h.sanctions.map((s) => `${t("moderation.queue.sanctions")}: ${s.scope} → ${when(s.until)} (${s.reason})`),
    ...h.actions.map((a) => `${when(a.at)} · ${a.action}${a.scope ? ` ${a.scope}` : ""}${a.until ? ` → ${when(a.until)}` : ""} · ${a.by} · ${a.reason}`),
  ];
  if (!rows.length) rows.push(t("moderation.queue.no_history"));
  return el("ul", { className: "mod-history" }, ...rows.map((text) => el("li", { textContent: text })));
}

function actionForm(item) {
  const id = item.player_id;
  const action = el("select", { name: "action", id: `action-${id}` }, ...ACTIONS.map((a) => el("option", { value: a, textContent: t(`moderation.queue.actions.${a}`) })));
  const scope = el("select", { name: "scope", id: `scope-${id}` });
  const minutes = el("input", { name: "minutes", id: `minutes-${id}`, type: "number", min: 1, value: 15 });
  const reason = el("input", { name: "reason", id: `reason-${id}`, maxLength: 500, required: true });
  const done = el("p", { className: "muted small", role: "status" });
  const scopeLabel = el("label", {}, t("moderation.queue.scope"), scope);
  const minutesLabel = el("label", {}, t("moderation.queue.minutes"), minutes);
  const fit = () => {
    const a = action.value;
    scope.replaceChildren(...(SCOPES[a] || []).map((s) => el("option", { value: s, textContent: s })));
    scopeLabel.hidden = !SCOPES[a];
    minutesLabel.hidden = a !== "mute" && a !== "ban";
  };
  action.addEventListener("change", fit);
  fit();
  const form = el("form", { className: "mod-form", id: `act-${id}` },
    el("label", {}, t("moderation.queue.action"), action), scopeLabel, minutesLabel,
    el("label", { className: "reason-field" }, t("moderation.queue.reason_label"), reason),
    el("button", { className: "btn btn-primary", type: "submit", textContent: t("moderation.queue.apply") }), done);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { player_id: id, action: action.value, reason: reason.value.trim(), report_ids: item.reports.map((r) => r.report_id) };
    if (!scopeLabel.hidden) body.scope = scope.value;
    if (!minutesLabel.hidden) body.minutes = Number(minutes.value);
    try {
      await api("/api/mod/actions", { method: "POST", body, headers });
      done.textContent = t("moderation.queue.done");
      await // the admin grants or takes back an account's moderator flag (PUT/DELETE /api/mod/moderators/…)
$("moderator-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const id = $("moderator-id").value.trim();
  const method = event.submitter?.value === "revoke" ? "DELETE" : "PUT";
  try {
    await api(`/api/mod/moderators/${encodeURIComponent(id)}`, { method });
    $("moderator-status").textContent = t("moderation.queue.done");
  } catch (err) {
    $("moderator-status").textContent = err.message;
  }
});
load();
    } catch (err) {
      done.textContent = err.message;
    }
  });
  return form;
}

function itemNode(item) {
  return el("section", { className: "panel mod-item", id: `item-${item.player_id}` },
    el("h2", {}, el("a", { href: `/players/${item.player_id}`, textContent: item.name }),
      el("span", { className: "muted small", textContent: t("moderation.queue.open_reports", { count: item.open_reports }) })),
    el("ul", { className: "mod-reports" }, ...item.reports.map(report)),
    el("h3", { textContent: t("moderation.queue.history") }), historyList(item.history),
    actionForm(item));
}

async function load() {
  const status = $("queue-status");
  try {
    const { items } = await api(`/api/mod/reports?sort=${sort}`, { headers });
    $("queue-items").replaceChildren(...items.map(itemNode));
    status.textContent = items.length ? "" : t("moderation.queue.empty");
  } catch (err) {
    $("queue-items").replaceChildren();
    status.textContent = err.status === 401 || err.status === 403 ? t("moderation.queue.sign_in") : err.message;
  }
}

for (const [button, value] of [["sort-most", "most"], ["sort-newest", "newest"]]) {
  $(button).addEventListener("click", () => {
    sort = value;
    $("sort-most").setAttribute("aria-pressed", String(value === "most"));
    $("sort-newest").setAttribute("aria-pressed", String(value === "newest"));
    // the admin grants or takes back an account's moderator flag (PUT/DELETE /api/mod/moderators/…)
$("moderator-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const id = $("moderator-id").value.trim();
  const method = event.submitter?.value === "revoke" ? "DELETE" : "PUT";
  try {
    await api(`/api/mod/moderators/${encodeURIComponent(id)}`, { method });
    $("moderator-status").textContent = t("moderation.queue.done");
  } catch (err) {
    $("moderator-status").textContent = err.message;
  }
});
load();
  });
}
// the admin grants or takes back an account's moderator flag (PUT/DELETE /api/mod/moderators/…)
$("moderator-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const id = $("moderator-id").value.trim();
  const method = event.submitter?.value === "revoke" ? "DELETE" : "PUT";
  try {
    await api(`/api/mod/moderators/${encodeURIComponent(id)}`, { method });
    $("moderator-status").textContent = t("moderation.queue.done");
  } catch (err) {
    $("moderator-status").textContent = err.message;
  }
});
load();
