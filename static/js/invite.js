// Invite landing: claim the seat once, keep the token, go to the table.
import { api } from "./api.js";
import { BOOT, t } from "./i18n.js";
import { saveSeat } from "./seats.js";

const status = document.getElementById("invite-status");
const error = document.getElementById("invite-error");
const claimedKey = `wg.invite.${BOOT.code}`;

async function claim() {
  const known = localStorage.getItem(claimedKey);
  if (known) {  // this browser already claimed it: a reload lands in the seat again
    window.location.replace(`/match/${known}`);
    return;
  }
  try {
    const seat = await api(`/api/invites/${encodeURIComponent(BOOT.code)}/claim`, { method: "POST" });
    saveSeat(seat.match_id, seat.role, seat.seat_token, null);
    localStorage.setItem(claimedKey, seat.match_id);
    window.location.replace(`/match/${seat.match_id}`);
  } catch (err) {
    status.textContent = err.status === 409 ? t("ui.invite_used_title") : t("ui.error");
    error.textContent = err.status === 409 ? t("ui.invite_used") : err.status === 404 ? t("ui.invite_unknown") : err.message;
    error.hidden = false;
    document.getElementById("invite-home").hidden = false;
  }
}
claim();
