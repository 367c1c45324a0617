"""The arena (issue 46): a live tournament of a fixed length in which whoever is free is paired
at once with a free player close in score, and every game scores by itself.

Scoring, as lichess's arenas score (players know it from there): a win 2, a draw 1, a loss 0.
After two wins in a row a player is "on fire" (the flame): each further game scores double until
one is not won (the game that ends a streak still scores double: a draw on fire is 2). A
berserk player (their own clock halved before their first move) who wins gets 1 point more,
not doubled.

Pairing takes the free players in standing order (score, then rating, then id, so it is
deterministic) and gives each the nearest free player below who is neither their previous
opponent nor kept apart from them (a block either way). A player with no such partner waits
for the next round of pairing rather than meet the same opponent twice in a row. The seat
goes to whoever has had the first seat less often; on a tie, to whoever had the second seat
last; then to the higher placed one."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

Outcome = Literal["win", "draw", "loss"]
WIN_POINTS, DRAW_POINTS = 2, 1
FIRE_AFTER = 2  # wins in a row that light the flame
BERSERK_BONUS = 1


@dataclass(frozen=True, slots=True)
class Scored:
    """What one finished game gives a player: its points and their streak after it."""

    points: int
    streak: int  # wins in a row, this game's included

    @property
    def on_fire(self) -> bool:
        return self.streak >= FIRE_AFTER


def score_game(streak: int, outcome: Outcome, berserk: bool) -> Scored:
    """The points of a game for a player who came to it with `streak` wins in a row."""
    base = {"win": WIN_POINTS, "draw": DRAW_POINTS, "loss": 0}[outcome]
    if streak >= FIRE_AFTER:
        base *= 2
    if berserk and outcome == "win":
        base += BERSERK_BONUS
    return Scored(base, streak + 1 if outcome == "win" else 0)


@dataclass(frozen=True, slots=True)
class Free:
    """A player waiting for a game: their standing and what pairing must respect."""

    player_id: str
    score: int
    rating: float
    last_opponent: str | None = None
    first_seats: int = 0  # games played in the first seat (Watergate's Editor, Nations' p1)
    second_seats: int = 0
    last_seat: int | None = None  # 0 first, 1 second, None before their first game


@dataclass(frozen=True, slots=True)
class Pairing:
    first: str  # takes the first seat
    second: str


def standing_key(player: Free) -> tuple[float, float, str]:
    return (-player.score, -player.rating, player.player_id)


def pair(free: Sequence[Free], apart: Collection[frozenset[str]] = ()) -> list[Pairing]:
    """Pairings of the free players (each at most once); those left over wait."""
    order = sorted(free, key=standing_key)
    taken: set[str] = set()
    pairings: list[Pairing] = []
    for i, one in enumerate(order):
        if one.player_id in taken:
            continue
        for other in order[i + 1 :]:
            if other.player_id in taken or not _may_meet(one, other, apart):
                continue
            taken.update((one.player_id, other.player_id))
            pairings.append(_seated(one, other))
            break
    return pairings


def _may_meet(one: Free, other: Free, apart: Collection[frozenset[str]]) -> bool:
    if one.last_opponent == other.player_id or other.last_opponent == one.player_id:
        return False
    return frozenset((one.player_id, other.player_id)) not in apart


def _seated(higher: Free, lower: Free) -> Pairing:
    """Who takes the first seat: the one who has had it less often, then the one who had the
    second seat last, then the higher placed."""

    def owed(p: Free) -> tuple[int, int]:
        return (p.first_seats - p.second_seats, 0 if p.last_seat == 1 else 1)

    if owed(lower) < owed(higher):
        return Pairing(lower.player_id, higher.player_id)
    return Pairing(higher.player_id, lower.player_id)
