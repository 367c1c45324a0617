"""The post-game analysis judges a decision from its mover's observation only (R18): states that
differ only in what the mover cannot see are judged alike, while a judge handed the true state
would tell them apart (so the equality is not vacuous); chances are in [0, 1], `best` is legal."""

from __future__ import annotations

import pytest

from engine.watergate.bots.analysis import analyse, decision_seed, judge
from engine.watergate.flow import legal_actions

from .test_bots import deciding_states, hidden_variant


@pytest.mark.ruling("R18")
def test_the_mover_is_judged_alike_whatever_it_cannot_see() -> None:
    checked = leaks_caught = 0
    for s, role in deciding_states(range(2))[::6]:
        variant = hidden_variant(s, role, s.version + 7)
        played = legal_actions(s, role)[-1]
        mine = analyse(s, [(1, role, played)], secret=11)
        assert mine == analyse(variant, [(1, role, played)], secret=11)
        ((_, _, j),) = mine
        assert 0.0 <= j.after <= 1.0 and 0.0 <= j.before <= 1.0
        assert j.best in legal_actions(s, role)
        # the same judge handed the true states (what a leak would be) tells them apart
        seed = decision_seed(11, s.version)
        if judge(s, role, played, seed) != judge(variant, role, played, seed):
            leaks_caught += 1
        checked += 1
    assert checked >= 5
    assert leaks_caught >= 1, "the hidden parts never mattered: the test would prove nothing"


def test_playing_the_best_action_loses_nothing() -> None:
    for s, role in deciding_states(range(1))[::10]:
        seed = decision_seed(3, s.version)
        best = judge(s, role, legal_actions(s, role)[0], seed).best
        j = judge(s, role, best, seed)
        assert j.before == j.after and j.best == best
