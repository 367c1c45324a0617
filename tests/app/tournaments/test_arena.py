"""The arena's scoring and pairing (issue 46): lichess's points (2 a win, 1 a draw, doubled on
fire after two wins in a row, +1 for a berserk win) and pairings that never repeat the previous
opponent, never seat a blocked pair, keep close scores together and alternate seats."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.tournaments.arena import Free, Pairing, pair, score_game


def test_a_win_scores_two_a_draw_one_a_loss_nothing() -> None:
    assert score_game(0, "win", False).points == 2
    assert score_game(0, "draw", False).points == 1
    assert score_game(0, "loss", False).points == 0


def test_two_wins_in_a_row_light_the_flame_and_the_next_games_score_double() -> None:
    first = score_game(0, "win", False)
    second = score_game(first.streak, "win", False)
    assert (first.points, second.points) == (2, 2)  # the flame lights after the second
    assert second.on_fire
    third = score_game(second.streak, "win", False)
    assert third.points == 4
    drawn = score_game(third.streak, "draw", False)
    assert drawn.points == 2  # the game that ends a streak still scores double
    assert drawn.streak == 0 and not drawn.on_fire
    assert score_game(drawn.streak, "win", False).points == 2


def test_berserk_adds_one_point_to_a_win_only_and_is_not_doubled() -> None:
    assert score_game(0, "win", True).points == 3
    assert score_game(5, "win", True).points == 5  # 2 doubled, then +1
    assert score_game(0, "loss", True).points == 0
    assert score_game(0, "draw", True).points == 1


@given(st.lists(st.sampled_from(["win", "draw", "loss"]), max_size=30))
def test_a_streak_counts_the_wins_since_the_last_game_not_won(outcomes: list[str]) -> None:
    streak = 0
    for outcome in outcomes:
        streak = score_game(streak, outcome, False).streak  # type: ignore[arg-type]
    trailing = len(outcomes) - len(
        "".join("x" if o != "win" else "w" for o in outcomes).rstrip("w")
    )
    assert streak == trailing


players = st.lists(
    st.builds(
        Free,
        player_id=st.sampled_from([f"p{i}" for i in range(12)]),
        score=st.integers(0, 20),
        rating=st.floats(800, 2200),
        last_opponent=st.none() | st.sampled_from([f"p{i}" for i in range(12)]),
        first_seats=st.integers(0, 5),
        second_seats=st.integers(0, 5),
        last_seat=st.none() | st.sampled_from([0, 1]),
    ),
    unique_by=lambda f: f.player_id,
    max_size=12,
)
blocked_pairs = st.sets(
    st.frozensets(st.sampled_from([f"p{i}" for i in range(12)]), min_size=2, max_size=2),
    max_size=6,
)


@given(players, blocked_pairs)
def test_pairing_never_repeats_the_last_opponent_nor_seats_a_blocked_pair(
    free: list[Free], apart: set[frozenset[str]]
) -> None:
    pairings = pair(free, apart)
    seen: set[str] = set()
    by_id = {f.player_id: f for f in free}
    for p in pairings:
        assert p.first != p.second
        assert not {p.first, p.second} & seen  # nobody twice
        seen |= {p.first, p.second}
        assert by_id[p.first].last_opponent != p.second
        assert by_id[p.second].last_opponent != p.first
        assert frozenset((p.first, p.second)) not in apart


@given(players)
def test_pairing_leaves_no_two_free_players_who_could_have_met(free: list[Free]) -> None:
    """Greedy but complete: of those left waiting, no two may meet (else they would be paired)."""
    paired = {x for p in pair(free) for x in (p.first, p.second)}
    left = [f for f in free if f.player_id not in paired]
    for i, one in enumerate(left):
        for other in left[i + 1 :]:
            assert one.last_opponent == other.player_id or other.last_opponent == one.player_id


def test_the_closest_scores_meet_and_the_top_is_not_fed_the_bottom() -> None:
    free = [Free("a", 10, 1500), Free("b", 9, 1500), Free("c", 1, 1500), Free("d", 0, 1500)]
    pairs = {frozenset((p.first, p.second)) for p in pair(free)}
    assert pairs == {frozenset("ab"), frozenset("cd")}


def test_a_rematch_is_skipped_for_the_next_closest() -> None:
    free = [Free("a", 10, 1500, last_opponent="b"), Free("b", 9, 1500, last_opponent="a"),
            Free("c", 8, 1500)]  # fmt: skip
    assert [frozenset((p.first, p.second)) for p in pair(free)] == [frozenset("ac")]


def test_seats_alternate_the_one_who_had_the_first_seat_less_gets_it() -> None:
    had_first = Free("a", 4, 1600, first_seats=2, second_seats=1, last_seat=0)
    had_second = Free("b", 4, 1500, first_seats=1, second_seats=2, last_seat=1)
    assert pair([had_first, had_second]) == [Pairing("b", "a")]
    # level counts: who had the second seat last takes the first
    a = Free("a", 4, 1600, first_seats=1, second_seats=1, last_seat=0)
    b = Free("b", 4, 1500, first_seats=1, second_seats=1, last_seat=1)
    assert pair([a, b]) == [Pairing("b", "a")]
    # newcomers: the higher placed takes the first seat
    assert pair([Free("x", 0, 1400), Free("y", 0, 1700)]) == [Pairing("y", "x")]


@given(players)
def test_the_first_seat_never_goes_to_whoever_has_had_it_more(free: list[Free]) -> None:
    """Roles alternate as far as pairing allows: of two paired players, the one who has sat in
    the first seat more often (relative to the second) takes the second seat."""
    by_id = {f.player_id: f for f in free}
    for p in pair(free):
        first, second = by_id[p.first], by_id[p.second]
        assert first.first_seats - first.second_seats <= second.first_seats - second.second_seats
