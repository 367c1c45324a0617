// The game's sizes, seats and board drawing, read from the metadata the page embeds (the
// server's Game.metadata()): the front end hard-codes none of them.
import { META } from "./i18n.js";

export const SEATS = META.seats;
export const other = (seat) => SEATS.find((s) => s !== seat);
export const TRACK_REACH = META.track_reach;  // the track runs from -reach to +reach
export const TRACK_CELLS = 2 * TRACK_REACH + 1;
export const MOMENTUM_SIZES = META.momentum_sizes;
export const EDITOR_MOMENTUM = new Set(META.editor_momentum_spaces.map(String));
export const POINTS = META.layout.points;
export const CENTRE = META.center;  // the board's centre (Nixon's picture)
export const TRACK_SIDES = META.track_sides;  // seat -> +1 or -1: which end of the track is theirs
