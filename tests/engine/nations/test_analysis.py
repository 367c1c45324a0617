"""Nations' post-game analysis (issue 39): a decision is judged from what its seat may see (NR1:
only the decks are hidden), the best action by the evaluation is never worse than the one
played on the same samples, the numbers are the same every time (fixed work, no clock), and a
table of any size is judged with its own fitted scale."""

from __future__ import annotations

import random

import pytest

from engine.nations.bots.analysis import analyse, fitted, judge
from engine.nations.flow import apply, legal_actions
from engine.nations.state import MatchState
from engine.registry import get_game


def some_decisions(players: int, seed: int, count: int) -> list[tuple[MatchState, int, object]]:
    """(state, player, action played) at real decisions of a random match."""
    game = get_game("nations").with_players(players)
    s, rnd, found = game.start(seed).state, random.Random(seed), []
    while game.outcome(s) is None and len(found) < count:
        player = s.decision.player
        offered = legal_actions(s, player)
        action = rnd.choice(offered)
        if len(offered) > 1:
            found.append((s, player, action))
        s = apply(s, player, action).state
    return found


def test_nr1_a_decision_is_judged_alike_whatever_order_the_decks_are_in() -> None:
    for s, player, action in some_decisions(3, 11, 6):
        other = s.clone()
        other.decks = tuple(tuple(reversed(d)) for d in s.decks)
        other.event_decks = tuple(tuple(reversed(d)) for d in s.event_decks)
        assert other.decks != s.decks or not any(s.decks)
        assert judge(s, player, action, 5) == judge(other, player, action, 5)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_best_is_never_judged_below_the_action_played(players: int) -> None:
    for s, player, action in some_decisions(players, players, 5):
        j = judge(s, player, action, 1)
        assert 0.0 <= j.after <= j.before <= 1.0
        assert j.best in legal_actions(s, player)
        if j.best == action:
            assert j.after == j.before


def test_a_match_is_judged_the_same_every_time_and_only_at_real_decisions() -> None:
    game = get_game("nations").with_players(2)
    start = game.start(4).state
    s, rnd, actions, lone = start, random.Random(4), [], 0
    for seq in range(1, 60):
        player = s.decision.player
        offered = legal_actions(s, player)
        lone += len(offered) == 1
        action = rnd.choice(offered)
        actions.append((seq, player, action))
        s = apply(s, player, action).state
    first = analyse(start, actions, 99)
    assert first == analyse(start, actions, 99)
    assert len(first) == len(actions) - lone


def test_every_table_size_has_its_fitted_scale() -> None:
    for players in get_game("nations").player_counts:
        scale, _ = fitted(players)
        assert scale > 0
