"""Rating a match as it ends (Glicko-2, one rating period per match), inside the transaction
that ends it, whichever use case that is: a winning move, a resignation, a clock running out.
Only a rated match between accounts that has a ranking rates; the computer never plays one.

A table of N is rated as Board Game Arena rates it: each player's rating period holds one game
against every other player of the table, won against those ranked below, drawn with those in
the same place, lost against those above (docs/ratings.md). A duel is the ranking of two, so it
rates exactly as before."""

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


def places_of(ending: Ending, seats: list[str]) -> dict[str, int]:
    """seat -> its place (0 best) from the ending's ranking; without one, the winner above
    every other seat (a duel), and nobody placed when there is no winner."""
    if ending.ranking:
        return {seat: i for i, group in enumerate(ending.ranking) for seat in group}
    if ending.winner is not None:
        return {seat: 0 if seat == ending.winner else 1 for seat in seats}
    return {}


def pair_score(place: Mapping[str, int], seat: str, other: str) -> float:
    """`seat`'s result against `other`: 1 above it, ½ level with it, 0 below it."""
    if place[seat] == place[other]:
        return 0.5
    return 1.0 if place[seat] < place[other] else 0.0


def rate_ending(
    sql: Sql,
    match_id: str,
    game: str,
    options: Mapping[str, Any],
    ending: Ending,
    when: datetime,
) -> None:
    """Move every account's rating in the match's game from the ranking and write their history
    rows; nothing for an unrated match, one without a ranking, or one a seat of which is no
    longer an account (deleted since)."""
    if not is_rated(options) or ending.status != "finished":
        return
    seated = store.account_seats(sql, match_id)
    place = places_of(ending, [seat for seat, _ in seated])
    if len(place) < 2 or len(seated) != len(place) or any(s not in place for s, _ in seated):
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
        games = [
            Game(Rating(theirs.rating, theirs.rd, theirs.volatility), pair_score(place, seat, s))
            for s, theirs in before.items()
            if s != seat
        ]  # every other seat, as the table read them before this match
        new = updated(Rating(mine.rating, mine.rd, mine.volatility), games)
        store.set_rating(sql, player_id, game, (new.rating, new.rd, new.volatility), when)
        store.add_history(sql, player_id, game, match_id, new.rating, new.rd, when)
