// The game's sizes, seats and board drawing, read from the metadata the page embeds (the
// server's Game.metadata()): the front end hard-codes none of them.
import { META } from "./i18n.js";

export const SEATS = META.seats;
export const other = (seat) => SEATS.find((s) => s !== seat);
export const TRACK_REACH = META.track_reach;  // the track runs from -reach to +reach
export const TRACK_CELLS = 2 * TRACK_REACH + 1;
export const MOMENTUM_SPACES = META.momentum_spaces;
export const EDITOR_MOMENTUM = new Set(META.editor_momentum_spaces.map(String));
export const POINTS = META.layout.points;
const drawn = new Set([...META.spaces.map((s) => s.id), ...META.informants.map((i) => i.space)]);
// The board's centre (Nixon's picture): the one drawn point that is neither a space nor an informant.
export const CENTRE = Object.keys(POINTS).find((id) => !drawn.has(id));
