"""A tournament game's result, scored in the transaction that ends its match (issue 46), as
ratings are: whichever change ends it (the last move, a resignation, a clock, an abort), the
players' points, streaks and seat counts move with it and are never out of step with the game.

Each format scores in its own units, kept as whole numbers: an arena its points (2 a win, 1 a
draw, doubled on fire, +1 for a berserk win); a Swiss half points (2 a win, 1 a draw); a table
round sixtieths of its place points (4/2/1/0 at four; tied places share theirs, and every
share of up to five players is a whole number of sixtieths). A game that ends with nobody
ranked (aborted, abandoned) does not count: no points, no game, the streak kept; its players
are free again. In a round format, losing by letting the clock run out or abandoning the table
withdraws the player from the rounds to come (lichess withdraws a Swiss player who misses a
game). At a Nations table the leaver's game goes on without them (the computer plays their seat
out, and the ending ranks them last): they are withdrawn as they leave, in the transaction that
hands their seat over (`record_leaver`), not when the game ends."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Final

from engine.registry import get_game

from ..persistence import tournament_games as store
from ..persistence.records import Ending
from ..persistence.sql import Sql
from ..tournaments.arena import Outcome, score_game
from ..tournaments.tables import Finish, score_table
from .ratings import places_of

# stored units per point shown, by format
UNITS: Final = {"arena": 1, "swiss": 2, "tables": 60}
MISSED: Final = ("timeout", "abandoned")


def outcomes(ending: Ending, seats: list[str]) -> tuple[dict[str, Outcome], dict[str, int]] | None:
    """Each seat's outcome (won: alone in first place; drawn: sharing it) and place (0 best);
    none when nobody is ranked (the game does not count)."""
    if ending.status != "finished":
        return None
    place = places_of(ending, seats)
    if not seats or any(s not in place for s in seats):
        return None
    best = min(place.values())
    level = list(place.values()).count(best) > 1
    said = {s: ("draw" if level else "win") if place[s] == best else "loss" for s in seats}
    return said, place  # type: ignore[return-value]


def _points(kind: str, played: store.Played, outcome: Outcome, shares: Mapping[str, Any]) -> int:
    if kind == "tables":
        return int(shares[played.player_id] * UNITS["tables"])
    if kind == "swiss":
        return {"win": 2, "draw": 1, "loss": 0}[outcome]
    return score_game(played.streak, outcome, played.berserk).points


def record_leaver(
    sql: Sql, match_id: str, options: Mapping[str, Any], seat: str, reason: str
) -> None:
    """A person left the match's table, which goes on: withdraw them from a round format's
    rounds to come when they let the clock run out or abandoned it (a resignation is a result,
    not a missed game, as in a duel)."""
    if "tournament" not in options or reason not in MISSED:
        return
    found = store.open_game(sql, match_id)
    if found is None or found.format == "arena":
        return
    for played in found.seats:
        if played.seat == seat:
            store.withdraw(sql, found.tournament_id, played.player_id)


def record_ending(
    sql: Sql, match_id: str, game: str, options: Mapping[str, Any], ending: Ending, when: datetime
) -> str | None:
    """Score the match's game if it is an unscored tournament game; its tournament's id."""
    if "tournament" not in options:
        return None
    found = store.open_game(sql, match_id)
    if found is None:
        return None
    order = list(get_game(game).seats)
    played = found.seats
    results = outcomes(ending, [p.seat for p in played])
    shares: dict[str, Any] = {}
    if results is not None and found.format == "tables":
        _, place = results
        shares = score_table([Finish(p.player_id, place[p.seat] + 1, 0) for p in played])
    lines = []
    for p in played:
        index = order.index(p.seat) if p.seat in order else 0
        if results is None:
            lines.append(store.Scoring(p.player_id, None, 0, p.streak, index, None))
            continue
        outcome = results[0][p.seat]
        others = [o.player_id for o in played if o.player_id != p.player_id]
        streak = score_game(p.streak, outcome, False).streak if found.format == "arena" else 0
        missed = (
            found.format != "arena"
            and outcome == "loss"
            and ending.ended_by == p.seat
            and ending.win_reason in MISSED
        )
        lines.append(
            store.Scoring(
                p.player_id, outcome, _points(found.format, p, outcome, shares), streak, index,
                others[0] if len(others) == 1 else None, missed,
                dict(ending.points).get(p.seat, 0),
            )
        )  # fmt: skip
    store.score(sql, found.game_id, found.tournament_id, lines, when)
    return found.tournament_id
