"""Ruling R35 (rulings.md): every instruction of the Editor's momentum card does something. Rules
version 4 words space 2 anew: the Editor pins a picture from the supply face up, as space 1 does,
instead of looking at the face-down track tokens, which at evaluation step 3 (where the second
momentum token is usually gained) had nothing left to look at. Versions up to 3 keep the old
wording, so their stored matches replay as they were played.

The position: the Editor already holds one momentum token; the round's momentum token stands on
the Editor's side; both play a value to the initiative, the round ends, and evaluation step 3
gives the Editor its second token, on space 2."""

from __future__ import annotations

import pytest

from engine.watergate import Action, Event, MatchState
from engine.watergate.describe import describe
from engine.watergate.state import PictureD
from engine.watergate.views import view_for
from tests.engine.watergate.builders import act, acts, of_type, position

PEOPLE_LEFT = {"hugh_sloan", "alfred_baldwin", "rose_mary_woods", "john_dean", "james_mccord"}


def value(card: str, target: str) -> Action:
    return {"type": "play_value", "card": card, "target": target}


def second_momentum_token(rules_version: str) -> tuple[MatchState, list[Event]]:
    s = position(
        editor_hand=["E18"],
        nixon_hand=["N13"],
        momentum={"editor": 1},
        track_momentum=2,
        pictures={"martha_mitchell": "up", "alexander_butterfield": "down"},
        rules_version=rules_version,
    )
    s, _ = act(s, "editor", value("E18", "initiative"))
    s, events = act(s, "nixon", value("N13", "initiative"))
    placed = of_type(events, "momentum_placed")
    assert [(e["role"], e["space"]) for e in placed] == [("editor", 2)], describe(s)
    return s, events


@pytest.mark.ruling("R35")
def test_r35_the_second_momentum_space_pins_a_picture_face_up() -> None:
    s, _ = second_momentum_token("4")
    assert isinstance(s.decision, PictureD) and s.decision.role == "editor", describe(s)
    offered = {str(a["person"]) for a in acts(s, "editor")}
    assert offered == PEOPLE_LEFT, "any picture still in the supply, none already pinned"
    s, events = act(s, "editor", {"type": "choose_picture", "person": "john_dean"})
    assert [e["person"] for e in of_type(events, "picture_pinned")] == ["john_dean"]
    pictures = view_for(s, "nixon")["board"]["pictures"]
    assert pictures["john_dean"] == "up", "recruited: face up, seen by both"


@pytest.mark.ruling("R35")
def test_r35_versions_before_4_keep_looking_at_the_track() -> None:
    s, events = second_momentum_token("3")
    # version 3 still looks at the track tokens; with none face down the look is skipped, and
    # the log says why (R14, issue 42): the very case R35 replaced
    looked = [(e["source"], e["reason"]) for e in of_type(events, "instruction_skipped")]
    assert looked == [("M2", "nothing_hidden")], "version 3 still looks at the track tokens"
    assert not isinstance(s.decision, PictureD), describe(s)
    assert view_for(s, "nixon")["board"]["pictures"].get("john_dean") is None
