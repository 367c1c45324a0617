"""The rulebook's common instruction "if an instruction states a space of the research track,
move the token to that space" (issue 41: the effect vocabulary could say only "move N steps",
so a printed card list could not be dropped in as data). No card of ours says it yet: these
positions give Carl Bernstein (E02) such an action in data that differs from the shipped one on
purpose, and play it."""

from __future__ import annotations

import copy
from collections.abc import Sequence

from engine.core.game import JSONObject
from engine.watergate import RULES_VERSION
from engine.watergate.catalog import Op
from engine.watergate.describe import describe
from engine.watergate.ruleset import Ruleset, ruleset_from_data
from engine.watergate.standard import GAME
from engine.watergate.state import MatchState
from tests.engine.watergate.builders import act, choice_set, of_type, position, token
from tests.engine.watergate.test_cards_editor import play_action


def bernstein_says(*ops: Op) -> Ruleset:
    """Today's rules with E02's action replaced by `ops`."""
    today = GAME.edition(RULES_VERSION)
    assert today.documents is not None
    cards, tokens, board, momentum = today.documents
    changed: JSONObject = copy.deepcopy(cards)
    entries = changed["cards"]
    assert isinstance(entries, list)
    for entry in entries:
        if isinstance(entry, dict) and entry["id"] == "E02":
            entry["effects"] = [dict(op) for op in ops]
    return ruleset_from_data(changed, tokens, board, momentum, today.version)


def editor_plays(
    rules: Ruleset,
    *,
    track: Sequence[tuple[str, int, bool]] = (),
    track_initiative: int | None = 0,
    track_momentum: int | None = 0,
) -> MatchState:
    s = position(
        turn="editor",
        editor_hand=["E02", "E09"],
        nixon_hand=["N02"],
        track=track,
        track_initiative=track_initiative,
        track_momentum=track_momentum,
    )
    s.rules = rules
    return play_action(s, "E02")


def test_the_initiative_goes_to_the_named_space_on_the_movers_side() -> None:
    rules = bernstein_says({"op": "move_to", "token": "initiative", "space": 3})
    assert editor_plays(rules, track_initiative=-2).track_initiative == 3  # 5 steps on


def test_a_token_past_the_named_space_comes_back_to_it() -> None:
    rules = bernstein_says({"op": "move_to", "token": "momentum", "space": 2})
    assert editor_plays(rules, track_momentum=4).track_momentum == 2


def test_a_space_on_the_opponents_side() -> None:
    rules = bernstein_says(
        {"op": "move_to", "token": "initiative", "space": 1, "toward": "opponent"}
    )
    assert editor_plays(rules, track_initiative=3).track_initiative == -1


def test_a_token_already_on_the_space_does_not_move() -> None:
    """R14: what cannot be carried out is skipped; nothing is logged as a move of no steps."""
    rules = bernstein_says({"op": "move_to", "token": "initiative", "space": 2})
    s = position(turn="editor", editor_hand=["E02", "E09"], nixon_hand=["N02"], track_initiative=2)
    s.rules = rules
    s, events = act(s, "editor", {"type": "play_action", "card": "E02"})
    assert s.track_initiative == 2 and not of_type(events, "token_moved"), describe(s)


def test_a_token_gained_this_round_is_not_moved() -> None:
    """R14: the momentum token already gained this round is off the track."""
    rules = bernstein_says({"op": "move_to", "token": "momentum", "space": 4})
    assert editor_plays(rules, track_momentum=None).track_momentum is None


def test_an_evidence_token_of_the_players_choice_goes_there_face_up() -> None:
    """R13: a face-down token that is moved is turned face up."""
    rules = bernstein_says({"op": "move_to", "token": "evidence", "space": 3})
    s = editor_plays(rules, track=[("T08", -1, False), ("T14", 4, True)])
    assert choice_set(s, "editor", "handle") == {1, 2}, describe(s)
    s, _ = act(s, "editor", {"type": "choose_target", "target": "evidence", "handle": 1})
    moved = token(s, 1)
    assert moved is not None and moved.pos == 3 and moved.up, describe(s)
    assert token(s, 2) is not None and token(s, 2).pos == 4  # type: ignore[union-attr]


def test_an_evidence_token_sent_to_space_five_is_gained_at_once() -> None:
    """R9: a token that reaches space 5 on a side is gained by that side's player."""
    rules = bernstein_says({"op": "move_to", "token": "evidence", "space": 5})
    s = editor_plays(rules, track=[("T08", 1, True)])
    s, events = act(s, "editor", {"type": "choose_target", "target": "evidence", "handle": 1})
    assert token(s, 1) is None and [e["role"] for e in of_type(events, "evidence_gained")] == [
        "editor"
    ], describe(s)
