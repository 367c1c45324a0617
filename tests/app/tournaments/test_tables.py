"""Nations table rounds (app/tournaments/tables.py): table sizes, seating by standing without
repeating a table's group, seat order rotation, points per place with shared ties, standings,
a field of 9 at tables of 3 played over 3 rounds with random finishes, and players kept apart
by a block never at one table when some seating avoids it (brute force on small fields)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.tournaments.tables import (
    Contender,
    Finish,
    TableRound,
    Unseatable,
    after_round,
    place_points,
    score_table,
    seat_round,
    standings,
    table_sizes,
)


def _field(n: int) -> list[Contender]:
    return [Contender(f"p{i}", 2000 - 10 * i, Fraction(0), 0) for i in range(1, n + 1)]


def test_table_sizes():
    assert table_sizes(10, 4) == [4, 3, 3]  # one seat smaller where the field does not divide
    assert table_sizes(12, 4) == [4, 4, 4]
    assert table_sizes(9, 3) == [3, 3, 3]
    assert table_sizes(10, 3) == [4, 3, 3]  # a table of 3 cannot shrink: one seat larger
    assert table_sizes(11, 5) == [4, 4, 3]  # two seats short: as even as possible
    assert table_sizes(6, 5) == [3, 3]
    assert table_sizes(13, 5) == [5, 4, 4]
    assert table_sizes(4, 5) == [4]
    assert table_sizes(3, 4) == [3]


@given(st.integers(0, 60), st.integers(3, 5))
def test_table_sizes_seat_everyone_or_refuse_only_when_nothing_fits(players: int, size: int):
    largest = 4 if size == 3 else size  # a table of 3 cannot shrink: it may grow to 4
    try:
        sizes = table_sizes(players, size)
    except Unseatable:
        # brute force: the field cannot be written as a sum of tables of 3..largest seats
        fits = {0}
        for _ in range(players):
            fits |= {f + k for f in fits for k in range(3, largest + 1) if f + k <= players}
        assert players < 3 or players not in fits
        return
    assert sum(sizes) == players
    assert all(3 <= k <= largest for k in sizes)
    assert max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True)
    if players % size == 0:
        assert set(sizes) == {size}  # every table the asked size when the field divides


@pytest.mark.parametrize(
    ("players", "size"), [(2, 3), (0, 4), (5, 4), (5, 3), (1, 5), (9, 2), (9, 6)]
)
def test_fields_that_cannot_be_seated_are_refused(players: int, size: int):
    with pytest.raises(Unseatable) as refused:
        table_sizes(players, size)
    assert refused.value.code == "tables_unseatable"
    with pytest.raises(Unseatable):
        seat_round(_field(players), size, [])


def test_points_per_place():
    assert place_points(3) == (3, 1, 0)
    assert place_points(4) == (4, 2, 1, 0)
    assert place_points(5) == (5, 3, 2, 1, 0)
    # two tied first at four share (4+2)/2; competition or dense place numbers alike
    for places in ([1, 1, 3, 4], [1, 1, 2, 3]):
        finishes = [Finish(p, place, 0) for p, place in zip("abcd", places, strict=True)]
        assert score_table(finishes) == {"a": 3, "b": 3, "c": 1, "d": 0}
    # three tied first at four share (4+2+1)/3 = 7/3 each, exactly
    three = score_table(
        [Finish("a", 1, 9), Finish("b", 1, 9), Finish("c", 1, 9), Finish("d", 4, 2)]
    )
    assert three == {"a": Fraction(7, 3), "b": Fraction(7, 3), "c": Fraction(7, 3), "d": 0}
    with pytest.raises(ValueError):
        score_table([Finish("a", 1, 0), Finish("b", 2, 0)])


def test_standings_order():
    field = [
        Contender("low-vp", 2200, Fraction(6), 40),
        Contender("leader", 1500, Fraction(7), 10),
        Contender("b", 1600, Fraction(6), 50),
        Contender("a", 1600, Fraction(6), 50),
        Contender("rated", 1700, Fraction(6), 50),
    ]
    assert [c.id for c in standings(field)] == ["leader", "rated", "a", "b", "low-vp"]


def test_the_top_scores_sit_together_and_a_repeated_group_is_broken():
    field = [Contender(p, 1500, Fraction(6 - i), 0) for i, p in enumerate("abcdef")]
    assert seat_round(field, 3, []) == (("a", "b", "c"), ("d", "e", "f"))
    # a, b, c met last round: c and d (nearest in the standing) change tables
    tables = seat_round(field, 3, [(("a", "b", "c"), ("d", "e", "f"))])
    assert [set(t) for t in tables] == [{"a", "b", "d"}, {"c", "e", "f"}]


def test_seat_order_rotates():
    field = _field(3)
    # p1 sat first, p2 second, p3 last: now the order is reversed
    assert seat_round(field, 3, [(("p1", "p2", "p3"),)]) == (("p3", "p2", "p1"),)


@pytest.mark.parametrize("seed", range(20))
def test_nine_players_at_tables_of_three_over_three_rounds(seed: int):
    rng = random.Random(seed)
    field = _field(9)
    history: list[tuple[tuple[str, ...], ...]] = []
    for round_no in range(1, 4):
        tables = seat_round(field, 3, history)
        assert [len(t) for t in tables] == [3, 3, 3]  # tables of the asked size
        assert sorted(p for t in tables for p in t) == sorted(c.id for c in field)  # all once
        # by standing: the top three together, but for one swap with a neighbouring table
        # that keeps a group from meeting twice
        order = [c.id for c in standings(field)]
        at = {p: n for n, t in enumerate(tables) for p in t}
        assert all(abs(at[p] - rank // 3) <= 1 for rank, p in enumerate(order))
        if round_no == 1:
            assert [list(t) for t in tables] == [order[0:3], order[3:6], order[6:9]]
        games = []
        for table in tables:
            places = [rng.randint(1, 3) for _ in table]
            games.append(
                [
                    Finish(p, place, rng.randint(0, 30))
                    for p, place in zip(table, places, strict=True)
                ]
            )
        before = sum(c.points for c in field)
        field = after_round(field, games)
        # each table hands out 3+1+0 = 4 points, ties sharing but not adding any
        assert sum(c.points for c in field) - before == 4 * len(tables)
        assert sum(c.points for c in field) == 4 * 3 * round_no
        history.append(tables)
    groups = [frozenset(t) for r in history for t in r]
    assert len(set(groups)) == len(groups)  # no table's group met twice


def test_after_round_adds_points_and_vp():
    field = _field(4)
    game = [Finish("p1", 2, 30), Finish("p2", 1, 41), Finish("p3", 3, 12), Finish("p4", 4, 5)]
    after = {c.id: c for c in after_round(field, [game])}
    assert (after["p2"].points, after["p2"].vp) == (4, 41)
    assert (after["p1"].points, after["p3"].points, after["p4"].points) == (2, 1, 0)


def test_duplicate_ids_are_refused():
    with pytest.raises(ValueError, match="duplicate"):
        seat_round([*_field(3), *_field(1)], 3, [])


def _seatings(players: Sequence[str], sizes: Sequence[int]) -> Iterator[list[frozenset[str]]]:
    """Every way to split the players into tables of these sizes (brute force, small fields)."""
    if not sizes:
        yield []
        return
    first, rest = players[0], players[1:]

    def groups(pool: Sequence[str], k: int) -> Iterator[tuple[str, ...]]:
        if k == 0:
            yield ()
            return
        for i in range(len(pool) - k + 1):
            for more in groups(pool[i + 1 :], k - 1):
                yield (pool[i], *more)

    for k in sorted(set(sizes)):  # the table of the first player: each size it may have
        left = list(sizes)
        left.remove(k)
        for mates in groups(rest, k - 1):
            table = frozenset((first, *mates))
            for others in _seatings([p for p in rest if p not in table], left):
                yield [table, *others]


def _blocked(table: frozenset[str], apart: set[frozenset[str]]) -> bool:
    return any(pair <= table for pair in apart)


names = [f"p{i}" for i in range(10)]


@st.composite
def _tables_case(
    draw: st.DrawFn,
) -> tuple[list[Contender], int, list[TableRound], set[frozenset[str]]]:
    size = draw(st.integers(3, 5))
    n = draw(st.sampled_from([k for k in range(3, 11) if _fits(k, size)]))
    field = [
        Contender(f"p{i}", draw(st.integers(1400, 1600)), Fraction(draw(st.integers(0, 9))), 0)
        for i in range(n)
    ]
    ids = [c.id for c in field]
    history: list[TableRound] = []
    for _ in range(draw(st.integers(0, 3))):  # earlier rounds: random splits of this field
        order = draw(st.permutations(ids))
        tables, start = [], 0
        for k in table_sizes(n, size):
            tables.append(tuple(order[start : start + k]))
            start += k
        history.append(tuple(tables))
    pairs = st.frozensets(st.sampled_from(ids), min_size=2, max_size=2)
    return field, size, history, draw(st.sets(pairs, max_size=6))


def _fits(players: int, size: int) -> bool:
    try:
        table_sizes(players, size)
    except Unseatable:
        return False
    return True


@settings(max_examples=300, deadline=None)
@given(_tables_case())
def test_blocked_players_never_share_a_table_and_no_table_repeats_when_avoidable(
    case: tuple[list[Contender], int, list[TableRound], set[frozenset[str]]],
) -> None:
    field, size, history, apart = case
    tables = seat_round(field, size, history, apart)
    assert [len(t) for t in tables] == table_sizes(len(field), size)
    assert sorted(p for t in tables for p in t) == sorted(c.id for c in field)  # all, once
    met = {frozenset(t) for past in history for t in past}
    groups = [frozenset(t) for t in tables]
    every = list(_seatings([c.id for c in field], table_sizes(len(field), size)))
    fresh = [s for s in every if not any(t in met for t in s)]
    if fresh:  # a seating without a repeated table exists: no table repeats
        assert not any(t in met for t in groups)
    if any(not any(_blocked(t, apart) for t in s) for s in fresh):
        # ... and one with neither: no blocked pair sits together either
        assert not any(_blocked(t, apart) for t in groups)


def test_a_blocked_pair_at_the_top_table_is_split_by_the_nearest_swap() -> None:
    field = [Contender(p, 1500, Fraction(6 - i), 0) for i, p in enumerate("abcdef")]
    apart = {frozenset("ab")}
    tables = seat_round(field, 3, [], apart)
    # b (the lower of the two) changes places with d, the nearest below the table
    assert [set(t) for t in tables] == [{"a", "c", "d"}, {"b", "e", "f"}]
    # a block between players at different tables changes nothing
    assert seat_round(field, 3, [], {frozenset("af")}) == seat_round(field, 3, [])
