"""The move prior that hard's play-outs sample from: its signatures name no token of one match
only, it samples each move by its odds, and the shipped weights know the moves real matches
offer (so a change to the signatures without training again fails here)."""

from __future__ import annotations

import math

from engine.watergate import current_role
from engine.watergate.actions import ChooseToken, Pass, PlayValue
from engine.watergate.bots.prior import UNIT, MovePrior, shipped_prior, signature
from engine.watergate.flow import legal_actions

from .test_bots import states_along


def test_a_signature_names_the_card_and_target_but_never_a_tokens_handle() -> None:
    s = states_along(3)[2]
    role = current_role(s)
    assert role is not None
    first, second = PlayValue("E01", "evidence", 4), PlayValue("E01", "evidence", 9)
    assert signature(s, role, first) == signature(s, role, second)
    assert signature(s, role, ChooseToken(1)) == signature(s, role, ChooseToken(2))
    assert signature(s, role, first) != signature(s, role, PlayValue("E02", "evidence", 4))
    assert signature(s, role, first) != signature(s, role, PlayValue("E01", "momentum"))
    assert signature(s, "editor", Pass()) != signature(s, "nixon", Pass())


def test_a_move_is_drawn_in_proportion_to_its_odds() -> None:
    s = states_along(3)[2]
    role = current_role(s)
    assert role is not None
    likely, other = PlayValue("E01", "momentum"), Pass()
    prior = MovePrior({signature(s, role, likely): math.log(3.0)})  # 3 to 1
    moves = [likely, other]
    assert prior.pick(s, role, moves, 0) == likely
    assert prior.pick(s, role, moves, 3 * UNIT // 4 - 1) == likely
    assert prior.pick(s, role, moves, 3 * UNIT // 4 + 1) == other
    assert prior.pick(s, role, moves, UNIT - 1) == other
    # moves the prior never saw weigh alike: even odds
    assert prior.pick(s, role, [other, PlayValue("E02", "momentum")], UNIT // 2 - 1) == other


def test_the_shipped_prior_weighs_the_moves_real_matches_offer() -> None:
    prior = shipped_prior()
    offered = {
        signature(s, role, a)
        for seed in range(4)
        for s in states_along(seed, every=1)
        if (role := current_role(s)) is not None and len(legal_actions(s, role)) > 1
        for a in legal_actions(s, role)
    }
    known = offered & prior.weights.keys()
    assert len(known) >= 0.8 * len(offered), sorted(offered - known)[:10]
    # and it is not flat: it prefers some moves to others
    assert max(prior.weights[g] for g in known) - min(prior.weights[g] for g in known) > 1.0


def test_the_same_move_of_the_two_seats_keeps_each_seats_odds() -> None:
    s = states_along(3)[2]
    editor_pass = signature(s, "editor", Pass())
    prior = MovePrior({editor_pass: math.log(3.0)})
    moves = [Pass(), PlayValue("E01", "momentum")]
    draw = 3 * UNIT // 4 - 1
    assert prior.pick(s, "editor", moves, draw) == Pass()  # 3 to 1 for the Editor's pass
    assert prior.pick(s, "nixon", moves, draw) != Pass()  # even odds for Nixon's, asked after
