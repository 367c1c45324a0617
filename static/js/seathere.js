// A table opened in a browser that holds no seat in it lands here. A signed-in player's seats
// are theirs on every device (contract v1.2): ask for this device's token of the seat, keep it,
// and open the table again. Anyone else (a guest's other browser, a stranger) is told, as before.
import { api } from "./api.js";
import { BOOT, t } from "./i18n.js";
import { asPlayer, loadPlayer } from "./player.js";
import { loadSeat, saveSeat } from "./seats.js";

const $ = (id) => document.getElementById(id);

async function seatHere(matchId) {
  const player = loadPlayer();
  if (player) {
    try {
      const got = await api(`/api/matches/${encodeURIComponent(matchId)}/seat`, { method: "POST", headers: asPlayer(player) });
      saveSeat(matchId, got.role, got.seat_token, null);
      // go back only once it is kept: a browser that cannot store it would come here forever
      if (loadSeat(matchId)?.token === got.seat_token) { window.location.replace(`/match/${encodeURIComponent(matchId)}`); return; }
    } catch { /* not this player's seat: told below */ }
  }
  $("here-status").textContent = t("ui.not_found_title");
  $("here-error").hidden = false;
  $("here-home").hidden = false;
}

seatHere(BOOT.match_id);
