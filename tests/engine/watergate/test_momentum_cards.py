"""Each side's momentum card is read from its own data (issue 41): its size and its instructions.
The rulebook gives Nixon's card five spaces, the fifth winning (R27), and no size for the
Editor's; until now the Editor's size was read from Nixon's card, so an Editor's card of four
spaces in the data crashed the engine (KeyError 'M5') and an instruction written on Nixon's card
never ran. These positions play a data set that differs from the shipped one on purpose.

The position (as in test_ruling_r35): the round's momentum token stands on one side of the track;
both play a value to the initiative, the round ends, and evaluation step 3 gives that side its
next momentum token."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.core.game import JSONObject
from engine.watergate import RULES_VERSION, Event, MatchState, Role
from engine.watergate.describe import describe
from engine.watergate.ruleset import Ruleset, ruleset_from_data
from engine.watergate.standard import GAME
from engine.watergate.state import PictureD
from tests.engine.watergate.builders import act, of_type, position


def rules_with(change: Any) -> Ruleset:
    """Today's rules read from data changed by `change(momentum_document)`."""
    today = GAME.edition(RULES_VERSION)
    assert today.documents is not None
    cards, tokens, board, momentum = today.documents
    changed: JSONObject = copy.deepcopy(momentum)
    change(changed)
    return ruleset_from_data(cards, tokens, board, changed, today.version)


def next_momentum_token(
    side: Role, held: dict[Role, int], rules: Ruleset
) -> tuple[MatchState, list[Event]]:
    s = position(
        editor_hand=["E18"],
        nixon_hand=["N13"],
        momentum=held,
        track_momentum=2 if side == "editor" else -2,
        pictures={"martha_mitchell": "up", "alexander_butterfield": "down"},
    )
    s.rules = rules
    s, _ = act(s, "editor", {"type": "play_value", "card": "E18", "target": "initiative"})
    return act(s, "nixon", {"type": "play_value", "card": "N13", "target": "initiative"})


def four_space_editor_card(momentum: JSONObject) -> None:
    editor = momentum["editor"]
    assert isinstance(editor, dict) and isinstance(editor["spaces"], list)
    editor["spaces"] = editor["spaces"][:4]


def test_an_editors_card_of_four_spaces_takes_four_tokens_and_the_fifth_leaves_the_game() -> None:
    rules = rules_with(four_space_editor_card)
    assert rules.momentum_sizes == {"editor": 4, "nixon": 5}
    s, events = next_momentum_token("editor", {"editor": 4}, rules)  # was KeyError: 'M5'
    assert [e["role"] for e in of_type(events, "momentum_removed")] == ["editor"], describe(s)
    assert not of_type(events, "momentum_placed")
    assert s.momentum["editor"] == 4 and s.momentum_removed == 1
    assert s.winner is None  # only Nixon's card wins when full


def test_the_shipped_editors_card_still_places_the_fifth_token() -> None:
    _, events = next_momentum_token("editor", {"editor": 4}, GAME.edition(RULES_VERSION))
    assert [(e["role"], e["space"]) for e in of_type(events, "momentum_placed")] == [("editor", 5)]
    assert not of_type(events, "momentum_removed")


def nixon_space_two_pins_a_picture(momentum: JSONObject) -> None:
    nixon = momentum["nixon"]
    assert isinstance(nixon, dict) and isinstance(nixon["spaces"], list)
    space = nixon["spaces"][1]
    assert isinstance(space, dict) and space["space"] == 2
    space["effects"] = [{"op": "pin_picture", "person": "any"}]


def test_an_instruction_written_on_nixons_card_is_run_for_nixon() -> None:
    s, events = next_momentum_token(
        "nixon", {"nixon": 1}, rules_with(nixon_space_two_pins_a_picture)
    )
    assert [(e["role"], e["space"]) for e in of_type(events, "momentum_placed")] == [("nixon", 2)]
    assert isinstance(s.decision, PictureD) and s.decision.role == "nixon", describe(s)


def test_nixons_shipped_card_has_no_instruction_to_run() -> None:
    s, events = next_momentum_token("nixon", {"nixon": 1}, GAME.edition(RULES_VERSION))
    assert [(e["role"], e["space"]) for e in of_type(events, "momentum_placed")] == [("nixon", 2)]
    assert not isinstance(s.decision, PictureD), describe(s)


@pytest.mark.ruling("R27")
def test_r27_nixons_last_space_wins_whatever_its_size() -> None:
    def three_spaces(momentum: JSONObject) -> None:
        nixon = momentum["nixon"]
        assert isinstance(nixon, dict) and isinstance(nixon["spaces"], list)
        nixon["spaces"] = nixon["spaces"][:3]

    s, _ = next_momentum_token("nixon", {"nixon": 2}, rules_with(three_spaces))
    assert s.winner == "nixon" and s.win_reason == "fifth_momentum"


def test_a_card_whose_spaces_are_not_numbered_one_to_n_is_refused() -> None:
    def gap(momentum: JSONObject) -> None:
        editor = momentum["editor"]
        assert isinstance(editor, dict) and isinstance(editor["spaces"], list)
        del editor["spaces"][2]

    with pytest.raises(ValueError, match="momentum card"):
        rules_with(gap)
