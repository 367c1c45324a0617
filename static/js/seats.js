// Seat tokens live in this browser (localStorage), so reloads and new tabs keep the seat.
const key = (matchId) => `wg.seat.${matchId}`;

/** `invites`: {seat: invite_url} of every open seat of a table of several (contract v1.2). */
export function saveSeat(matchId, role, token, inviteUrl, invites) {
  localStorage.setItem(key(matchId), JSON.stringify({ role, token, inviteUrl: inviteUrl || null, invites: invites || null }));
}

export function loadSeat(matchId) {
  try {
    return JSON.parse(localStorage.getItem(key(matchId)) || "null");
  } catch {
    return null;
  }
}
