"""A forced choice (issue 42, engine/watergate/forced.py): the seat to move is told its only
action in its view (`forced`) only when everyone could count its options; a single option whose
count is hidden (R11, R29: Nixon is asked "even when only one fits") is never forced. That it is
the same whatever the other seat cannot see is checked with the other noninterference checks
(test_noninterference.py)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.watergate import GAME, current_role
from engine.watergate.actions import ChooseTarget, Pin
from engine.watergate.events import OnlyChoice
from engine.watergate.flow import legal_actions
from engine.watergate.forced import forced_action
from engine.watergate.state import FaceDownD, FallbackD, MatchState, PinD, TargetD, Token
from engine.watergate.views import events_for, open_view, view_for
from tests.engine.watergate.builders import do, pass_window, position
from tests.engine.watergate.test_noninterference import STATES


def _ask_green(track: list[tuple[str, int, bool]], **kw: object) -> MatchState:
    """The Editor plays E11 (green, 1) for its value, asking Nixon for a green token (R11)."""
    s = position(turn="editor", editor_hand=["E11"], nixon_hand=["N01"], track=track, **kw)  # type: ignore[arg-type]
    s, _ = do(s, "editor", {"type": "play_value", "card": "E11", "target": "ask", "color": "green"})
    return s


@pytest.mark.ruling("R11")
def test_r11_nixon_asked_with_one_fitting_token_is_still_asked() -> None:
    """One face-down green token: Nixon has one choice, but the Editor cannot count it."""
    s = _ask_green([("T13", 0, False), ("T01", 0, False)])
    assert isinstance(s.decision, FaceDownD) and len(legal_actions(s, "nixon")) == 1
    assert forced_action(s) is None
    assert "forced" not in view_for(s, "nixon")
    assert GAME.forced(s) is None


@pytest.mark.ruling("R11")
def test_r11_the_editors_one_fallback_is_forced_and_shown_to_it_alone() -> None:
    """No face-down green token (said publicly), the round tokens gained, one face-up green
    token: everyone can count the Editor's one option."""
    s = _ask_green(
        [("T13", 2, True), ("T01", 0, False)], track_initiative=None, track_momentum=None
    )
    assert isinstance(s.decision, FallbackD)
    only = ChooseTarget("evidence", 1)
    assert list(legal_actions(s, "editor")) == [only]
    assert forced_action(s) == ("editor", only)
    assert GAME.forced(s) == ("editor", only)
    assert view_for(s, "editor")["forced"] == {
        "type": "choose_target",
        "target": "evidence",
        "handle": 1,
    }
    assert "forced" not in view_for(s, "nixon")
    assert "forced" not in view_for(s, None)
    assert "forced" not in open_view(s)
    # two options (the momentum token is still on the track): a real choice
    s = _ask_green([("T13", 2, True), ("T01", 0, False)], track_initiative=None)
    assert forced_action(s) is None and "forced" not in view_for(s, "editor")


def test_the_log_line_of_an_only_choice_is_public() -> None:
    for viewer in ("editor", "nixon", None):
        assert events_for([OnlyChoice("nixon")], viewer) == [
            {"type": "only_choice", "role": "nixon"}
        ]
    assert GAME.only_choice("editor") == OnlyChoice("editor")


def test_random_matches_force_public_kinds_only_and_only_single_options() -> None:
    """Forced is a single legal action, of the whitelisted kinds only; and random matches do
    meet both forced choices and single options left to the seat (hidden counts)."""
    seen: Counter[str] = Counter()
    for _, s in STATES:
        role = current_role(s)
        if role is None:
            assert forced_action(s) is None
            continue
        legal, forced = legal_actions(s, role), forced_action(s)
        kind = type(s.decision).__name__
        if forced is not None:
            assert forced == (role, legal[0]) and len(legal) == 1
            assert kind in ("FallbackD", "TargetD", "SpaceD", "PictureD", "CardD", "PinD")
            seen["forced"] += 1
        elif len(legal) == 1:
            assert kind not in ("FallbackD", "SpaceD", "PictureD", "CardD")
            seen[f"left {kind}"] += 1
    assert seen["forced"] > 10 and seen["left FaceDownD"] > 10 and seen["left ReactD"] > 10, seen


def _hugh_sloan(peeked: bool) -> MatchState:
    """Rules version 1 (no question, R29): Hugh Sloan talks moves a blue token the Editor can
    see; one face-up blue token, and a face-down yellow one, peeked by the Editor or not."""
    s = position(
        turn="editor",
        editor_hand=["E08"],
        nixon_hand=["N01"],
        track=[("T01", 1, True), ("T07", 0, False)],
        rules_version="1",
    )
    if peeked:
        s.track[1] = s.track[1]._replace(peeked=True)
    s, _ = do(s, "editor", {"type": "play_action", "card": "E08"})
    s, _ = pass_window(s)
    assert isinstance(s.decision, TargetD)
    assert list(legal_actions(s, "editor")) == [ChooseTarget("evidence", 1)]
    return s


@pytest.mark.ruling("R29")
def test_r29_one_target_is_forced_unless_a_peeked_token_could_have_been_another() -> None:
    """Unpeeked, the face-down token is no option whatever its colour: everyone counts one.
    Peeked, the Editor knows it is not blue but a spectator does not: the count is hidden."""
    assert forced_action(_hugh_sloan(peeked=False)) == ("editor", ChooseTarget("evidence", 1))
    assert forced_action(_hugh_sloan(peeked=True)) is None


@pytest.mark.ruling("R23")
def test_r23_one_pin_is_forced_only_when_every_held_token_is_face_up() -> None:
    """One held token with one open space of its colour: forced when it is face up; a face-down
    one's colours are not public, so its count is not either."""
    for up in (True, False):
        blue = [sp.id for sp in GAME.ruleset.spaces if sp.color == "blue"]
        taken = dict.fromkeys(blue[1:], ("T02", True))
        s = position(turn="editor", editor_hand=["E01"], nixon_hand=["N01"], board=taken).clone()
        s.holding = {"editor": (Token(40, "T01", 0, up, False),), "nixon": ()}
        s.decision = PinD("editor")
        s._legal = None
        assert list(legal_actions(s, "editor")) == [Pin(40, blue[0])]
        assert forced_action(s) == (("editor", Pin(40, blue[0])) if up else None)
