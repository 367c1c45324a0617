// Invite landing: a browser that knows its player claims the seat at once; a new one is asked
// for a name first. The seat token is kept, then the table opens.
import { api } from "./api.js";
import { BOOT, t } from "./i18n.js";
import { loadPlayer, nameProblem, suggestion, withPlayer } from "./player.js";
import { problem } from "./people.js";
import { saveSeat } from "./seats.js";

const $ = (id) => document.getElementById(id);
const status = $("invite-status");
const error = $("invite-error");
const form = $("join-form");
const nameInput = $("player-name");
const claimedKey = `wg.invite.${BOOT.code}`;

function failed(err) {
  const used = err.status === 409;
  status.textContent = err.code === "own_invite" ? t("player.own_invite_title") : used ? t("ui.invite_used_title") : t("ui.error");
  error.textContent = err.code === "own_invite" ? t("player.own_invite") : used ? t("ui.invite_used") : err.status === 404 ? t("ui.invite_unknown") : problem(err);
  error.hidden = false;
  form.hidden = true;
  $("invite-home").hidden = false;
}

async function claim(name) {
  const path = `/api/invites/${encodeURIComponent(BOOT.code)}/claim`;
  const seat = await withPlayer(name, (headers) => api(path, { method: "POST", headers }));
  saveSeat(seat.match_id, seat.role, seat.seat_token, null);
  localStorage.setItem(claimedKey, seat.match_id);
  window.location.replace(`/match/${seat.match_id}`);
}

function askName() {
  status.textContent = BOOT.invite_game === "nations" ? t("nations.invited_title") : t("player.invited_title");
  nameInput.value = suggestion();
  form.hidden = false;
  nameInput.focus();
  nameInput.select();  // typing replaces the suggestion
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    $("join").disabled = true;
    try {
      await claim(nameInput.value);
    } catch (err) {
      $("join").disabled = false;
      if (err.code !== "invalid_name") return failed(err);
      $("name-error").textContent = nameProblem(err);
      $("name-error").hidden = false;
    }
  });
}

const known = localStorage.getItem(claimedKey);
const player = loadPlayer();
if (known) window.location.replace(`/match/${known}`);  // claimed here already: back to the seat
else if (!player) askName();
else claim(player.name).catch(failed);
