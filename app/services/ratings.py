"""Rating a match as it ends (Glicko-2, one rating period per match), inside the transaction
that ends it, whichever use case that is: a winning move, a resignation, a clock running out.
Only a rated match between two accounts that has a winner rates; the computer never plays one."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Final

from ..errors import ApiError
from ..glicko2 import Game, Rating, updated
from ..persistence import ratings as store
from ..persistence.records import Ending, PlayerRow
from ..persistence.sql import Sql

# A deviation above this (on the shown scale) marks a rating provisional: about where lichess
# puts it, reached after some five to ten games against settled opponents.
PROVISIONAL_RD: Final = 110.0


def is_rated(options: Mapping[str, Any]) -> bool:
    return options.get("rated") is True


def account_required() -> ApiError:
    return ApiError(403, "account_required", "A rated match needs an account: sign in first.")


def check_may_sit(options: Mapping[str, Any], player: PlayerRow | None) -> None:
    """A seat of a rated match is for a signed-in account only (403 account_required)."""
    if is_rated(options) and (player is None or not player.has_account):
        raise account_required()


def provisional(rd: float) -> bool:
    return rd > PROVISIONAL_RD


def rate_ending(
    sql: Sql,
    match_id: str,
    game: str,
    options: Mapping[str, Any],
    ending: Ending,
    when: datetime,
) -> None:
    """Move both accounts' ratings in the match's game and write their history rows; nothing
    for an unrated match, one without a winner, or one a seat of which is no longer an account
    (deleted since)."""
    if not is_rated(options) or ending.status != "finished" or ending.winner is None:
        return
    seated = store.account_seats(sql, match_id)
    if len(seated) != 2:
        return
    before: dict[str, store.RatingRow] = {}
    for seat, player_id in sorted(seated, key=lambda s: s[1]):  # one lock order: no deadlock
        row = store.locked_rating(sql, player_id, game)
        if row is None:
            start = Rating()
            row = store.RatingRow(player_id, game, start.rating, start.rd, start.volatility, 0)
            store.add_rating(sql, row, when)
        before[seat] = row
    for seat, player_id in seated:
        mine = before[seat]
        theirs = next(r for s, r in before.items() if s != seat)
        score = 1.0 if ending.winner == seat else 0.0
        new = updated(
            Rating(mine.rating, mine.rd, mine.volatility),
            [Game(Rating(theirs.rating, theirs.rd, theirs.volatility), score)],
        )
        store.set_rating(sql, player_id, game, (new.rating, new.rd, new.volatility), when)
        store.add_history(sql, player_id, game, match_id, new.rating, new.rd, when)
