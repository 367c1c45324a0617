"""Nations table rounds, pure: each round seats the players at tables of a chosen size (3 to 5)
by their standing, and each game's places earn tournament points.

Table sizes (`table_sizes`): the fewest tables of at most the chosen size, as even as possible,
so every table has the chosen size or one seat fewer whenever the field allows it (10 players at
4: 4+3+3), and otherwise fewer still (11 at 5: 4+4+3), never fewer than 3 seats. Size 3 cannot
shrink, so there the spare players make some tables one seat larger instead (10 at 3: 4+3+3).
A field with no such split (fewer than 3 players, 5 at 3 or at 4) is refused with `Unseatable`.

Seating (`seat_round`): players in standing order fill the tables from the top, the larger
tables first, so the leaders meet. A table is amiss when its exact group of players already met
in an earlier round, or when two of its players are kept apart (a block either way, as the
Swiss and the arena keep them). An amiss table swaps one player with one of another table, the
nearest table first (the next, then the previous, then further away) and, within those, the
players nearest in the standing first, when that leaves neither table amiss. If some table is
still amiss, a search (bounded: `_NODE_BUDGET`) looks for a seating with no table amiss, taking
the top tables as close to the standing as it can (their players in standing order, the first
seating found wins). As the Swiss does, the blocks give way first: when no seating keeps both
the blocked pairs apart and the groups new, one that keeps the groups new is sought; when none
does either, the swaps' best is kept. Within a table the seat order (p1 first) goes to whoever
sat latest before: each past seat counts its position from 0 (first) to 1 (last), summed over
the rounds, and the largest sum sits first; ties by standing order.

Points per place (`place_points`): the winner gets the table size, the others size-2, size-3,
... down to 0: 3/1/0 at three, 4/2/1/0 at four, 5/3/2/1/0 at five. Players tied on a place
share the points of the places they cover equally (two tied first at four: (4+2)/2 = 3 each),
which can be a fraction: points are `Fraction`s, exact, so ties compare exactly.

Standings (`standings`): points, then total victory points (VP), then rating, then id."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import groupby
from typing import Final

MIN_SIZE: Final = 3
MAX_SIZE: Final = 5
# players tried by the search before it gives up (exhausts every seating of 10 players; 500
# players with a few blocks need a few thousand)
_NODE_BUDGET: Final = 50_000

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
    contenders: Sequence[Contender], size: int, history: Sequence[TableRound],
    apart: Collection[frozenset[str]] = (),
) -> TableRound:  # fmt: skip
    """The next round's tables for these players, given every round seated before; `apart`:
    pairs of players kept apart (a block either way), never at one table when avoidable."""
    if len({c.id for c in contenders}) != len(contenders):
        raise ValueError("duplicate player ids")
    ranked = [c.id for c in standings(contenders)]
    sizes = table_sizes(len(ranked), size)
    met = {frozenset(table) for past in history for table in past}
    present = set(ranked)
    kept = {pair for pair in apart if len(pair) == 2 and pair <= present}
    tables: list[list[str]] = []
    for avoid in (kept, set()) if kept else (set(),):
        rules = _Rules(met, avoid)
        tables = _by_standing(ranked, sizes)
        _repair(tables, rules)
        if not any(rules.amiss(t) for t in tables):
            break
        found = _search(ranked, sizes, rules)
        if found is not None:
            tables = found
            break
    lateness = _lateness(history)
    standing = {pid: n for n, pid in enumerate(ranked)}
    return tuple(
        tuple(sorted(table, key=lambda p: (-lateness.get(p, Fraction(0)), standing[p])))
        for table in tables
    )


def _by_standing(ranked: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    tables, start = [], 0
    for seats in sizes:
        tables.append(list(ranked[start : start + seats]))
        start += seats
    return tables


class _Rules:
    """What makes a table amiss: a group that met before, or two players kept apart."""

    def __init__(self, met: set[frozenset[str]], apart: set[frozenset[str]]) -> None:
        self.met = met
        self.apart: dict[str, set[str]] = {}
        for pair in apart:
            a, b = tuple(pair)
            self.apart.setdefault(a, set()).add(b)
            self.apart.setdefault(b, set()).add(a)

    def may_join(self, player: str, table: Sequence[str]) -> bool:
        kept = self.apart.get(player)
        return not kept or kept.isdisjoint(table)

    def amiss(self, table: Sequence[str]) -> bool:
        if frozenset(table) in self.met:
            return True
        return any(not self.may_join(p, table[i + 1 :]) for i, p in enumerate(table))


def _repair(tables: list[list[str]], rules: _Rules) -> None:
    """Swap players out of each amiss table, nearest table and rank first, while a swap leaves
    neither table amiss."""
    for i in range(len(tables)):
        if not rules.amiss(tables[i]):
            continue
        # the next table, the previous, then further away: below before above at each distance
        others = sorted(
            (j for j in range(len(tables)) if j != i), key=lambda j: (abs(j - i), j < i)
        )
        for j in others:
            if _swap(tables, i, j, rules):
                break


def _swap(tables: list[list[str]], i: int, j: int, rules: _Rules) -> bool:
    """Swap one player of table i with one of table j, nearest in rank first, so that neither
    is amiss; leave both as they are (false) if no swap does."""
    mine, theirs = tables[i], tables[j]
    # the players of i nearest to j's in the standing come first: i's last when j is below
    own = list(reversed(range(len(mine)))) if j > i else list(range(len(mine)))
    other = list(range(len(theirs))) if j > i else list(reversed(range(len(theirs))))
    for a in own:
        for b in other:
            new_mine = [*mine[:a], theirs[b], *mine[a + 1 :]]
            new_theirs = [*theirs[:b], mine[a], *theirs[b + 1 :]]
            if not rules.amiss(new_mine) and not rules.amiss(new_theirs):
                tables[i], tables[j] = new_mine, new_theirs
                return True
    return False


class _Exhausted(Exception):
    """The search tried `_NODE_BUDGET` players without an answer."""


def _search(ranked: Sequence[str], sizes: Sequence[int], rules: _Rules) -> list[list[str]] | None:
    """A seating with no table amiss, the top tables' players as high in the standing as can
    be (depth first, each table's players in standing order); none if there is none or the
    budget runs out first."""
    budget = [_NODE_BUDGET]

    def tables_of(pool: list[str], seats: int) -> Iterator[list[str]]:
        def grow(chosen: list[str], start: int) -> Iterator[list[str]]:
            if len(chosen) == seats:
                if frozenset(chosen) not in rules.met:
                    yield chosen
                return
            for k in range(start, len(pool) - (seats - len(chosen)) + 1):
                budget[0] -= 1
                if budget[0] < 0:
                    raise _Exhausted
                if rules.may_join(pool[k], chosen):
                    yield from grow([*chosen, pool[k]], k + 1)

        return grow([], 0)

    def seat(pool: list[str], table: int) -> list[list[str]] | None:
        if table == len(sizes):
            return []
        for chosen in tables_of(pool, sizes[table]):
            taken = set(chosen)
            rest = seat([p for p in pool if p not in taken], table + 1)
            if rest is not None:
                return [chosen, *rest]
        return None

    try:
        return seat(list(ranked), 0)
    except _Exhausted:
        return None


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
