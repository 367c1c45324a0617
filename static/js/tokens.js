// The account page's API tokens (issue 45): make one with its scopes (its secret shown this once,
// with a copy button), list the working ones with their last use, revoke one. Shown to accounts
// only: the panel sits in the signed-in part of the page, and a guest's request is refused.
import { api } from "./api.js";
import { t } from "./i18n.js";
import { asPlayer, loadPlayer } from "./player.js";
import { el, problem } from "./people.js";

const $ = (id) => document.getElementById(id);
const form = $("token-form");
const when = (iso) => new Date(iso).toLocaleString(document.documentElement.lang || undefined);
const mine = () => asPlayer(loadPlayer());

function failed(err) {
  const box = form.querySelector(".form-error");
  box.textContent = err ? problem(err) : "";
  box.hidden = !err;
}

function tokenItem(tok) {
  const scopes = tok.scopes.map((s) => t(`bots.scope_names.${s}`)).join(", ");
  const used = tok.last_used_at ? t("bots.used", { at: when(tok.last_used_at) }) : t("bots.never_used");
  const text = `${tok.label || tok.token_id} — ${scopes} · ${t("bots.made", { at: when(tok.created_at) })} · ${used}`;
  const revoke = el("button", { type: "button", className: "btn", textContent: t("bots.revoke") });
  revoke.addEventListener("click", async () => {
    revoke.disabled = true;
    try {
      await api(`/api/account/tokens/${encodeURIComponent(tok.token_id)}`, { method: "DELETE", headers: mine() });
      await list();
    } catch (err) { failed(err); revoke.disabled = false; }
  });
  return el("li", {}, el("span", { textContent: text }), revoke);
}

async function list() {
  if ($("signed-in").hidden) return;  // a guest has no tokens to list
  const { tokens } = await api("/api/account/tokens", { headers: mine() });
  $("tokens").replaceChildren(...(tokens.length ? tokens.map(tokenItem) : [el("li", { className: "muted", textContent: t("bots.none") })]));
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  failed(null);
  const data = new FormData(form);
  const button = $("token-create");
  button.disabled = true;
  try {
    const made = await api("/api/account/tokens", { method: "POST", headers: mine(), body: { label: String(data.get("label") || ""), scopes: data.getAll("scope") } });
    $("token-secret").textContent = made.token;
    $("token-made").hidden = false;
    $("token-label").value = "";
    await list();
  } catch (err) { failed(err); } finally { button.disabled = false; }
});

$("token-copy").addEventListener("click", async () => {
  await navigator.clipboard?.writeText($("token-secret").textContent);
  $("token-copy").textContent = t("bots.copied");
});

// the account script decides whether the signed-in part shows: list once it has
new MutationObserver(() => list().catch(failed)).observe($("signed-in"), { attributes: true, attributeFilter: ["hidden"] });
list().catch(failed);
