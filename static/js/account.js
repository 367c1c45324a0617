// The account page: sign up (this browser's player keeps its name and games), sign in (this
// browser becomes the account's player), sign out, the devices signed in, the password, and
// deleting the player. Passwords go in request bodies only, never into storage or a URL.
import { api } from "./api.js";
import { t } from "./i18n.js";
import { asPlayer, forgetPlayer, keep, loadPlayer } from "./player.js";
import { el, problem } from "./people.js";

const $ = (id) => document.getElementById(id);
const dateText = (iso) => new Date(iso).toLocaleString(document.documentElement.lang || undefined);

function showError(form, err) {
  const box = form.querySelector(".form-error");
  box.textContent = err ? problem(err) : "";
  box.hidden = !err;
}

async function whoAmI() {
  const player = loadPlayer();
  if (!player) return null;
  try {
    return await api("/api/accounts/me", { headers: asPlayer(player) });
  } catch (err) {
    if (err.code === "unknown_player") forgetPlayer();  // revoked elsewhere, or deleted
    else throw err;
    return null;
  }
}

function sessionItem(s) {
  const label = `${s.current ? t("account.this_device") : ""} ${t("account.since", { date: dateText(s.created_at) })}`.trim();
  const item = el("li", {}, el("span", { textContent: label }));
  if (!s.current) {
    const button = el("button", { type: "button", className: "btn", textContent: t("account.revoke") });
    button.addEventListener("click", async () => {
      button.disabled = true;
      await api(`/api/accounts/sessions/${encodeURIComponent(s.session_id)}`, { method: "DELETE", headers: asPlayer(loadPlayer()) });
      render();
    });
    item.append(button);
  }
  return item;
}

async function render() {
  const me = await whoAmI();
  const signedIn = Boolean(me && me.username);
  $("signed-out").hidden = signedIn;
  $("signed-in").hidden = !signedIn;
  $("delete-form").hidden = !me;
  $("export-panel").hidden = !me;
  $("delete-password-label").hidden = !signedIn;
  $("account-links").hidden = !me;
  if (me) $("profile-link").href = `/players/${encodeURIComponent(me.player_id)}`;
  $("account-status").textContent = !me ? t("account.nobody")
    : signedIn ? t("account.signed_in_as", { username: me.username }) : t("account.anonymous", { name: me.name });
  if (signedIn) $("sessions").replaceChildren(...me.sessions.map(sessionItem));
}

function onSubmit(id, call) {
  const form = $(id);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = Object.fromEntries(new FormData(form));
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    showError(form, null);
    try {
      const said = await call(data);
      form.reset();
      await render();
      if (said) $("account-status").textContent = said;
    } catch (err) {
      showError(form, err);
    } finally {
      button.disabled = false;
    }
  });
}

onSubmit("sign-up", async ({ username, password }) => {
  const send = () => api("/api/accounts", { method: "POST", body: { username, password }, headers: asPlayer(loadPlayer()) });
  try {
    keep(await send());
  } catch (err) {
    if (err.code !== "unknown_player") throw err;
    forgetPlayer();  // a player the server no longer knows: the account gets a new one
    keep(await send());
  }
});

onSubmit("sign-in", async ({ username, password }) => {
  keep(await api("/api/accounts/login", { method: "POST", body: { username, password } }));
});

onSubmit("password-form", async (body) => {
  await api("/api/accounts/password", { method: "POST", body, headers: asPlayer(loadPlayer()) });
  return t("account.password_changed");
});

onSubmit("delete-form", async ({ password }) => {
  const body = password ? { password } : {};
  await api("/api/players/me", { method: "DELETE", body, headers: asPlayer(loadPlayer()) });
  forgetPlayer();
  return t("account.deleted");
});

$("sign-out").addEventListener("click", async () => {
  try {
    await api("/api/accounts/logout", { method: "POST", headers: asPlayer(loadPlayer()) });
  } finally {
    forgetPlayer();
    render();
  }
});

render();

// issue 43: the player's data as a JSON file (the call needs the player's token, so not a link)
$("export-data").addEventListener("click", async () => {
  $("export-error").hidden = true;
  try {
    const response = await fetch("/api/players/me/export", { headers: asPlayer(loadPlayer()) });
    if (!response.ok) throw new Error((await response.json().catch(() => ({}))).message || response.statusText);
    const name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "")?.[1] || "watergate-data.json";
    const link = Object.assign(document.createElement("a"), { href: URL.createObjectURL(await response.blob()), download: name });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  } catch (err) {
    $("export-error").textContent = String(err.message || err);
    $("export-error").hidden = false;
  }
});
