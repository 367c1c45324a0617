// The account page's notification choices (issue 43): per kind, "bell only" or "bell + Web
// Push" (Web Push reaches the browsers where turn notices were turned on, in the lobby).
import { api } from "./api.js";
import { t } from "./i18n.js";
import { asPlayer, loadPlayer } from "./player.js";

const KINDS = ["challenge", "challenge_accepted", "challenge_declined", "challenge_canceled", "your_turn", "rematch", "tournament_start", "tournament_paired", "report_outcome", "moderation", "sanction"];
const section = document.getElementById("bell-settings");
const list = document.getElementById("bell-kinds");
const state = document.getElementById("bell-saved");
const me = loadPlayer();

function choice(kind, value, checked) {
  const label = document.createElement("label");
  const input = Object.assign(document.createElement("input"), { type: "radio", name: `bell-${kind}`, value, checked });
  label.append(input, t(`bell.settings.${value}`));
  return label;
}

async function save() {
  const push = KINDS.filter((kind) => list.querySelector(`input[name="bell-${kind}"][value="bell_push"]`).checked);
  state.textContent = "";
  try {
    await api("/api/notifications/push", { method: "PUT", body: { push }, headers: asPlayer(me) });
    state.textContent = t("bell.settings.saved");
  } catch (err) {
    state.textContent = err.message;
  }
}

async function show() {
  const { push } = await api("/api/notifications/push", { headers: asPlayer(me) });
  list.replaceChildren(...KINDS.map((kind) => {
    const row = document.createElement("div");
    row.className = "bell-kind";
    row.setAttribute("role", "radiogroup");
    const name = Object.assign(document.createElement("span"), { id: `bell-kind-${kind}`, textContent: t(`bell.settings.kinds.${kind}`) });
    row.setAttribute("aria-labelledby", name.id);
    row.append(name, choice(kind, "bell_only", !push.includes(kind)), choice(kind, "bell_push", push.includes(kind)));
    return row;
  }));
  list.addEventListener("change", save);
  section.hidden = false;
}

if (section && me) show().catch(() => {});
