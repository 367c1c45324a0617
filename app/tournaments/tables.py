"""Nations table rounds, pure: each round seats the players at tables of a chosen size (3 to 5)
by their standing, and each game's places earn tournament points.

Table sizes (`table_sizes`): the fewest tables of at most the chosen size, as even as possible,
so every table has the chosen size or one seat fewer whenever the field allows it (10 players at
4: 4+3+3), and otherwise fewer still (11 at 5: 4+4+3), never fewer than 3 seats. Size 3 cannot
shrink, so there the spare players make some tables one seat larger instead (10 at 3: 4+3+3).
A field with no such split (fewer than 3 players, 5 at 3 or at 4) is refused with `Unseatable`.

Seating (`seat_round`): players in standing order fill the tables from the top, the larger
tables first, so the leaders meet. A table whose exact group of players already met in an
earlier round swaps its lowest player with the nearest-ranked player of the next table (the
previous one, for the last table) when that leaves neither table a repeat. Within a table the
seat order (p1 first) goes to whoever sat latest before: each past seat counts its position
from 0 (first) to 1 (last), summed over the rounds, and the largest sum sits first; ties by
standing order.

Points per place (`place_points`): the winner gets the table size, the others size-2, size-3,
... down to 0: 3/1/0 at three, 4/2/1/0 at four, 5/3/2/1/0 at five. Players tied on a place
share the points of the places they cover equally (two tied first at four: (4+2)/2 = 3 each),
which can be a fraction: points are `Fraction`s, exact, so ties compare exactly.

Standings (`standings`): points, then total victory points (VP), then rating, then id."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import groupby
from typing import Final

MIN_SIZE: Final = 3
MAX_SIZE: Final = 5

# A seated round: its tables, each the players' ids in seat order (p1 first).
TableRound = tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class Contender:
    """A player still in the tournament (the caller leaves withdrawn players out)."""

    id: str
    rating: float
    points: Fraction
    vp: int  # victory points over all the tournament's games


@dataclass(frozen=True, slots=True)
class Finish:
    """One player's end of a table game: `place` 1 the winner; tied players share a place
    number (1, 1, 3, 4 or 1, 1, 2, 3 alike), `vp` the game's victory points."""

    id: str
    place: int
    vp: int


class Unseatable(ValueError):
    """The field cannot be seated at tables of that size; the service answers a 4xx."""

    code: Final = "tables_unseatable"


def table_sizes(players: int, size: int) -> list[int]:
    """The tables' sizes for a field of `players` at tables of `size`, largest first."""
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise Unseatable(f"tables seat {MIN_SIZE} to {MAX_SIZE} players, not {size}")
    if players < MIN_SIZE:
        raise Unseatable(f"a table round needs at least {MIN_SIZE} players")
    if size == MIN_SIZE:  # cannot shrink: the spare players widen some tables to 4
        tables, wider = divmod(players, size)
        if wider > tables:
            raise Unseatable(f"{players} players cannot sit at tables of {size} or {size + 1}")
        return [size + 1] * wider + [size] * (tables - wider)
    tables = -(-players // size)
    seats, wider = divmod(players, tables)
    if seats < MIN_SIZE:
        raise Unseatable(f"{players} players cannot sit at tables of {MIN_SIZE} to {size}")
    return [seats + 1] * wider + [seats] * (tables - wider)


def standings(contenders: Sequence[Contender]) -> list[Contender]:
    """Points, then total VP, then rating, then id."""
    return sorted(contenders, key=lambda c: (-c.points, -c.vp, -c.rating, c.id))


def seat_round(
    contenders: Sequence[Contender], size: int, history: Sequence[TableRound]
) -> TableRound:
    """The next round's tables for these players, given every round seated before."""
    if len({c.id for c in contenders}) != len(contenders):
        raise ValueError("duplicate player ids")
    ranked = [c.id for c in standings(contenders)]
    sizes = table_sizes(len(ranked), size)
    tables: list[list[str]] = []
    start = 0
    for seats in sizes:
        tables.append(ranked[start : start + seats])
        start += seats
    met = {frozenset(table) for past in history for table in past}
    for i in range(len(tables)):
        if frozenset(tables[i]) in met and len(tables) > 1:
            _unrepeat(tables, i, i + 1 if i + 1 < len(tables) else i - 1, met)
    lateness = _lateness(history)
    standing = {pid: n for n, pid in enumerate(ranked)}
    return tuple(
        tuple(sorted(table, key=lambda p: (-lateness.get(p, Fraction(0)), standing[p])))
        for table in tables
    )


def _unrepeat(tables: list[list[str]], i: int, j: int, met: set[frozenset[str]]) -> None:
    """Swap one player of table i with one of its neighbour j, nearest in rank first, so that
    neither is a group that met before; leave both as they are if no swap does."""
    mine, theirs = tables[i], tables[j]
    # the players of i nearest to j's in the standing come first: i's last when j is below
    own = list(reversed(range(len(mine)))) if j > i else list(range(len(mine)))
    other = list(range(len(theirs))) if j > i else list(reversed(range(len(theirs))))
    for a in own:
        for b in other:
            new_mine = [*mine[:a], theirs[b], *mine[a + 1 :]]
            new_theirs = [*theirs[:b], mine[a], *theirs[b + 1 :]]
            if frozenset(new_mine) not in met and frozenset(new_theirs) not in met:
                tables[i], tables[j] = new_mine, new_theirs
                return


def _lateness(history: Sequence[TableRound]) -> dict[str, Fraction]:
    """Each player's past seats, 0 for p1 up to 1 for the last seat, summed."""
    late: dict[str, Fraction] = {}
    for past in history:
        for table in past:
            for seat, pid in enumerate(table):
                late[pid] = late.get(pid, Fraction(0)) + Fraction(seat, max(len(table) - 1, 1))
    return late


def place_points(size: int) -> tuple[int, ...]:
    """The points of places 1..size at a table of `size`: 3/1/0, 4/2/1/0, 5/3/2/1/0."""
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"no table of {size}")
    return (size, *range(size - 2, -1, -1))


def score_table(finishes: Sequence[Finish]) -> dict[str, Fraction]:
    """Each player's tournament points from one table game (ties share their places' points)."""
    scale = place_points(len(finishes))
    points: dict[str, Fraction] = {}
    position = 0
    ordered = sorted(finishes, key=lambda f: f.place)
    for _, tied in groupby(ordered, key=lambda f: f.place):
        group = list(tied)
        share = Fraction(sum(scale[position : position + len(group)]), len(group))
        for finish in group:
            points[finish.id] = share
        position += len(group)
    return points


def after_round(
    contenders: Sequence[Contender], games: Sequence[Sequence[Finish]]
) -> list[Contender]:
    """The contenders with one round's games added: points by place, VP as scored."""
    gained: dict[str, Fraction] = {}
    vp: dict[str, int] = {}
    for game in games:
        gained.update(score_table(game))
        for finish in game:
            vp[finish.id] = finish.vp
    return [
        replace(c, points=c.points + gained.get(c.id, Fraction(0)), vp=c.vp + vp.get(c.id, 0))
        for c in contenders
    ]
