// How lists of matches (my games, a profile) head each line.
import { BOOT, L, roleCap } from "./i18n.js";
/** A match as lists of matches name it (issue 42): its game, the seat played ("Nation 1", not
 * "p1") and the day it last moved or ended, in the reader's language. */
export function matchHead(game, role, at) {
  const day = at ? new Date(at).toLocaleDateString(BOOT.lang, { day: "numeric", month: "short", year: "numeric" }) : null;
  const seat = L.games?.[game] && game !== "watergate" && L[game]?.seats?.[role] ? L[game].seats[role] : roleCap(role);
  return [L.games?.[game] ?? game, seat, day].filter(Boolean).join(" · ");
}
