// Starting a tutorial: a match of its own against the computer, from the lesson's deal (at its
// beginning, or at the step that teaches `at`), then the table.
import { api } from "./api.js";
import { withPlayer } from "./player.js";
import { saveSeat } from "./seats.js";

/** `lesson` is "game/lesson" (e.g. "watergate/editor"); `name` the player's name. */
export async function startLesson(lesson, name, at = null) {
  const body = at ? { at } : undefined;
  const made = await withPlayer(name, (headers) => api(`/api/lessons/${lesson}/start`, { method: "POST", headers, body }));
  saveSeat(made.match_id, made.role, made.seat_token, null);
  window.location.assign(`/match/${made.match_id}`);
}
