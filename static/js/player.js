// The player this browser is: its id, name and secret token, kept in localStorage (like seat
// tokens), sent only as the X-Player-Token header of the calls that take a seat or rename it.
import { api } from "./api.js";
import { t } from "./i18n.js";

const KEY = "wg.player";

export function loadPlayer() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "null");
    return kept && kept.token && kept.id ? kept : null;
  } catch {
    return null;
  }
}

/** Remember the player this browser now is (after creating it, or signing in to an account). */
export function keep(made) {
  const player = { id: made.player_id, name: made.name, token: made.player_token };
  localStorage.setItem(KEY, JSON.stringify(player));
  return player;
}

/** Forget this browser's player (signed out, or deleted): the next visit starts afresh. */
export function forgetPlayer() {
  localStorage.removeItem(KEY);
}

export const asPlayer = (player) => (player ? { "X-Player-Token": player.token } : {});

/** A name to offer on first visit, so that one click still starts a match. */
export const suggestion = () => t("player.suggestion", { n: 100 + Math.floor(Math.random() * 900) });

/** What to tell the person when the server refused a name (or anything else). */
export function nameProblem(err) {
  const known = err.code === "invalid_name" && t(`player.invalid.${err.reason}`);
  return known && known !== `player.invalid.${err.reason}` ? known : err.message;
}

/** This browser's player, named `name`: made on first use, renamed when the name changed, and
 * made again when the server no longer knows its token. Throws the server's refusal. */
export async function namedPlayer(name) {
  const player = loadPlayer();
  if (player && player.name === name.trim()) return player;
  if (player) {
    try {
      const renamed = await api("/api/players/me", { method: "PATCH", body: { name }, headers: asPlayer(player) });
      return keep({ player_id: renamed.player_id, name: renamed.name, player_token: player.token });
    } catch (err) {
      if (err.code !== "unknown_player") throw err;
    }
  }
  return keep(await api("/api/players", { method: "POST", body: { name } }));
}

/** `call(headers)` as the player named `name`; once more with a new player if the token was
 * not known (a server that lost its players). */
export async function withPlayer(name, call) {
  try {
    return await call(asPlayer(await namedPlayer(name)));
  } catch (err) {
    if (err.code !== "unknown_player") throw err;
    localStorage.removeItem(KEY);
    return call(asPlayer(await namedPlayer(name)));
  }
}
