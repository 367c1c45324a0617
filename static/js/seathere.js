// A table opened in a browser that holds no seat in it lands here. A signed-in player's seats
// are theirs on every device (contract v1.2): ask for this device's token of the seat, keep it,
// and open the table again. Anyone else is told plainly, at the top of the page, what they may do
// (issue 42): watch a public match as a spectator, or that the match is private.
import { api } from "./api.js";
import { BOOT, t } from "./i18n.js";
import { asPlayer, loadPlayer } from "./player.js";
import { loadSeat, saveSeat } from "./seats.js";

const $ = (id) => document.getElementById(id);

function tell(kind, watchPath, signedIn) {
  $("here-status").textContent = t(`ui.here_${kind}_title`);
  $("here-text").textContent = t(`ui.here_${kind}`);
  $("here-text").hidden = false;
  if (watchPath) { $("here-watch").href = watchPath; $("here-watch").hidden = false; }
  $("here-sign-in").hidden = kind !== "private" || signedIn;
  $("here-actions").hidden = false;
}

async function seatHere(matchId) {
  const id = encodeURIComponent(matchId);
  const player = loadPlayer();
  if (player) {
    try {
      const got = await api(`/api/matches/${id}/seat`, { method: "POST", headers: asPlayer(player) });
      saveSeat(matchId, got.role, got.seat_token, null);
      // go back only once it is kept: a browser that cannot store it would come here forever
      if (loadSeat(matchId)?.token === got.seat_token) { window.location.replace(`/match/${id}`); return; }
    } catch { /* not this player's seat: told below */ }
  }
  try {
    const access = await api(`/api/matches/${id}/access`);
    tell(access.watch_path ? "public" : "private", access.watch_path, Boolean(player));
  } catch {
    tell("missing", null, true);
  }
}

seatHere(BOOT.match_id);
