"""The action part of each Editor card (E01–E20) as game-data.md and cards.json describe it, and
where each card goes after use (R15): events are removed from the game, journalists are
discarded. Requirements (R16: E06, E12, E19), The system works (R22), "Follow the money!"
gaining a token for the Editor, and the rulebook's worked example of the value part (R10, R11).
The reaction cards E03–E05 are covered further in test_reaction_chains.py."""

from __future__ import annotations

import pytest

from engine.watergate.describe import describe
from engine.watergate.state import CardD, FaceDownD, FallbackD, MatchState, PinD, PlayD, ReactD
from tests.engine.watergate.builders import (
    act,
    acts,
    board,
    choice_set,
    of_type,
    pass_window,
    picture,
    position,
    token,
)

OTHERS = ["N02"]  # Nixon keeps a card so that the round does not end
YELLOW_SPACES = {"O2", "O3", "O8", "O9", "O13", "I2", "I5"}
GREEN_SPACES = {"O4", "O5", "O10", "O11", "I3", "I6", "I7"}


def settle(s: MatchState) -> MatchState:
    """Pass every reaction window that opens (R18: e.g. Nixon's window for John Mitchell)."""
    while isinstance(s.decision, ReactD):
        s, _ = pass_window(s)
    return s


def play_action(s: MatchState, card: str, role: str = "editor") -> MatchState:
    assert {"type": "play_action", "card": card} in acts(s, role), describe(s)
    s, _ = act(s, role, {"type": "play_action", "card": card})
    return settle(s)


def assert_removed(s: MatchState, card: str) -> None:
    """R15: an event leaves the game after use."""
    assert card in s.removed and card not in s.discards["editor"], describe(s)
    assert card not in s.hands["editor"] and card not in s.in_play, describe(s)


def assert_discarded(s: MatchState, card: str) -> None:
    """R15: a journalist goes to the Editor's discard pile after use."""
    assert card in s.discards["editor"] and card not in s.removed, describe(s)
    assert card not in s.hands["editor"] and card not in s.in_play, describe(s)


def editor_to_play(**kw) -> MatchState:
    kw.setdefault("nixon_hand", OTHERS)
    return position(turn="editor", **kw)


# ---- journalists and reaction cards --------------------------------------------------------


def test_e01_bob_woodward_peeks_then_moves_one_token_two():
    s = editor_to_play(editor_hand=["E01", "E09"], track=[("T08", 0, False), ("T14", -1, True)])
    s = play_action(s, "E01")
    assert token(s, 1).peeked and not token(s, 1).up, describe(s)
    assert choice_set(s, "editor", "handle") == {1, 2}, describe(s)
    s, _ = act(s, "editor", {"type": "choose_target", "target": "evidence", "handle": 1})
    assert token(s, 1).pos == 2 and token(s, 1).up, describe(s)
    assert token(s, 2).pos == -1, describe(s)
    assert_discarded(s, "E01")


def test_e02_carl_bernstein_moves_a_token_two_and_initiative_one():
    s = editor_to_play(editor_hand=["E02", "E09"], track=[("T03", -1, True), ("T08", 0, True)])
    s = play_action(s, "E02")
    s, _ = act(s, "editor", {"type": "choose_target", "target": "evidence", "handle": 1})
    assert token(s, 1).pos == 1 and token(s, 2).pos == 0, describe(s)
    assert s.track_initiative == 1, describe(s)
    assert_discarded(s, "E02")


@pytest.mark.ruling("R17")
def test_e03_ben_bradlee_cancels_a_conspirator_which_is_removed():
    """R17: Bradlee cancels a conspirator's action; the conspirator leaves the game."""
    s = position(turn="nixon", nixon_hand=["N03", "N13"], editor_hand=["E03", "E09"])
    s, _ = act(s, "nixon", {"type": "play_action", "card": "N03"})
    s, _ = act(s, "editor", {"type": "react", "card": "E03"})
    assert s.track_initiative == 0, describe(s)
    assert "N03" in s.removed and "N03" not in s.discards["nixon"], describe(s)
    assert_discarded(s, "E03")


@pytest.mark.ruling("R17")
def test_e04_mass_demonstration_cancels_a_conspirator_and_is_removed():
    """R17: Mass demonstration works as Bradlee but is an event: removed after use."""
    s = position(
        turn="nixon", nixon_hand=["N05", "N13"], nixon_discard=["N06"], editor_hand=["E04", "E09"]
    )
    s, _ = act(s, "nixon", {"type": "play_action", "card": "N05"})
    s, _ = act(s, "editor", {"type": "react", "card": "E04"})
    assert s.track_momentum == 0 and "N05" in s.removed, describe(s)
    assert_removed(s, "E04")


@pytest.mark.ruling("R17")
@pytest.mark.ruling("R9")
def test_e05_follow_the_money_reaching_space_five_gains_the_token_for_the_editor():
    """R17: the token moves from where it stood (+2) by Nixon's value 4: it reaches +5 and the
    Editor gains and pins it face up; Nixon's card is discarded unused."""
    s = position(
        turn="nixon",
        nixon_hand=["N09", "N13"],
        nixon_discard=["N06"],
        editor_hand=["E05", "E09"],
        track=[("T08", 2, False)],
    )
    s, _ = act(s, "nixon", {"type": "play_value", "card": "N09", "target": "evidence", "handle": 1})
    assert isinstance(s.decision, ReactD) and s.decision.role == "editor", describe(s)
    assert token(s, 1).pos == 2, describe(s)
    s, _ = act(s, "editor", {"type": "react", "card": "E05"})
    assert isinstance(s.decision, PinD) and s.decision.role == "editor", describe(s)
    assert token(s, 1) is None and [t.id for t in s.holding["editor"]] == ["T08"], describe(s)
    assert {(a["handle"], a["space"]) for a in acts(s, "editor")} == {
        (1, sp) for sp in YELLOW_SPACES
    }
    s, _ = act(s, "editor", {"type": "pin", "handle": 1, "space": "O2"})
    assert board(s, "O2").id == "T08" and board(s, "O2").up, describe(s)
    assert list(s.discards["nixon"]) == ["N06", "N09"] and "N09" not in s.removed, describe(s)
    assert_removed(s, "E05")


# ---- E06 The system works (R22) ------------------------------------------------------------


@pytest.mark.ruling("R22")
@pytest.mark.ruling("R16")
def test_e06_system_works_needs_a_removed_own_non_reaction_card():
    s = editor_to_play(editor_hand=["E06", "E09"], removed=["E04", "E05", "N13"])
    assert {"type": "play_action", "card": "E06"} not in acts(s, "editor"), describe(s)
    s = editor_to_play(editor_hand=["E06", "E09"], removed=["E04", "E18"])
    assert {"type": "play_action", "card": "E06"} in acts(s, "editor"), describe(s)


@pytest.mark.ruling("R22")
@pytest.mark.ruling("R32")
def test_e06_system_works_replays_a_removed_card_and_both_end_removed():
    s = editor_to_play(editor_hand=["E06", "E09"], removed=["E18", "E04", "N13"])
    s = play_action(s, "E06")
    assert isinstance(s.decision, CardD), describe(s)
    assert acts(s, "editor") == [{"type": "choose_card", "card": "E18"}], describe(s)
    s, _ = act(s, "editor", {"type": "choose_card", "card": "E18"})
    s = settle(s)  # R32: the replayed event is announced, so Nixon's window opens first
    assert s.track_momentum == 1, describe(s)  # Subpoena moves 1 from version 5
    assert_removed(s, "E06")
    assert s.removed.count("E18") == 1 and "E18" not in s.discards["editor"], describe(s)


# ---- E07–E20 events ------------------------------------------------------------------------


def test_e07_deep_throat_only_looks_at_the_track_from_version_5():
    """Rules version 5 (docs/balance.md): the Editor sees Nixon's face-down track tokens (and
    keeps seeing them), nothing is pinned and the bag is untouched."""
    s = editor_to_play(editor_hand=["E07", "E09"], track=[("T08", 0, False)], bag=["T15"])
    s = play_action(s, "E07")
    assert token(s, 1).peeked and not token(s, 1).up, describe(s)
    assert not s.holding["editor"] and list(s.bag) == ["T15"], describe(s)
    assert isinstance(s.decision, PlayD) and s.decision.role == "nixon", describe(s)
    assert_removed(s, "E07")


def test_e07_deep_throat_peeks_and_pins_one_token_from_the_bag_face_up_until_version_4():
    s = editor_to_play(
        editor_hand=["E07", "E09"], track=[("T08", 0, False)], bag=["T15"], rules_version="4"
    )
    s = play_action(s, "E07")
    assert token(s, 1).peeked and not token(s, 1).up, describe(s)
    assert isinstance(s.decision, PinD) and s.decision.role == "editor", describe(s)
    handle = s.holding["editor"][0].handle
    assert {a["space"] for a in acts(s, "editor")} == GREEN_SPACES, describe(s)
    s, _ = act(s, "editor", {"type": "pin", "handle": handle, "space": "I3"})
    assert board(s, "I3").id == "T15" and board(s, "I3").up and list(s.bag) == [], describe(s)
    assert_removed(s, "E07")


def test_e08_hugh_sloan_talks_pins_sloan_and_moves_a_blue_token_one():
    track = [("T02", 0, True), ("T08", 0, True), ("T28", -2, True)]
    s = play_action(editor_to_play(editor_hand=["E08", "E09"], track=track), "E08")
    assert picture(s, "hugh_sloan") == "up", describe(s)
    assert choice_set(s, "editor", "handle") == {1, 3}, describe(s)
    s, _ = act(s, "editor", {"type": "choose_target", "target": "evidence", "handle": 3})
    assert [t.pos for t in s.track] == [0, 0, -1], describe(s)
    assert_removed(s, "E08")


@pytest.mark.parametrize(
    ("card", "person"),
    [
        ("E09", "alfred_baldwin"),
        ("E10", "james_mccord"),
        ("E11", "martha_mitchell"),
        ("E14", "rose_mary_woods"),
    ],
)
def test_pin_picture_events_pin_their_person_face_up(card: str, person: str):
    s = play_action(editor_to_play(editor_hand=[card, "E18"]), card)
    assert picture(s, person) == "up", describe(s)
    assert sum(p is not None for p in s.pictures) == 1, describe(s)
    assert_removed(s, card)


@pytest.mark.ruling("R14")
def test_e11_picture_already_pinned_by_nixon_is_skipped():
    s = editor_to_play(editor_hand=["E11", "E18"], pictures={"martha_mitchell": "down"})
    s = play_action(s, "E11")
    assert picture(s, "martha_mitchell") == "down", describe(s)
    assert_removed(s, "E11")


@pytest.mark.ruling("R16")
@pytest.mark.parametrize(
    "pictures",
    [{}, {"john_dean": "up"}, {"hugh_sloan": "down"}],
    ids=["none", "only-dean", "face-down"],
)
def test_e12_john_dean_testifies_needs_another_face_up_picture(pictures):
    s = editor_to_play(editor_hand=["E12", "E18"], pictures=pictures)
    assert {"type": "play_action", "card": "E12"} not in acts(s, "editor"), describe(s)
    assert {"type": "play_value", "card": "E12", "target": "momentum"} in acts(s, "editor")


def test_e12_john_dean_testifies_only_pins_dean_from_version_5():
    """Rules version 5 (docs/balance.md): the face-down board tokens stay face down."""
    s = editor_to_play(
        editor_hand=["E12", "E18"],
        pictures={"hugh_sloan": "up"},
        board={"O13": ("T09", False), "O4": ("T14", False)},
    )
    s = play_action(s, "E12")
    assert picture(s, "john_dean") == "up", describe(s)
    assert not board(s, "O13").up and not board(s, "O4").up, describe(s)
    assert isinstance(s.decision, PlayD) and s.decision.role == "nixon", describe(s)
    assert_removed(s, "E12")


def test_e12_john_dean_testifies_pins_dean_and_turns_a_board_token_up_until_version_4():
    s = editor_to_play(
        editor_hand=["E12", "E18"],
        pictures={"hugh_sloan": "up"},
        board={"O13": ("T09", False), "O4": ("T14", False), "O2": ("T08", True)},
        rules_version="4",
    )
    s = play_action(s, "E12")
    assert picture(s, "john_dean") == "up", describe(s)
    assert choice_set(s, "editor", "space") == {"O13", "O4"}, describe(s)
    s, _ = act(s, "editor", {"type": "choose_space", "space": "O13"})
    assert board(s, "O13").up and not board(s, "O4").up, describe(s)
    assert_removed(s, "E12")


def test_e13_butterfield_pins_his_picture_and_moves_every_green_token_one():
    track = [
        ("T14", 0, False),  # green, face down: turned up and moved
        ("T23", -2, True),  # yellow/green
        ("T28", 4, False),  # green/blue: reaches +5 and is gained by the Editor
        ("T08", 0, False),  # yellow: stays
        ("T02", 1, True),  # blue: stays
    ]
    s = play_action(editor_to_play(editor_hand=["E13", "E18"], track=track), "E13")
    assert picture(s, "alexander_butterfield") == "up", describe(s)
    assert isinstance(s.decision, PinD) and s.holding["editor"][0].id == "T28", describe(s)
    s, _ = act(s, "editor", {"type": "pin", "handle": 3, "space": "O6"})
    assert board(s, "O6").id == "T28" and board(s, "O6").up, describe(s)
    assert [(t.id, t.pos, t.up) for t in s.track] == [
        ("T14", 1, True),
        ("T23", -1, True),
        ("T08", 0, False),
        ("T02", 1, True),
    ], describe(s)
    assert_removed(s, "E13")


def test_e15_pentagon_papers_moves_one_evidence_token_two_towards_the_editor():
    """Tuned in docs/balance.md: it used to pin a token from the bag."""
    s = editor_to_play(
        editor_hand=["E15", "E18"], track=[("T02", -1, True), ("T08", 0, False)], bag=["T03"]
    )
    s = play_action(s, "E15")
    assert choice_set(s, "editor", "handle") == {1, 2}, describe(s)
    s, _ = act(s, "editor", {"type": "choose_target", "target": "evidence", "handle": 2})
    moved = next(t for t in s.track if t.handle == 2)
    assert moved.pos == 2 and moved.up and list(s.bag) == ["T03"], describe(s)
    assert_removed(s, "E15")


def test_e16_senate_committee_turns_one_board_token_face_up():
    s = editor_to_play(
        editor_hand=["E16", "E18"],
        board={"O1": ("T02", False), "O4": ("T14", True), "I1": ("T03", False)},
    )
    s = play_action(s, "E16")
    assert choice_set(s, "editor", "space") == {"O1", "I1"}, describe(s)
    s, _ = act(s, "editor", {"type": "choose_space", "space": "I1"})
    assert board(s, "I1").up and not board(s, "O1").up, describe(s)
    assert_removed(s, "E16")


def test_e17_maximum_john_sirica_turns_a_face_down_picture_up():
    s = editor_to_play(
        editor_hand=["E17", "E18"], pictures={"john_dean": "down", "hugh_sloan": "up"}
    )
    s = play_action(s, "E17")
    assert acts(s, "editor") == [{"type": "choose_picture", "person": "john_dean"}]
    s, _ = act(s, "editor", {"type": "choose_picture", "person": "john_dean"})
    assert picture(s, "john_dean") == "up", describe(s)
    assert_removed(s, "E17")


def test_e18_subpoena_moves_momentum_one_towards_the_editor_from_version_5():
    s = play_action(editor_to_play(editor_hand=["E18", "E09"], track_momentum=-1), "E18")
    assert s.track_momentum == 0, describe(s)
    assert_removed(s, "E18")


def test_e18_subpoena_moves_momentum_two_towards_the_editor_until_version_4():
    s = editor_to_play(editor_hand=["E18", "E09"], track_momentum=-1, rules_version="4")
    s = play_action(s, "E18")
    assert s.track_momentum == 1, describe(s)
    assert_removed(s, "E18")


@pytest.mark.ruling("R16")
def test_e19_united_states_v_nixon_needs_two_face_up_pictures():
    s = editor_to_play(
        editor_hand=["E19", "E18"], pictures={"hugh_sloan": "up", "john_dean": "down"}
    )
    assert {"type": "play_action", "card": "E19"} not in acts(s, "editor"), describe(s)


def test_e19_united_states_v_nixon_pins_one_token_from_the_bag_face_up():
    """Tuned in docs/balance.md: it used to pin two."""
    s = editor_to_play(
        editor_hand=["E19", "E18"],
        pictures={"hugh_sloan": "up", "john_dean": "up"},
        bag=["T02"],
    )
    s = play_action(s, "E19")
    held = {t.id: t.handle for t in s.holding["editor"]}
    assert sorted(held) == ["T02"], describe(s)
    s, _ = act(s, "editor", {"type": "pin", "handle": held["T02"], "space": "O6"})
    assert board(s, "O6").up and list(s.bag) == [], describe(s)
    assert_removed(s, "E19")


def test_e20_front_page_moves_momentum_and_initiative_two():
    s = play_action(editor_to_play(editor_hand=["E20", "E09"], track_initiative=-1), "E20")
    assert s.track_momentum == 2 and s.track_initiative == 1, describe(s)
    assert_removed(s, "E20")


# ---- the rulebook's worked example of the value part (R10, R11) ----------------------------


def _example() -> MatchState:
    return editor_to_play(
        editor_hand=["E14", "E09"],
        track=[
            ("T08", 0, True),  # 1 yellow
            ("T20", 1, True),  # 2 blue/yellow
            ("T02", 0, True),  # 3 blue: not the card's colour
            ("T14", 0, True),  # 4 green
            ("T28", -1, True),  # 5 green/blue
            ("T09", 0, False),  # 6 yellow, face down
            ("T23", -1, False),  # 7 yellow/green, face down
            ("T03", 0, False),  # 8 blue, face down
        ],
    )


@pytest.mark.ruling("R10")
@pytest.mark.ruling("R11")
def test_worked_example_yellow_two_offers_exactly_the_rulebook_options():
    s = _example()
    value = [a for a in acts(s, "editor") if a["card"] == "E14" and a["type"] == "play_value"]
    assert sorted(map(str, value)) == sorted(
        map(
            str,
            [
                {"type": "play_value", "card": "E14", "target": "initiative"},
                {"type": "play_value", "card": "E14", "target": "momentum"},
                {"type": "play_value", "card": "E14", "target": "evidence", "handle": 1},
                {"type": "play_value", "card": "E14", "target": "evidence", "handle": 2},
                {"type": "play_value", "card": "E14", "target": "ask", "color": "yellow"},
            ],
        )
    ), describe(s)


@pytest.mark.ruling("R11")
def test_worked_example_ask_nixon_must_flip_and_move_a_yellow_token_two():
    s = _example()
    ask = {"type": "play_value", "card": "E14", "target": "ask", "color": "yellow"}
    s, _ = act(s, "editor", ask)
    assert isinstance(s.decision, FaceDownD) and s.decision.role == "nixon", describe(s)
    assert choice_set(s, "nixon", "handle") == {6, 7}, describe(s)
    s, _ = act(s, "nixon", {"type": "choose_token", "handle": 7})
    assert token(s, 7).up and token(s, 7).pos == 1, describe(s)
    assert not token(s, 6).up and token(s, 6).pos == 0, describe(s)
    assert not token(s, 8).up, describe(s)
    assert list(s.discards["editor"]) == ["E14"], describe(s)


@pytest.mark.ruling("R11")
def test_worked_example_no_face_down_yellow_editor_chooses_another_option():
    s = editor_to_play(
        editor_hand=["E14", "E09"],
        track=[("T08", 0, True), ("T03", 0, False), ("T02", 1, True)],
    )
    ask = {"type": "play_value", "card": "E14", "target": "ask", "color": "yellow"}
    s, ev = act(s, "editor", ask)
    assert of_type(ev, "face_down_denied"), ev
    assert isinstance(s.decision, FallbackD) and s.decision.role == "editor", describe(s)
    assert sorted(map(str, acts(s, "editor"))) == sorted(
        map(
            str,
            [
                {"type": "choose_target", "target": "initiative"},
                {"type": "choose_target", "target": "momentum"},
                {"type": "choose_target", "target": "evidence", "handle": 1},
            ],
        )
    ), describe(s)
    s, _ = act(s, "editor", {"type": "choose_target", "target": "evidence", "handle": 1})
    assert token(s, 1).pos == 2 and not token(s, 2).up, describe(s)
    assert list(s.discards["editor"]) == ["E14"], describe(s)
