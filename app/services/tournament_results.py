"""A tournament game's result, scored in the transaction that ends its match (issue 46), as
ratings are: whichever change ends it (the last move, a resignation, a clock, an abort), the
players' points, streaks and seat counts move with it and are never out of step with the game.

A game that ends with nobody ranked (aborted, abandoned) does not count: no points, no game,
the streak kept; its players are free again."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from engine.registry import get_game

from ..persistence import tournament_games as store
from ..persistence.records import Ending
from ..persistence.sql import Sql
from ..tournaments.arena import Outcome, score_game
from .ratings import places_of


def outcomes(ending: Ending, seats: list[str]) -> dict[str, Outcome] | None:
    """Each seat's outcome in a duel (none: nobody ranked, the game does not count)."""
    if ending.status != "finished":
        return None
    place = places_of(ending, seats)
    if len(place) != len(seats):
        return None
    best = min(place.values())
    level = list(place.values()).count(best) > 1
    return {s: ("draw" if level else "win") if place[s] == best else "loss" for s in seats}


def record_ending(
    sql: Sql, match_id: str, game: str, options: Mapping[str, Any], ending: Ending, when: datetime
) -> str | None:
    """Score the match's game if it is an unscored tournament game; its tournament's id."""
    if "tournament" not in options:
        return None
    found = store.open_game(sql, match_id)
    if found is None:
        return None
    game_id, tid, played = found
    order = list(get_game(game).seats)
    by_seat = {p.seat: p for p in played}
    results = outcomes(ending, list(by_seat))
    lines = []
    for p in played:
        others = [o.player_id for o in played if o.player_id != p.player_id]
        index = order.index(p.seat) if p.seat in order else 0
        if results is None:
            lines.append(store.Scoring(p.player_id, None, 0, p.streak, index, None))
            continue
        scored = score_game(p.streak, results[p.seat], p.berserk)
        opponent = others[0] if len(others) == 1 else None
        lines.append(
            store.Scoring(
                p.player_id, results[p.seat], scored.points, scored.streak, index, opponent
            )
        )
    store.score(sql, game_id, tid, lines, when)
    return tid
