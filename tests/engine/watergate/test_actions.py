"""Actions are typed records (architecture.md §6): one frozen, slotted dataclass per action type,
parsed from JSON with the first edition's checks (malformed before illegal) and written back as
exactly the JSON objects the wire has always carried."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine.core.errors import IllegalAction, MalformedAction
from engine.watergate import flow
from engine.watergate.actions import (
    ACTION_TYPES,
    SHAPES,
    Ask,
    ChooseCard,
    ChoosePicture,
    ChooseSpace,
    ChooseTarget,
    ChooseToken,
    Done,
    GambitKeep,
    GambitRemove,
    Pass,
    Pin,
    PlayAction,
    PlayValue,
    React,
    action_to_json,
    parse_action,
)
from engine.watergate.standard import GAME
from tests.engine.watergate.builders import pass_window, position

EXAMPLES = (
    (PlayValue("E01", "initiative"), {"type": "play_value", "card": "E01", "target": "initiative"}),
    (
        PlayValue("E01", "evidence", 7),
        {"type": "play_value", "card": "E01", "target": "evidence", "handle": 7},
    ),
    (
        PlayValue("E01", "ask", None, "blue"),
        {"type": "play_value", "card": "E01", "target": "ask", "color": "blue"},
    ),
    (PlayAction("N03"), {"type": "play_action", "card": "N03"}),
    (React("N06"), {"type": "react", "card": "N06"}),
    (Pass(), {"type": "pass"}),
    (ChooseToken(4), {"type": "choose_token", "handle": 4}),
    (ChooseTarget("momentum"), {"type": "choose_target", "target": "momentum"}),
    (ChooseTarget("evidence", 2), {"type": "choose_target", "target": "evidence", "handle": 2}),
    (ChooseSpace("O3"), {"type": "choose_space", "space": "O3"}),
    (ChoosePicture("hugh_sloan"), {"type": "choose_picture", "person": "hugh_sloan"}),
    (ChooseCard("E05"), {"type": "choose_card", "card": "E05"}),
    (Pin(9, "I2"), {"type": "pin", "handle": 9, "space": "I2"}),
    (GambitKeep("N02"), {"type": "gambit_keep", "card": "N02"}),
    (GambitRemove(), {"type": "gambit_remove"}),
    (Done(), {"type": "done"}),  # R28
    (Ask("blue"), {"type": "ask", "color": "blue"}),  # R29
)


def test_there_is_one_record_per_action_type() -> None:
    assert [cls.type for cls in ACTION_TYPES] == list(SHAPES)
    assert {type(a) for a, _ in EXAMPLES} == set(ACTION_TYPES)


@pytest.mark.parametrize(("action", "data"), EXAMPLES, ids=lambda x: str(x)[:40])
def test_actions_read_and_write_the_first_editions_json(action: object, data: dict) -> None:
    written = action_to_json(action)  # type: ignore[arg-type]
    assert written == data and list(written) == list(data)  # same keys, same order
    assert parse_action(json.loads(json.dumps(data))) == action


@pytest.mark.parametrize(("action", "data"), EXAMPLES, ids=lambda x: str(x)[:40])
def test_actions_are_frozen_slotted_values(action: object, data: dict) -> None:
    assert not hasattr(action, "__dict__")
    field = next(iter(dataclasses.fields(action)), None)  # type: ignore[arg-type]
    if field is not None:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(action, field.name, None)
    assert hash(action) == hash(parse_action(data))


def test_an_offered_action_parses_back_to_the_very_object_offered() -> None:
    state = GAME.start(3).state
    for action in GAME.legal_actions(state, "editor"):
        assert parse_action(action_to_json(action)) is action  # legality is an identity test


def test_client_key_order_does_not_matter() -> None:
    data = {"target": "initiative", "card": "E01", "type": "play_value"}
    assert parse_action(data) == PlayValue("E01", "initiative")


def test_an_unknown_target_is_well_formed_but_illegal() -> None:
    state = GAME.start(3).state
    card = action_to_json(GAME.legal_actions(state, "editor")[0])["card"]
    bogus = {"type": "play_value", "card": card, "target": "the_moon"}
    assert isinstance(parse_action(bogus), PlayValue)
    with pytest.raises(IllegalAction):
        GAME.apply(state, "editor", bogus)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "pass", "card": "E01"}, "Unexpected field 'card' in a pass action."),
        (
            {"type": "pin", "handle": True, "space": "O1"},
            "Field 'handle' of a pin action must be a int.",
        ),
        ({"type": "pin", "handle": 1}, "A pin action needs the field 'space'."),
    ],
)
def test_malformed_actions_keep_their_messages(data: dict, message: str) -> None:
    with pytest.raises(MalformedAction) as caught:
        parse_action(data)
    assert caught.value.message == message


@pytest.mark.ruling("R28")
@pytest.mark.ruling("R29")
def test_offered_done_and_ask_parse_back_to_the_objects_offered() -> None:
    """R28's done and R29's ask, as the wire carries them, are the very actions offered."""
    liddy = position(
        turn="nixon", nixon_hand=["N02", "N13"], editor_hand=["E09"], track=[("T08", 0, True)]
    )
    sloan = position(editor_hand=["E08", "E18"], nixon_hand=["N13"], track=[("T02", 0, False)])
    offered = []
    for s, role, card in ((liddy, "nixon", "N02"), (sloan, "editor", "E08")):
        s = flow.apply(s, role, {"type": "play_action", "card": card}).state
        s, _ = pass_window(s)
        offered += [a for a in flow.legal_actions(s, role) if isinstance(a, Done | Ask)]
    assert offered == [Done(), Ask("blue")]
    for action in offered:
        assert parse_action(json.loads(json.dumps(action_to_json(action)))) is action
