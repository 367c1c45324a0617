"""A Swiss tournament's scores and standings from its finished rounds, pure.

Points as chess counts them: a win 1, a draw 0.5, a loss 0, and the pairing-allocated bye a win
(FIDE C.04.1: the bye is worth what a win is). Order: points, then Buchholz (the sum of the
opponents' points), then Sonneborn-Berger (the opponents' points weighted by the result against
each: all of a beaten opponent's, half of a drawn one's), then rating, then id, so no two players
ever share a place. Both tie-breaks count the games played only: a bye adds nothing to them (as
against a virtual opponent with no points; FIDE's virtual-opponent rule is not applied, which
costs the bye's receiver a little, and the bye goes to the lowest-ranked anyway). A withdrawn
player's points stay as they were when they left, and count so in their opponents' Buchholz.
Every value is a multiple of 1/4, exact in binary floating point, so ties compare exactly."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

WIN: Final = 1.0
DRAW: Final = 0.5
LOSS: Final = 0.0


@dataclass(frozen=True, slots=True)
class Result:
    """A finished game: `first_points` is what the first seat scored (1, 0.5 or 0)."""

    first: str
    second: str
    first_points: float


@dataclass(frozen=True, slots=True)
class Played:
    """A finished round: its games and its bye, if any."""

    results: tuple[Result, ...]
    bye: str | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int  # 1 the leader; no two players share one
    id: str
    rating: float
    points: float
    buchholz: float
    sonneborn_berger: float


def scores(played: Sequence[Played]) -> dict[str, float]:
    """Everyone's points after these rounds (a player with no game and no bye is absent)."""
    points: dict[str, float] = {}
    for done in played:
        for game in done.results:
            if game.first_points not in (WIN, DRAW, LOSS):
                raise ValueError(f"a game scores 1, 0.5 or 0, not {game.first_points}")
            points[game.first] = points.get(game.first, 0.0) + game.first_points
            points[game.second] = points.get(game.second, 0.0) + WIN - game.first_points
        if done.bye is not None:
            points[done.bye] = points.get(done.bye, 0.0) + WIN
    return points


def standings(ratings: Mapping[str, float], played: Sequence[Played]) -> list[Standing]:
    """The players of `ratings` (id -> rating) in standing order after the rounds `played`;
    opponents missing from `ratings` (withdrawn and left out) still count for tie-breaks."""
    points = scores(played)
    buchholz = dict.fromkeys(ratings, 0.0)
    berger = dict.fromkeys(ratings, 0.0)
    for done in played:
        for game in done.results:
            for me, other, mine in (
                (game.first, game.second, game.first_points),
                (game.second, game.first, WIN - game.first_points),
            ):
                if me in ratings:
                    buchholz[me] += points[other]
                    berger[me] += mine * points[other]
    order = sorted(
        ratings,
        key=lambda p: (-points.get(p, 0.0), -buchholz[p], -berger[p], -ratings[p], p),
    )
    return [
        Standing(rank, p, ratings[p], points.get(p, 0.0), buchholz[p], berger[p])
        for rank, p in enumerate(order, start=1)
    ]
