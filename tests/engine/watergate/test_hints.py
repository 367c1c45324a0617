"""Hints (issue "Learn to play"): why a card in a seat's hand would be played only for its value,
named by the rulings that bar its action (R16, R21, R22) or its value's question (R11 under
Executive privilege); and, over random matches, that a card has a reason exactly when its action
is not among the legal actions, from the seat's observation alone."""

from __future__ import annotations

from hypothesis import given, settings

from engine.core.game import Hinting
from engine.watergate import GAME, MatchState, Role
from engine.watergate.actions import PlayAction, PlayValue
from engine.watergate.hints import hints_for
from engine.watergate.observation import observation_for
from engine.watergate.state import PlayD

from .builders import do, pass_window, play_action, position
from .test_properties import SEEDS, random_match


def reasons(s: MatchState, role: Role) -> dict[str, object]:
    actions = hints_for(s, role)["actions"]
    assert isinstance(actions, dict)
    return {card: reason["reason"] for card, reason in actions.items() if isinstance(reason, dict)}


def offered_actions(s: MatchState, role: Role) -> set[str]:
    return {a.card for a in GAME.legal_actions(s, role) if isinstance(a, PlayAction)}


def test_the_game_offers_hints_through_the_protocol() -> None:
    assert isinstance(GAME, Hinting)
    s = position(turn="editor", editor_hand=["E03", "E07"])
    assert GAME.hints_for(s, "editor") == hints_for(s, "editor")


def test_r16_a_requirement_not_met_is_named_with_its_figures() -> None:
    # John Dean testifies needs another face-up picture: John Dean's own does not count
    s = position(turn="editor", editor_hand=["E12", "E19"], pictures={"john_dean": "up"})
    found = hints_for(s, "editor")["actions"]
    assert found == {
        "E12": {"reason": "face_up_pictures", "min": 1, "except": "john_dean"},
        "E19": {"reason": "face_up_pictures", "min": 2},
    }
    assert offered_actions(s, "editor") == set()

    s = position(
        turn="editor",
        editor_hand=["E12", "E19"],
        pictures={"john_dean": "up", "hugh_sloan": "up"},
    )
    assert reasons(s, "editor") == {}  # both requirements hold now
    assert offered_actions(s, "editor") == {"E12", "E19"}


def test_r21_a_brilliant_mood_is_not_offered_on_nixons_first_turn() -> None:
    first = position(turn="nixon", nixon_hand=["N08", "N02"])
    assert reasons(first, "nixon") == {"N08": "not_first_turn"}
    later = position(turn="nixon", nixon_hand=["N08", "N02"], turns={"nixon": 1})
    assert reasons(later, "nixon") == {}


def test_r21_under_a_brilliant_mood_the_editors_events_are_value_only() -> None:
    s = position(
        turn="editor",
        editor_hand=["E07", "E01", "E15"],
        restrictions=["editor_events_value_only"],
    )
    # events (Deep Throat, Pentagon Papers) are barred; the journalist Bob Woodward is not
    assert reasons(s, "editor") == {
        "E07": "editor_events_value_only",
        "E15": "editor_events_value_only",
    }
    assert offered_actions(s, "editor") == {"E01"}


def test_r22_the_system_works_needs_a_removed_card_it_may_replay() -> None:
    # only a reaction card is removed: it may not be replayed, so neither may The system works act
    s = position(turn="editor", editor_hand=["E06"], removed=["E03"])
    assert reasons(s, "editor") == {"E06": "removed_own_replayable"}
    s = position(turn="editor", editor_hand=["E06"], removed=["E03", "E07"])
    assert reasons(s, "editor") == {}


def test_r33_howard_hunts_drawn_card_is_explained_on_the_turn_it_belongs_to() -> None:
    # Howard Hunt played on Nixon's first turn draws A brilliant mood: its action is barred (R21)
    s = position(turn="nixon", nixon_hand=["N01", "N02"], nixon_deck=["N08"])
    s, _ = do(s, "nixon", play_action("N01"))
    while not (isinstance(s.decision, PlayD) and s.decision.card):
        s, _ = pass_window(s)  # the Editor lets Howard Hunt's action stand
    assert isinstance(s.decision, PlayD) and s.decision.card == "N08"
    assert reasons(s, "nixon") == {"N08": "not_first_turn"}
    assert offered_actions(s, "nixon") == set()
    assert "N08" not in hints_for(s, "editor")["actions"]  # the Editor does not see it drawn


def test_r17_a_reaction_card_has_no_action_of_its_own_on_a_turn() -> None:
    s = position(turn="editor", editor_hand=["E03", "E05", "E20"])
    assert reasons(s, "editor") == {"E03": "reaction_only", "E05": "reaction_only"}
    s = position(turn="nixon", nixon_hand=["N06", "N01"])
    assert reasons(s, "nixon") == {"N06": "reaction_only"}


def test_r11_executive_privilege_bars_asking_only_while_a_token_lies_face_down() -> None:
    hidden = [("T01", 0, False), ("T02", 0, True)]
    s = position(turn="editor", editor_hand=["E20"], track=hidden, restrictions=["editor_no_ask"])
    assert hints_for(s, "editor")["ask"] == "editor_no_ask"
    asks = [a for a in GAME.legal_actions(s, "editor") if isinstance(a, PlayValue)]
    assert all(a.target != "ask" for a in asks)
    # without the restriction the question is offered, and no hint says otherwise
    free = position(turn="editor", editor_hand=["E20"], track=hidden)
    assert "ask" not in hints_for(free, "editor")
    # with every token face up there is nothing to ask for, restricted or not
    shown = position(
        turn="editor",
        editor_hand=["E20"],
        track=[("T02", 0, True)],
        restrictions=["editor_no_ask"],
    )
    assert "ask" not in hints_for(shown, "editor")
    # Nixon never asks: the restriction is the Editor's
    nixon = position(turn="nixon", nixon_hand=["N02"], track=hidden, restrictions=["editor_no_ask"])
    assert "ask" not in hints_for(nixon, "nixon")


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, bot_seed=SEEDS)
def test_a_card_has_a_reason_exactly_when_its_action_is_not_offered(
    seed: int, bot_seed: int
) -> None:
    for ply in random_match(seed, bot_seed):
        s = ply.before
        for role in ("editor", "nixon"):
            hints = hints_for(s, role)
            # only what the seat may see: its observation gives the same hints
            assert hints == hints_for(observation_for(s, role), role)
            actions = hints["actions"]
            own = set(s.hands[role])
            if isinstance(s.decision, PlayD) and s.decision.role == role:
                own.add(s.decision.card)  # Howard Hunt's drawn card, R19
            assert isinstance(actions, dict) and set(actions) <= own
            assert all(
                isinstance(r, dict) and r["reason"] != "unavailable" for r in actions.values()
            )
        d = s.decision
        if not isinstance(d, PlayD):
            continue  # the claim is about choosing a card to play
        role = d.role
        legal = GAME.legal_actions(s, role)
        acted = {a.card for a in legal if isinstance(a, PlayAction)}
        for card in s.hands[role] if d.card == "" else [d.card]:
            assert (card in hints_for(s, role)["actions"]) == (card not in acted), card
        may_ask = any(isinstance(a, PlayValue) and a.target == "ask" for a in legal)
        barred = role == "editor" and any(not t.up for t in s.track) and not may_ask
        assert ("ask" in hints_for(s, role)) == barred
