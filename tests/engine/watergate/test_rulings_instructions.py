"""Rulings R28–R30 (docs/rulings.md): "up to N" is a choice, colour-bound instructions reach
face-down tokens by asking, and a token pushed to your space 5 is yours.

Positions are played by today's rules (version 3) unless a test names version 2, whose older
readings stored matches keep. Expected values are worked out by hand from the rulings.
Tokens used: T02/T03 blue, T08/T09 yellow, T14 green, T28 green/blue.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.watergate import Action, MatchState, Role
from engine.watergate.describe import describe
from engine.watergate.state import AskedD, PictureD, PlayD, TargetD
from engine.watergate.views import events_for, view_for
from tests.engine.watergate.builders import acts, do, of_type, pass_window, position, token

DONE: Action = {"type": "done"}
ASK_BLUE: Action = {"type": "ask", "color": "blue"}


def played(s: MatchState, role: Role, card: str) -> MatchState:
    """`role` plays `card` for its action; every reaction window that opens is passed."""
    s, _ = do(s, role, {"type": "play_action", "card": card})
    while s.decision is not None and type(s.decision).__name__ == "ReactD":
        s, _ = pass_window(s)
    return s


def target(handle: int) -> Action:
    return {"type": "choose_target", "target": "evidence", "handle": handle}


def nixon(hand: list[str], **kw: Any) -> MatchState:
    return position(turn="nixon", nixon_hand=hand, editor_hand=["E09"], **kw)


def editor(hand: list[str], **kw: Any) -> MatchState:
    return position(turn="editor", editor_hand=hand, nixon_hand=["N13"], **kw)


# ---- R28: "up to N" is a choice ---------------------------------------------------------------

LIDDY_TRACK = [("T08", 2, True), ("T14", 0, False), ("T03", 1, True)]


@pytest.mark.ruling("R28")
def test_r28_gordon_liddy_may_stop_after_his_first_move() -> None:
    """R28: "move up to 2 evidence tokens": after one move Nixon may say done."""
    s = played(nixon(["N02", "N13"], track=LIDDY_TRACK), "nixon", "N02")
    assert acts(s, "nixon") == [target(1), target(2), target(3), DONE], describe(s)
    s, _ = do(s, "nixon", target(1))
    assert acts(s, "nixon") == [target(2), target(3), DONE], describe(s)
    s, events = do(s, "nixon", DONE)
    assert [(t.handle, t.pos, t.up) for t in s.track] == [(1, 0, True), (2, 0, False), (3, 1, True)]
    assert of_type(events_for(events, "editor"), "instruction_stopped") == [
        {"type": "instruction_stopped", "role": "nixon", "source": "N02"}
    ]
    assert list(s.discards["nixon"]) == ["N02"] and s.in_play == [], describe(s)
    assert s.decision == PlayD("editor", "", 1), describe(s)


@pytest.mark.ruling("R28")
def test_r28_up_to_n_includes_none() -> None:
    """R28: any number from 0 to N: Liddy may move nothing at all."""
    s = played(nixon(["N02", "N13"], track=LIDDY_TRACK), "nixon", "N02")
    s, _ = do(s, "nixon", DONE)
    assert [t.pos for t in s.track] == [2, 0, 1], describe(s)
    assert list(s.discards["nixon"]) == ["N02"], describe(s)


@pytest.mark.ruling("R28")
def test_r28_a_third_rate_burglary_need_not_bin_nixons_own_hidden_token() -> None:
    """R28: N10 returns "up to 2" tokens on 0 or the Editor's side; Nixon takes the Editor's
    token and keeps his own face-down one on space 0."""
    track = [("T08", 0, False), ("T14", 2, True)]
    s = played(nixon(["N10", "N13"], track=track, bag=[]), "nixon", "N10")
    s, _ = do(s, "nixon", target(2))
    assert acts(s, "nixon") == [target(1), DONE], describe(s)
    s, _ = do(s, "nixon", DONE)
    assert [(t.id, t.pos, t.up) for t in s.track] == [("T08", 0, False)], describe(s)
    assert list(s.bag) == ["T14"] and list(s.removed) == ["N10"], describe(s)


@pytest.mark.ruling("R28")
def test_r28_version_2_forced_the_burglary_to_take_both() -> None:
    """R28 is rules version 3: a stored version-2 match keeps "as many as possible" (R14)."""
    track = [("T08", 0, False), ("T14", 2, True)]
    s = nixon(["N10", "N13"], track=track, bag=[], rules_version="2")
    s = played(s, "nixon", "N10")
    assert DONE not in acts(s, "nixon"), describe(s)
    s, _ = do(s, "nixon", target(2))
    assert acts(s, "nixon") == [target(1)], describe(s)


@pytest.mark.ruling("R28")
def test_r28_stopping_one_instruction_leaves_the_rest_of_the_card() -> None:
    """R28, R14: done ends only "remove up to 2 face-up tokens"; Saturday Night Massacre still
    moves the momentum token 2 towards the Editor."""
    board = {"O1": ("T02", True), "I1": ("T03", True)}
    s = played(nixon(["N12", "N13"], board=board, bag=[]), "nixon", "N12")
    s, _ = do(s, "nixon", {"type": "choose_space", "space": "O1"})
    assert acts(s, "nixon") == [{"type": "choose_space", "space": "I1"}, DONE], describe(s)
    s, _ = do(s, "nixon", DONE)
    assert s.board[s.rules.space_index["I1"]] is not None and list(s.bag) == ["T02"], describe(s)
    assert s.track_momentum == 2 and list(s.removed) == ["N12"], describe(s)


@pytest.mark.ruling("R28")
def test_r28_bob_haldeman_may_turn_one_token_face_down() -> None:
    """R28: "turn up to 2 face-up board tokens face down"."""
    board = {"O1": ("T02", True), "I1": ("T03", True)}
    s = played(nixon(["N04", "N13"], board=board), "nixon", "N04")
    s, _ = do(s, "nixon", {"type": "choose_space", "space": "I1"})
    s, _ = do(s, "nixon", DONE)
    faces = {sp: b.up for sp, i in s.rules.space_index.items() if (b := s.board[i]) is not None}
    assert faces == {"O1": True, "I1": False} and list(s.discards["nixon"]) == ["N04"], describe(s)


@pytest.mark.ruling("R28")
@pytest.mark.ruling("R14")
def test_r28_without_up_to_there_is_no_done() -> None:
    """R28: "turn 1 board token face up" (E16) and "move 1 evidence token" (E15) say no "up
    to": R14 applies, so only the targets are offered."""
    s = played(editor(["E16", "E18"], board={"O4": ("T14", False)}), "editor", "E16")
    assert acts(s, "editor") == [{"type": "choose_space", "space": "O4"}], describe(s)
    s = played(editor(["E15", "E18"], track=[("T08", 0, False)]), "editor", "E15")
    assert acts(s, "editor") == [target(1)], describe(s)


# ---- R29: colour-bound instructions reach face-down tokens by asking ----------------------------

HIDDEN = [("T08", 0, False), ("T02", 0, False), ("T28", 0, False)]  # yellow, blue, green/blue


@pytest.mark.ruling("R29")
def test_r29_hugh_sloan_talks_asks_for_blue_early_in_a_round() -> None:
    """R29: every token is face down; E08's "move 1 blue token 1" asks Nixon, who picks one of
    his blue face-down tokens; it is turned face up and moved towards the Editor."""
    s = played(editor(["E08", "E18"], track=HIDDEN), "editor", "E08")
    assert isinstance(s.decision, TargetD) and acts(s, "editor") == [ASK_BLUE], describe(s)
    s, events = do(s, "editor", ASK_BLUE)
    assert of_type(events, "face_down_asked") == [
        {"type": "face_down_asked", "role": "editor", "color": "blue"}
    ]
    assert isinstance(s.decision, AskedD), describe(s)
    assert acts(s, "nixon") == [
        {"type": "choose_token", "handle": 2},
        {"type": "choose_token", "handle": 3},
    ]
    assert acts(s, "editor") == []
    seen = view_for(s, "editor")["decision"]
    assert (seen["role"], seen["kind"], seen["card"], seen["color"]) == (
        "nixon",
        "choose_face_down",
        "E08",
        "blue",
    )
    s, events = do(s, "nixon", {"type": "choose_token", "handle": 3})
    revealed = of_type(events_for(events, "editor"), "token_revealed")
    assert revealed[0]["token"]["colors"] == ["green", "blue"], revealed
    assert (token(s, 3).pos, token(s, 3).up) == (1, True), describe(s)
    assert not token(s, 2).up and list(s.removed) == ["E08"], describe(s)
    assert s.decision == PlayD("nixon", "", 1), describe(s)


@pytest.mark.ruling("R29")
def test_r29_no_face_down_token_of_the_colour_then_a_face_up_one() -> None:
    """R29: Nixon has no blue face-down token: said publicly; the Editor then chooses among the
    face-up blue tokens (and cannot ask again)."""
    s = played(editor(["E08", "E18"], track=[("T08", 0, False), ("T02", 1, True)]), "editor", "E08")
    assert acts(s, "editor") == [target(2), ASK_BLUE], describe(s)
    s, events = do(s, "editor", ASK_BLUE)
    assert of_type(events_for(events, "editor"), "face_down_denied") == [
        {"type": "face_down_denied", "role": "nixon", "color": "blue"}
    ]
    assert acts(s, "editor") == [target(2)], describe(s)
    s, _ = do(s, "editor", target(2))
    assert [(t.handle, t.pos) for t in s.track] == [(1, 0), (2, 2)], describe(s)


@pytest.mark.ruling("R29")
@pytest.mark.ruling("R14")
def test_r29_nothing_of_the_colour_anywhere_skips_that_part() -> None:
    """R29, R14: no blue token face down nor face up: the move is skipped, the card removed."""
    s = played(editor(["E08", "E18"], track=[("T08", 0, False)]), "editor", "E08")
    s, _ = do(s, "editor", ASK_BLUE)
    assert s.decision == PlayD("nixon", "", 1) and list(s.removed) == ["E08"], describe(s)
    assert [(t.pos, t.up) for t in s.track] == [(0, False)], describe(s)


@pytest.mark.ruling("R29")
@pytest.mark.ruling("R11")
def test_r29_executive_privilege_bars_the_question_as_it_bars_r11s() -> None:
    """R29 asks "exactly as in R11", so Executive privilege's no-asking holds: the blue face-down
    token cannot be reached and the move is skipped."""
    s = editor(["E08", "E18"], track=[("T02", 0, False)], restrictions=["editor_no_ask"])
    s = played(s, "editor", "E08")
    assert s.decision == PlayD("nixon", "", 1), describe(s)
    assert [(t.pos, t.up) for t in s.track] == [(0, False)], describe(s)


@pytest.mark.ruling("R29")
def test_r29_the_question_is_offered_from_public_information_only() -> None:
    """R29, R18: whether the face-down tokens are blue or not, the Editor is offered the same."""
    seen = []
    for ids in (["T02", "T03"], ["T08", "T14"]):
        s = editor(["E08", "E18"], track=[(i, 0, False) for i in ids])
        s = played(s, "editor", "E08")
        seen.append((view_for(s, "editor"), acts(s, "editor")))
    assert seen[0] == seen[1] and seen[0][1] == [ASK_BLUE]


@pytest.mark.ruling("R29")
def test_r29_version_2_left_the_blue_move_dead_early_in_a_round() -> None:
    """R29 is rules version 3: under version 2 a stored match keeps the old reading, where only
    a blue token the Editor had seen could be moved."""
    s = editor(["E08", "E18"], track=HIDDEN, rules_version="2")
    s = played(s, "editor", "E08")
    assert s.decision == PlayD("nixon", "", 1), describe(s)
    assert all(not t.up and t.pos == 0 for t in s.track), describe(s)


# ---- R30: pushed to your space 5, gained by you --------------------------------------------------


@pytest.mark.ruling("R30")
@pytest.mark.parametrize("version", ["2", "3"])
def test_r30_saturday_night_massacre_pushes_momentum_to_the_editor_who_gains_it(
    version: str,
) -> None:
    """R30: Nixon's N12 moves the momentum token 2 towards the Editor from her space 3: it
    reaches her space 5, so she gains it at once and her momentum card's first space runs (pin a
    picture). The engine always read it so; the ruling holds in every version."""
    s = nixon(["N12", "N13"], track_momentum=3, rules_version=version)
    s, events = do(s, "nixon", {"type": "play_action", "card": "N12"})
    assert of_type(events, "momentum_gained") == [{"type": "momentum_gained", "role": "editor"}]
    assert s.track_momentum is None and s.momentum == {"editor": 1, "nixon": 0}, describe(s)
    assert isinstance(s.decision, PictureD) and s.decision.role == "editor", describe(s)
    s, _ = do(s, "editor", {"type": "choose_picture", "person": "john_dean"})
    assert s.pictures[s.rules.person_index["john_dean"]] == "up", describe(s)
    assert s.decision == PlayD("editor", "", 1), describe(s)
