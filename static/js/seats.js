// Seat tokens live in this browser (localStorage), so reloads and new tabs keep the seat.
const key = (matchId) => `wg.seat.${matchId}`;

export function saveSeat(matchId, role, token, inviteUrl) {
  localStorage.setItem(key(matchId), JSON.stringify({ role, token, inviteUrl: inviteUrl || null }));
}

export function loadSeat(matchId) {
  try {
    return JSON.parse(localStorage.getItem(key(matchId)) || "null");
  } catch {
    return null;
  }
}
