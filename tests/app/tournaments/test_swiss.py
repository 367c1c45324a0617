"""Swiss pairing (app/tournaments/swiss.py): whole tournaments simulated with random results,
every round checked against the Dutch system's absolute rules by an independent checker (brute
force on small fields: a refusal or a relaxed round must be truly unavoidable), plus fixed
cases for round one's shape, colour allocation, the fallback and bad input."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.tournaments import swiss
from app.tournaments.swiss import Entrant, NoPairing, Pair, Round, max_rounds, pair_round


def _roles(history: Sequence[Round]) -> dict[str, list[int]]:
    """Each player's roles in the games played, in order: +1 first seat, -1 second."""
    roles: dict[str, list[int]] = {}
    for past in history:
        for pair in past.pairs:
            roles.setdefault(pair.first, []).append(1)
            roles.setdefault(pair.second, []).append(-1)
    return roles


def _wants(roles: list[int]) -> tuple[int, bool]:
    """(the role a player should get next or 0, whether absolutely), FIDE C.04.3 A.6."""
    if not roles:
        return 0, False
    diff = sum(roles)
    if abs(diff) >= 2:
        return -diff // abs(diff), True
    if len(roles) >= 2 and roles[-1] == roles[-2]:
        return -roles[-1], True
    return (-diff if diff else -roles[-1]), False


def _pairable(ids: Sequence[str], may_meet: set[frozenset[str]]) -> bool:
    """Brute force (over subsets): can these players all be paired among allowed pairs?"""
    everyone = tuple(ids)

    @cache
    def rest(mask: int) -> bool:
        if mask == 0:
            return True
        low = (mask & -mask).bit_length() - 1
        return any(
            mask >> j & 1 and frozenset((everyone[low], everyone[j])) in may_meet
            and rest(mask & ~(1 << low) & ~(1 << j))
            for j in range(low + 1, len(everyone))
        )  # fmt: skip

    return rest((1 << len(everyone)) - 1)


def _allowed(
    players: Sequence[Entrant], history: Sequence[Round], strict: bool
) -> set[frozenset[str]]:
    met = {frozenset((p.first, p.second)) for past in history for p in past.pairs}
    roles = _roles(history)
    allowed = set()
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            wa, abs_a = _wants(roles.get(a.id, []))
            wb, abs_b = _wants(roles.get(b.id, []))
            if frozenset((a.id, b.id)) in met or (strict and abs_a and abs_b and wa == wb):
                continue
            allowed.add(frozenset((a.id, b.id)))
    return allowed


def _check(players: Sequence[Entrant], history: Sequence[Round], paired: Round) -> None:
    """The round meets the absolute criteria, and anything less is shown to be unavoidable."""
    ids = [p.id for p in players]
    seated = [x for pair in paired.pairs for x in (pair.first, pair.second)]
    seated += [paired.bye] if paired.bye is not None else []
    assert sorted(seated) == sorted(ids)  # everyone once
    assert (paired.bye is not None) == (len(ids) % 2 == 1)  # a bye only when the count is odd
    met = {frozenset((p.first, p.second)) for past in history for p in past.pairs}
    assert not met & {frozenset((p.first, p.second)) for p in paired.pairs}  # C.1
    had_bye = {past.bye for past in history if past.bye is not None}
    assert paired.bye not in had_bye  # C.2
    strict_pairs = _allowed(players, history, strict=True)
    if paired.relaxed:
        small = len(ids) <= 14
        assert not small or not any(
            _pairable([i for i in ids if i != bye], strict_pairs)
            for bye in (ids if len(ids) % 2 else [None])
            if bye not in had_bye
        ), "C.3 was dropped though a pairing keeping it exists"
    else:
        assert all(frozenset((p.first, p.second)) in strict_pairs for p in paired.pairs)  # C.3
    roles = _roles(history)
    for pair in paired.pairs:
        # E.1: when the two want different things (or only one wants anything), both are
        # granted: the first seat went to whoever wanted it, or the second to whoever did
        wa, _ = _wants(roles.get(pair.first, []))
        wb, _ = _wants(roles.get(pair.second, []))
        assert wa == wb or wa == 1 or wb == -1, f"{pair} ignores preferences {wa}, {wb}"
    if paired.bye is not None and len(ids) <= 14:
        # the lowest-ranked player without a bye whose absence leaves the rest pairable
        ranked = [p.id for p in sorted(players, key=lambda p: (-p.points, -p.rating, p.id))]
        allowed = _allowed(players, history, strict=not paired.relaxed)
        for lower in ranked[ranked.index(paired.bye) + 1 :]:
            if lower not in had_bye:
                assert not _pairable([i for i in ids if i != lower], allowed)


def _tournament(
    n: int, rounds: int, rng: random.Random
) -> Iterator[tuple[list[Entrant], list[Round], Round | None]]:
    """A Swiss of n players with random results (draws included): each round's input and
    pairing (None: refused), every round checked."""
    ratings = {f"p{i:02d}": rng.randint(1000, 2000) for i in range(n)}
    points = dict.fromkeys(ratings, 0.0)
    history: list[Round] = []
    for _ in range(rounds):
        players = [Entrant(p, r, points[p]) for p, r in ratings.items()]
        try:
            paired = pair_round(players, history)
        except NoPairing:
            yield players, history, None
            return
        _check(players, history, paired)
        yield players, list(history), paired
        history.append(paired)
        for pair in paired.pairs:
            outcome = rng.choice((1.0, 0.5, 0.0))
            points[pair.first] += outcome
            points[pair.second] += 1.0 - outcome
        if paired.bye is not None:
            points[paired.bye] += 1.0


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 13), st.integers(1, 12), st.randoms(use_true_random=False))
def test_every_round_keeps_the_absolute_rules(n: int, rounds: int, rng: random.Random):
    rounds = min(rounds, max_rounds(n))
    all_strict = True
    for players, history, paired in _tournament(n, rounds, rng):
        if paired is None:
            # refused only when no pairing avoids a rematch and a second bye at all
            ids = [p.id for p in players]
            allowed = _allowed(players, history, strict=False)
            had_bye = {past.bye for past in history if past.bye is not None}
            byes = [b for b in ids if b not in had_bye] if n % 2 else [None]
            assert not any(_pairable([i for i in ids if i != b], allowed) for b in byes)
            return
        all_strict = all_strict and not paired.relaxed
        if all_strict:  # roles balanced: never three in a row, difference within 2
            for seq in _roles([*history, paired]).values():
                assert abs(sum(seq)) <= 2
                assert all(len({*seq[i : i + 3]}) > 1 for i in range(len(seq) - 2))


@settings(max_examples=25, deadline=None)
@given(st.integers(14, 80), st.integers(1, 9), st.randoms(use_true_random=False))
def test_larger_fields_keep_roles_balanced(n: int, rounds: int, rng: random.Random):
    played: list[Round] = []
    for _, _, paired in _tournament(n, rounds, rng):  # each round checked as it goes
        assert paired is not None  # a field this size never runs out of opponents in 9 rounds
        assert not paired.relaxed
        played.append(paired)
    for seq in _roles(played).values():
        assert abs(sum(seq)) <= 2
        assert all(len({*seq[i : i + 3]}) > 1 for i in range(len(seq) - 2))


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 20).map(lambda k: 2 * k), st.randoms(use_true_random=False))
def test_round_two_pairs_winners_with_winners(n: int, rng: random.Random):
    players = [Entrant(f"p{i:02d}", rng.randint(1000, 2000), 0.0) for i in range(n)]
    first = pair_round(players, [])
    winners = {rng.choice((p.first, p.second)) for p in first.pairs}
    scored = [Entrant(p.id, p.rating, 1.0 if p.id in winners else 0.0) for p in players]
    second = pair_round(scored, [first])
    _check(scored, [first], second)
    mixed = [p for p in second.pairs if (p.first in winners) != (p.second in winners)]
    # n/2 winners who have not met: all paired together, but one floats when they are odd
    assert len(mixed) == (n // 2) % 2


def test_round_one_pairs_the_top_half_with_the_bottom_half():
    players = [Entrant(f"p{i}", 2000 - 10 * i, 0.0) for i in range(1, 9)]
    paired = pair_round(players, [])
    # S1 = p1..p4 against S2 = p5..p8; E.5: the initial colour (first seat) to the higher
    # ranked of each pair when their pairing number is odd, the other seat when even
    assert paired.pairs == (Pair("p1", "p5"), Pair("p6", "p2"), Pair("p3", "p7"), Pair("p8", "p4"))
    assert paired.bye is None


def test_a_transposition_honours_colour_preferences():
    # After round 1 (p1-p5, p6-p2, p3-p7, p8-p4; the top half won) the winners' bracket's
    # first candidate S1 [p1, p2] against S2 [p3, p4] would meet p1-p3 (both want the second
    # seat) and p2-p4 (both the first): C.10 takes the transposition p1-p4, p2-p3 instead,
    # where everyone gets their wish; likewise p5-p8 and p6-p7 among the losers.
    players = [Entrant(f"p{i}", 2000 - 10 * i, 1.0 if i <= 4 else 0.0) for i in range(1, 9)]
    history = [Round((Pair("p1", "p5"), Pair("p6", "p2"), Pair("p3", "p7"), Pair("p8", "p4")))]
    paired = pair_round(players, history)
    assert paired.pairs == (Pair("p4", "p1"), Pair("p2", "p3"), Pair("p5", "p8"), Pair("p7", "p6"))


def test_a_downfloater_meets_the_top_of_the_next_bracket():
    # Round 1 of a..f (rated in that order) was a-d, e-b, c-f, and a, b, c won. Round 2:
    # the 1-point bracket a, b, c pairs S1 = [a] with S2's first, b (a wants the second seat
    # after a first, b the first: both granted); c floats down and, as the next bracket's MDP,
    # meets its highest resident d (d wants the first seat, c the second); e and f remain,
    # e wanting the second seat and f the first.
    history = [Round((Pair("a", "d"), Pair("e", "b"), Pair("c", "f")))]
    ratings = dict(zip("abcdef", (1900, 1800, 1700, 1600, 1500, 1400), strict=True))
    players = [Entrant(p, r, 1.0 if p in "abc" else 0.0) for p, r in ratings.items()]
    paired = pair_round(players, history)
    assert paired.pairs == (Pair("b", "a"), Pair("d", "c"), Pair("f", "e"))


@pytest.mark.parametrize("seed", range(25))
def test_seven_players_over_three_rounds(seed: int):
    rounds = list(_tournament(7, 3, random.Random(seed)))
    assert all(paired is not None for _, _, paired in rounds)
    byes = [paired.bye for _, _, paired in rounds if paired is not None]
    assert len(byes) == 3 and len(set(byes)) == 3 and None not in byes


def test_the_bye_goes_to_the_lowest_ranked_without_one():
    # round 1: a drew b, c had the bye; now c leads but may not have a second bye, and b is
    # ranked below a (equal points, lower rating)
    history = [Round((Pair("a", "b"),), bye="c")]
    players = [Entrant("a", 1500, 0.5), Entrant("b", 1400, 0.5), Entrant("c", 1300, 1.0)]
    paired = pair_round(players, history)
    assert paired.bye == "b"
    assert {paired.pairs[0].first, paired.pairs[0].second} == {"a", "c"}


def test_c3_is_dropped_only_when_nothing_else_pairs():
    # a and b both took the first seat twice (against players since withdrawn): both must take
    # the second seat now, so C.3 forbids the only game left; the round is paired relaxed, and
    # E.4 gives the higher-ranked a their preference
    history = [Round((Pair("a", "x"), Pair("b", "y"))), Round((Pair("a", "z"), Pair("b", "w")))]
    paired = pair_round([Entrant("a", 1600, 1.0), Entrant("b", 1500, 1.0)], history)
    assert paired.relaxed
    assert paired.pairs == (Pair("b", "a"),)


def test_refusals():
    with pytest.raises(NoPairing):
        pair_round([Entrant("a", 1500, 0.0)], [])
    with pytest.raises(NoPairing) as refused:
        pair_round([Entrant("a", 1500, 1.0), Entrant("b", 1500, 0.0)], [Round((Pair("a", "b"),))])
    assert refused.value.code == "swiss_unpairable"
    with pytest.raises(ValueError, match="duplicate"):
        pair_round([Entrant("a", 1500, 0.0), Entrant("a", 1400, 0.0)], [])
    assert [max_rounds(n) for n in (0, 1, 2, 7, 8)] == [0, 0, 1, 6, 7]


def test_the_fallback_still_keeps_the_absolute_rules(monkeypatch: pytest.MonkeyPatch):
    # no search budget at all: every round is paired by the maximum matching instead
    monkeypatch.setattr(swiss, "_NODE_BUDGET", 0)
    for _, _, paired in _tournament(13, 8, random.Random(7)):
        assert paired is not None


def test_a_field_of_500():
    # about 0.01-0.15 s a round on the development machine (9-12 rounds, random and skewed
    # results), well under the 1 s the issue allows; not timed here, only checked
    rng = random.Random(500)
    players = [Entrant(f"p{i:03d}", rng.randint(1000, 2000), 0.0) for i in range(500)]
    first = pair_round(players, [])
    _check(players, [], first)
    winners = {rng.choice((p.first, p.second)) for p in first.pairs}
    scored = [Entrant(p.id, p.rating, 1.0 if p.id in winners else 0.0) for p in players]
    second = pair_round(scored, [first])
    _check(scored, [first], second)


def test_a_blocked_pair_is_not_paired_when_another_round_avoids_it() -> None:
    """Round 1 of four: the Dutch system pairs 1-3 and 2-4 (top half against bottom half); a
    block between 1 and 3 moves 1 to another opponent, and both rounds stay valid."""
    field = [Entrant(f"p{i}", 2000.0 - 100 * i, 0.0) for i in range(1, 5)]
    plain = pair_round(field, [])
    assert {frozenset((p.first, p.second)) for p in plain.pairs} == {
        frozenset(("p1", "p3")),
        frozenset(("p2", "p4")),
    }
    kept = pair_round(field, [], {frozenset(("p1", "p3"))})
    pairs = {frozenset((p.first, p.second)) for p in kept.pairs}
    assert frozenset(("p1", "p3")) not in pairs and len(pairs) == 2


def test_a_blocked_pair_is_still_paired_when_nothing_else_is_possible() -> None:
    field = [Entrant("a", 1500.0, 0.0), Entrant("b", 1400.0, 0.0)]
    only = pair_round(field, [], {frozenset(("a", "b"))})
    assert {only.pairs[0].first, only.pairs[0].second} == {"a", "b"}
