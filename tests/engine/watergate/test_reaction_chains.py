"""R17 reaction chains, one test per example bullet of rulings.md, checking where every card ends
(hand, discard pile, removed from the game) and what happened on the track. Windows open from
public information only (R18), so a seat may face a window it must pass."""

from __future__ import annotations

import pytest

from engine.watergate.describe import describe
from engine.watergate.standard import RULESET
from engine.watergate.state import BoardToken, MatchState, PinD, PlayD, ReactD
from tests.engine.watergate.builders import act, acts, pass_window, position

SPACE_INDEX = RULESET.space_index

pytestmark = pytest.mark.ruling("R17")


def token(s: MatchState, handle: int):
    return next((t for t in s.track if t.handle == handle), None)


def window_for(s: MatchState, role: str) -> bool:
    return isinstance(s.decision, ReactD) and s.decision.role == role


def react(s: MatchState, role: str, card: str) -> MatchState:
    assert window_for(s, role), describe(s)
    assert {"type": "react", "card": card} in acts(s, role), describe(s)
    s, _ = act(s, role, {"type": "react", "card": card})
    return s


def turn_of(s: MatchState, role: str) -> bool:
    return isinstance(s.decision, PlayD) and s.decision.role == role and s.decision.card == ""


# ---- an Editor event and John Mitchell -----------------------------------------------------


def _editor_event(editor_hand: list[str]) -> MatchState:
    s = position(turn="editor", editor_hand=editor_hand, nixon_hand=["N06", "N13"])
    s, _ = act(s, "editor", {"type": "play_action", "card": "E18"})
    assert s.track_momentum == 0, describe(s)  # the window opens before any effect
    return react(s, "nixon", "N06")


def test_editor_event_cancelled_by_mitchell_goes_to_discard_unused():
    """R17: Editor event → John Mitchell → the event is cancelled; the Editor's card goes to the
    Editor's discard pile unused; Mitchell (a conspirator) to Nixon's discard pile."""
    s = _editor_event(["E18", "E09"])
    assert window_for(s, "editor"), describe(s)  # Bradlee/Mass demonstration are still possible
    s, _ = pass_window(s)
    assert s.track_momentum == 0, describe(s)
    assert list(s.discards["editor"]) == ["E18"] and "E18" not in s.removed, describe(s)
    assert list(s.discards["nixon"]) == ["N06"] and s.hands["nixon"] == ["N13"], describe(s)
    assert s.hands["editor"] == ["E09"] and not s.in_play, describe(s)
    assert turn_of(s, "nixon"), describe(s)  # R8: the reaction did not change whose turn it is


def test_editor_event_mitchell_then_bradlee_event_happens():
    """R17: Editor event → Mitchell → Ben Bradlee → Mitchell is cancelled and removed from the
    game → the event happens (and is removed after use); Bradlee to the Editor's discard."""
    s = _editor_event(["E18", "E03", "E09"])
    s = react(s, "editor", "E03")
    assert not window_for(s, "nixon"), describe(s)
    assert s.track_momentum == 1, describe(s)  # Subpoena: 1 towards the Editor (version 5)
    assert "E18" in s.removed and "N06" in s.removed, describe(s)
    assert list(s.discards["editor"]) == ["E03"] and list(s.discards["nixon"]) == [], describe(s)
    assert s.hands["nixon"] == ["N13"] and not s.in_play, describe(s)
    assert turn_of(s, "nixon"), describe(s)


def test_editor_event_mitchell_then_mass_demonstration_event_happens():
    """R17: Editor event → Mitchell → Mass demonstration → Mitchell removed → the event happens;
    both Editor events are removed after use."""
    s = _editor_event(["E18", "E04", "E09"])
    s = react(s, "editor", "E04")
    assert not window_for(s, "nixon"), describe(s)  # the only Mitchell is already in the chain
    assert s.track_momentum == 1, describe(s)  # Subpoena (version 5)
    assert sorted(s.removed) == ["E04", "E18", "N06"], describe(s)
    assert list(s.discards["editor"]) == [] and list(s.discards["nixon"]) == [], describe(s)
    assert turn_of(s, "nixon"), describe(s)


# ---- a Nixon conspirator and Bradlee / Mass demonstration ----------------------------------


def _conspirator(nixon_hand: list[str], editor_hand: list[str], **kw) -> MatchState:
    s = position(turn="nixon", nixon_hand=nixon_hand, editor_hand=editor_hand, **kw)
    s, _ = act(s, "nixon", {"type": "play_action", "card": "N05"})
    assert window_for(s, "editor") and s.track_momentum == 0, describe(s)
    return s


def test_conspirator_cancelled_by_bradlee_is_removed():
    """R17: Nixon conspirator → Ben Bradlee → the action is cancelled and that conspirator card
    is removed from the game; Bradlee (a journalist) to the Editor's discard."""
    s = _conspirator(["N05", "N13"], ["E03", "E09"])
    s = react(s, "editor", "E03")
    assert s.track_momentum == 0, describe(s)
    assert list(s.removed) == ["N05"] and list(s.discards["nixon"]) == [], describe(s)
    assert list(s.discards["editor"]) == ["E03"] and s.hands["editor"] == ["E09"], describe(s)
    assert turn_of(s, "editor"), describe(s)


def test_conspirator_cancelled_by_mass_demonstration_is_removed():
    """R17: Nixon conspirator → Mass demonstration → the conspirator is removed from the game;
    Mass demonstration (an event) is removed after use."""
    s = _conspirator(["N05", "N06", "N13"], ["E04", "E09"])
    s = react(s, "editor", "E04")
    assert window_for(s, "nixon"), describe(s)  # Mitchell may answer an event
    s, _ = pass_window(s)
    assert s.track_momentum == 0, describe(s)
    assert sorted(s.removed) == ["E04", "N05"], describe(s)
    assert list(s.discards["nixon"]) == [] and list(s.discards["editor"]) == [], describe(s)
    assert s.hands["nixon"] == ["N06", "N13"], describe(s)
    assert turn_of(s, "editor"), describe(s)


def test_conspirator_mass_demonstration_mitchell_conspirator_happens():
    """R17: Nixon conspirator → Mass demonstration → Mitchell → Mass demonstration is cancelled
    (to the Editor's discard pile) → the conspirator's action happens."""
    s = _conspirator(["N05", "N06", "N13"], ["E04", "E09"])
    s = react(s, "editor", "E04")
    s = react(s, "nixon", "N06")
    assert window_for(s, "editor"), describe(s)  # Bradlee could still answer Mitchell
    s, _ = pass_window(s)
    assert s.track_momentum == -2, describe(s)
    assert list(s.discards["editor"]) == ["E04"] and "E04" not in s.removed, describe(s)
    assert sorted(s.discards["nixon"]) == ["N05", "N06"] and list(s.removed) == [], describe(s)
    assert s.hands["nixon"] == ["N13"] and s.hands["editor"] == ["E09"], describe(s)
    assert turn_of(s, "editor"), describe(s)


def test_mitchell_can_never_react_to_ben_bradlee():
    """R17: John Mitchell cannot answer Ben Bradlee (a journalist, not an event): no window opens
    for Nixon although he holds Mitchell, and Mitchell stays in his hand."""
    s = _conspirator(["N05", "N06", "N13"], ["E03", "E09"])
    s = react(s, "editor", "E03")
    assert not window_for(s, "nixon"), describe(s)
    assert s.hands["nixon"] == ["N06", "N13"] and list(s.removed) == ["N05"], describe(s)
    assert list(s.discards["editor"]) == ["E03"] and turn_of(s, "editor"), describe(s)
    # nor to Bradlee's fellow journalists played for their action on the Editor's turn
    s = position(turn="editor", editor_hand=["E02", "E09"], nixon_hand=["N06", "N13"])
    s, _ = act(s, "editor", {"type": "play_action", "card": "E02"})
    assert not window_for(s, "nixon"), describe(s)


# ---- "Follow the money!" -------------------------------------------------------------------


def _value_move(track, nixon_hand, editor_hand, card="N02", **kw) -> MatchState:
    s = position(turn="nixon", nixon_hand=nixon_hand, editor_hand=editor_hand, track=track, **kw)
    s, _ = act(s, "nixon", {"type": "play_value", "card": card, "target": "evidence", "handle": 1})
    assert window_for(s, "editor"), describe(s)
    return s


def test_follow_the_money_moves_the_token_from_its_start_towards_the_editor():
    """R17: Nixon moves an evidence token with a value (N02, 3) → "Follow the money!" → the move
    is undone and the token moves from its start (+1) 3 steps towards the Editor (+4); Nixon's
    card to his discard pile; "Follow the money!" (an event) is removed."""
    s = _value_move([("T08", 1, False)], ["N02", "N06", "N13"], ["E05", "E09"])
    assert token(s, 1).pos == 1, describe(s)
    s = react(s, "editor", "E05")
    assert window_for(s, "nixon"), describe(s)
    s, _ = pass_window(s)
    assert token(s, 1).pos == 4 and token(s, 1).up, describe(s)
    assert list(s.discards["nixon"]) == ["N02"] and list(s.removed) == ["E05"], describe(s)
    assert s.hands["nixon"] == ["N06", "N13"] and not s.in_play, describe(s)
    assert turn_of(s, "editor"), describe(s)


def test_follow_the_money_window_opens_before_nixon_gains_the_token():
    """R17: if Nixon's move would reach space 5, the window opens before the token is gained;
    "Follow the money!" then moves it from its start (−2) 3 steps towards the Editor (+1)."""
    s = _value_move([("T08", -2, True)], ["N02", "N13"], ["E05", "E09"], nixon_discard=["N06"])
    assert token(s, 1).pos == -2 and list(s.holding["nixon"]) == [], describe(s)
    assert not any(s.board), describe(s)
    s = react(s, "editor", "E05")
    assert token(s, 1).pos == 1, describe(s)
    assert list(s.holding["nixon"]) == [] and not any(s.board), describe(s)
    assert list(s.discards["nixon"]) == ["N06", "N02"] and list(s.removed) == ["E05"], describe(s)


def test_follow_the_money_window_passed_nixon_gains_and_pins_face_down():
    """R17 (contrast): when the Editor passes, Nixon's move stands and reaches −5: he gains it."""
    s = _value_move([("T08", -2, True)], ["N02", "N13"], ["E05", "E09"], nixon_discard=["N06"])
    s, _ = pass_window(s)
    assert isinstance(s.decision, PinD) and s.decision.role == "nixon", describe(s)
    s, _ = act(s, "nixon", {"type": "pin", "handle": 1, "space": "O2"})
    assert token(s, 1) is None, describe(s)
    assert s.board[SPACE_INDEX["O2"]] == BoardToken(1, "T08", False), describe(s)
    assert list(s.discards["nixon"]) == ["N06", "N02"] and s.hands["editor"] == ["E05", "E09"]


def test_follow_the_money_cancelled_by_mitchell_nixons_move_stands():
    """R17: value move → "Follow the money!" → Mitchell → "Follow the money!" is cancelled (to the
    Editor's discard pile) and Nixon's move stands (0 → −3)."""
    s = _value_move([("T08", 0, False)], ["N02", "N06", "N13"], ["E05", "E09"])
    s = react(s, "editor", "E05")
    s = react(s, "nixon", "N06")
    assert window_for(s, "editor"), describe(s)
    s, _ = pass_window(s)
    assert token(s, 1).pos == -3 and token(s, 1).up, describe(s)
    assert list(s.discards["editor"]) == ["E05"] and list(s.removed) == [], describe(s)
    assert sorted(s.discards["nixon"]) == ["N02", "N06"], describe(s)
    assert s.hands["nixon"] == ["N13"] and not s.in_play, describe(s)
    assert turn_of(s, "editor"), describe(s)


@pytest.mark.parametrize(
    ("again", "editor_discard", "removed"),
    [("E03", ["E03"], ["E05", "N06"]), ("E04", [], ["E04", "E05", "N06"])],
    ids=["bradlee", "mass-demonstration"],
)
def test_follow_the_money_mitchell_editor_re_reacts(again, editor_discard, removed):
    """R17: value move → "Follow the money!" → Mitchell → the Editor re-reacts with Ben Bradlee
    or Mass demonstration → Mitchell is removed → "Follow the money!" takes effect: the token
    goes from 0 to +3, Nixon's card to his discard pile."""
    s = _value_move([("T08", 0, False)], ["N02", "N06", "N13"], ["E05", again, "E09"])
    s = react(s, "editor", "E05")
    s = react(s, "nixon", "N06")
    s = react(s, "editor", again)
    assert not window_for(s, "nixon"), describe(s)
    assert token(s, 1).pos == 3 and token(s, 1).up, describe(s)
    assert list(s.discards["nixon"]) == ["N02"], describe(s)
    assert list(s.discards["editor"]) == editor_discard, describe(s)
    assert sorted(s.removed) == removed, describe(s)
    assert s.hands["editor"] == ["E09"] and s.hands["nixon"] == ["N13"], describe(s)
    assert not s.in_play and turn_of(s, "editor"), describe(s)


# ---- Howard Hunt's drawn card is a normal play: it can be answered too (R17, R19) -----------


@pytest.mark.ruling("R19")
def test_howard_hunt_drawn_value_move_answered_by_follow_the_money():
    """R17, R19: Hunt moves momentum, draws Gordon Liddy and uses its value (3) on a token at 0 →
    "Follow the money!" → the token goes to +3; Liddy and Hunt to Nixon's discard pile."""
    s = position(
        turn="nixon",
        nixon_hand=["N01", "N13"],
        nixon_deck=["N02"],
        nixon_discard=["N06"],
        editor_hand=["E05", "E09"],
        track=[("T08", 0, False)],
    )
    s, _ = act(s, "nixon", {"type": "play_action", "card": "N01"})
    s, _ = pass_window(s)
    s, _ = act(s, "nixon", {"type": "play_value", "card": "N02", "target": "evidence", "handle": 1})
    s = react(s, "editor", "E05")
    assert token(s, 1).pos == 3 and s.track_momentum == -1, describe(s)
    assert sorted(s.discards["nixon"]) == ["N01", "N02", "N06"], describe(s)
    assert list(s.removed) == ["E05"] and not s.in_play and turn_of(s, "editor"), describe(s)


@pytest.mark.ruling("R19")
def test_howard_hunt_drawn_conspirator_answered_by_bradlee():
    """R17, R19: Hunt's drawn conspirator is a conspirator action: Bradlee cancels it and it is
    removed; Hunt's own momentum move stands and Hunt goes to the discard pile."""
    s = position(
        turn="nixon", nixon_hand=["N01", "N13"], nixon_deck=["N05"], editor_hand=["E03", "E09"]
    )
    s, _ = act(s, "nixon", {"type": "play_action", "card": "N01"})
    s, _ = pass_window(s)
    s, _ = act(s, "nixon", {"type": "play_action", "card": "N05"})
    s = react(s, "editor", "E03")
    assert s.track_momentum == -1 and list(s.removed) == ["N05"], describe(s)
    assert list(s.discards["nixon"]) == ["N01"], describe(s)
    assert list(s.discards["editor"]) == ["E03"], describe(s)
    assert turn_of(s, "editor"), describe(s)
