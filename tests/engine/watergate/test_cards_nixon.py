"""The action part of each Nixon card (N01–N20) as game-data.md and cards.json describe it, and
where each card goes after use (R15): events are removed from the game, conspirators are
discarded. Howard Hunt (R19), Gambit (R20) and A brilliant mood (R21) in detail. John Mitchell
(N06) is a reaction card: see also test_reaction_chains.py."""

from __future__ import annotations

import pytest

from engine.watergate.describe import describe
from engine.watergate.state import GambitD, MatchState, PinD, PlayD, ReactD
from tests.engine.watergate.builders import (
    act,
    acts,
    board,
    choice_set,
    pass_window,
    picture,
    position,
    token,
)

OTHERS = ["E09"]  # the Editor keeps a card so that the round does not end
DONE = {"type": "done"}  # R28: stop an "up to N" instruction


def settle(s: MatchState) -> MatchState:
    """Pass every reaction window that opens (R18 opens them from public information)."""
    while isinstance(s.decision, ReactD):
        s, _ = pass_window(s)
    return s


def play_action(s: MatchState, card: str, role: str = "nixon") -> MatchState:
    assert {"type": "play_action", "card": card} in acts(s, role), describe(s)
    s, _ = act(s, role, {"type": "play_action", "card": card})
    return settle(s)


def target(s: MatchState, handle: int, role: str = "nixon") -> MatchState:
    s, _ = act(s, role, {"type": "choose_target", "target": "evidence", "handle": handle})
    return settle(s)


def assert_removed(s: MatchState, card: str) -> None:
    """R15: an event leaves the game after use."""
    assert card in s.removed and card not in s.discards["nixon"], describe(s)
    assert card not in s.hands["nixon"] and card not in s.in_play, describe(s)


def assert_discarded(s: MatchState, card: str) -> None:
    """R15: a conspirator goes to Nixon's discard pile after use."""
    assert card in s.discards["nixon"] and card not in s.removed, describe(s)
    assert card not in s.hands["nixon"] and card not in s.in_play, describe(s)


def nixon_to_play(**kw) -> MatchState:
    kw.setdefault("editor_hand", OTHERS)
    return position(turn="nixon", **kw)


# ---- N01 Howard Hunt (R19) -----------------------------------------------------------------


@pytest.mark.ruling("R19")
def test_n01_howard_hunt_moves_momentum_first_then_plays_the_top_card():
    """R19: momentum 1 towards Nixon, then the top card is drawn and must be played at once."""
    s = nixon_to_play(nixon_hand=["N01", "N13"], nixon_deck=["N16", "N05"], track_momentum=1)
    s = play_action(s, "N01")
    assert s.track_momentum == 0, describe(s)  # moved before the draw
    assert isinstance(s.decision, PlayD) and s.decision.role == "nixon", describe(s)
    offered = acts(s, "nixon")
    assert offered and {a["card"] for a in offered} == {"N05"}, offered
    assert {"type": "play_action", "card": "N05"} in offered
    assert {"type": "play_value", "card": "N05", "target": "momentum"} in offered
    assert s.hands["nixon"] == ["N13"] and list(s.decks["nixon"]) == ["N16"], describe(s)
    s = play_action(s, "N05")
    assert s.track_momentum == -2, describe(s)
    assert_discarded(s, "N01")
    assert_discarded(s, "N05")
    assert s.hands["nixon"] == ["N13"], describe(s)
    assert isinstance(s.decision, PlayD) and s.decision.role == "editor", describe(s)


@pytest.mark.ruling("R19")
def test_n01_howard_hunt_drawn_card_may_be_played_for_its_value():
    s = nixon_to_play(nixon_hand=["N01", "N13"], nixon_deck=["N03"], track_initiative=2)
    s = play_action(s, "N01")
    s, _ = act(s, "nixon", {"type": "play_value", "card": "N03", "target": "initiative"})
    s = settle(s)
    assert s.track_initiative == 0 and s.track_momentum == -1, describe(s)  # N03 value 2
    assert_discarded(s, "N03")
    assert_discarded(s, "N01")


@pytest.mark.ruling("R19")
def test_n01_howard_hunt_still_draws_when_momentum_was_already_gained():
    s = nixon_to_play(
        nixon_hand=["N01", "N13"], nixon_deck=["N18"], track_momentum=None, momentum={"nixon": 1}
    )
    s = play_action(s, "N01")
    assert s.track_momentum is None and s.momentum["nixon"] == 1, describe(s)
    assert isinstance(s.decision, PlayD) and s.decision.card == "N18", describe(s)
    s = play_action(s, "N18")  # momentum 2 (skipped: gained), initiative 2
    assert s.track_initiative == -2 and s.momentum["nixon"] == 1, describe(s)
    assert_removed(s, "N18")
    assert_discarded(s, "N01")


@pytest.mark.ruling("R19")
@pytest.mark.ruling("R7")
def test_n01_howard_hunt_with_an_empty_deck_reshuffles_the_discard_pile():
    rest = [f"N{i:02d}" for i in range(2, 21) if i not in (13, 17)]
    s = nixon_to_play(
        nixon_hand=["N01", "N17"],
        nixon_deck=[],
        nixon_discard=["N13"],
        removed=rest,
        rules_version="3",  # N13 moves 3 there (4 from version 4)
    )
    s = play_action(s, "N01")
    assert s.track_momentum == -1, describe(s)
    assert isinstance(s.decision, PlayD) and s.decision.card == "N13", describe(s)
    assert list(s.decks["nixon"]) == [] and list(s.discards["nixon"]) == [], describe(s)
    s = play_action(s, "N13")
    assert s.track_momentum == -4, describe(s)
    assert_removed(s, "N13")
    assert list(s.discards["nixon"]) == ["N01"], describe(s)


# ---- N02–N05 conspirators ------------------------------------------------------------------


def test_n02_gordon_liddy_moves_two_different_tokens_two_steps():
    s = nixon_to_play(
        nixon_hand=["N02", "N13"], track=[("T08", 2, True), ("T14", 0, False), ("T03", 1, True)]
    )
    s = play_action(s, "N02")
    assert choice_set(s, "nixon", "handle") == {1, 2, 3}, describe(s)
    assert DONE in acts(s, "nixon"), describe(s)  # R28: "up to 2"
    s = target(s, 1)
    assert token(s, 1).pos == 0, describe(s)
    assert choice_set(s, "nixon", "handle") == {2, 3}, describe(s)
    assert DONE in acts(s, "nixon"), describe(s)
    s = target(s, 2)
    assert token(s, 2).pos == -2 and token(s, 2).up, describe(s)  # R13: turned face up
    assert token(s, 3).pos == 1, describe(s)
    assert_discarded(s, "N02")


def test_n03_chuck_colson_moves_initiative_three():
    s = play_action(nixon_to_play(nixon_hand=["N03", "N13"], track_initiative=1), "N03")
    assert s.track_initiative == -2, describe(s)
    assert_discarded(s, "N03")


def test_n04_bob_haldeman_turns_up_to_three_face_up_board_tokens_face_down():
    """Rules version 4 (docs/balance.md, R35's rebalance): up to three, each chosen."""
    face_up = {"O1": ("T02", True), "I1": ("T03", True), "O2": ("T08", True), "O3": ("T09", True)}
    s = nixon_to_play(nixon_hand=["N04", "N13"], board=face_up)
    s = play_action(s, "N04")
    for chosen in ("I1", "O2", "O3"):
        assert DONE in acts(s, "nixon"), describe(s)  # R28: "up to 3"
        s, _ = act(s, "nixon", {"type": "choose_space", "space": chosen})
    s = settle(s)
    assert [board(s, sp).up for sp in ("O1", "I1", "O2", "O3")] == [True, False, False, False]
    assert_discarded(s, "N04")


def test_n04_bob_haldeman_turns_two_face_up_board_tokens_face_down():
    """Rules versions up to 3 (tuned in docs/balance.md: it used to turn one)."""
    s = nixon_to_play(
        nixon_hand=["N04", "N13"],
        board={"O1": ("T02", True), "I1": ("T03", True), "O2": ("T08", True), "O4": ("T14", False)},
        rules_version="3",
    )
    s = play_action(s, "N04")
    assert choice_set(s, "nixon", "space") == {"O1", "I1", "O2"}, describe(s)
    assert DONE in acts(s, "nixon"), describe(s)  # R28: "up to 2"
    s, _ = act(s, "nixon", {"type": "choose_space", "space": "I1"})
    assert choice_set(s, "nixon", "space") == {"O1", "O2"}, describe(s)
    s, _ = act(s, "nixon", {"type": "choose_space", "space": "O2"})
    s = settle(s)
    assert not board(s, "I1").up and not board(s, "O2").up, describe(s)
    assert board(s, "O1").up and not board(s, "O4").up, describe(s)
    assert_discarded(s, "N04")


def test_n05_john_ehrlichman_moves_momentum_two_through_zero():
    s = play_action(nixon_to_play(nixon_hand=["N05", "N13"], track_momentum=1), "N05")
    assert s.track_momentum == -1, describe(s)
    assert_discarded(s, "N05")


@pytest.mark.ruling("R17")
def test_n06_john_mitchell_cancels_an_editor_event_and_is_discarded():
    """R17: Mitchell cancels an Editor EVENT action; the event goes unused to the discard."""
    s = position(turn="editor", editor_hand=["E20", "E09"], nixon_hand=["N06", "N13"])
    s, _ = act(s, "editor", {"type": "play_action", "card": "E20"})
    assert {"type": "react", "card": "N06"} in acts(s, "nixon"), describe(s)
    s, _ = act(s, "nixon", {"type": "react", "card": "N06"})
    s = settle(s)
    assert s.track_momentum == 0 and s.track_initiative == 0, describe(s)
    assert list(s.discards["editor"]) == ["E20"] and "E20" not in s.removed, describe(s)
    assert_discarded(s, "N06")


# ---- N07 Gambit (R20) ----------------------------------------------------------------------


@pytest.mark.ruling("R20")
def test_n07_gambit_kept_by_removing_a_conspirator():
    s = nixon_to_play(nixon_hand=["N07", "N05", "N13", "N03"])
    s = play_action(s, "N07")
    assert s.track_momentum == -3, describe(s)
    assert isinstance(s.decision, GambitD), describe(s)
    assert sorted(map(str, acts(s, "nixon"))) == sorted(
        map(
            str,
            [
                {"type": "gambit_keep", "card": "N05"},
                {"type": "gambit_keep", "card": "N03"},
                {"type": "gambit_remove"},
            ],
        )
    )
    s, _ = act(s, "nixon", {"type": "gambit_keep", "card": "N05"})
    assert list(s.discards["nixon"]) == ["N07"] and "N07" not in s.removed, describe(s)
    assert "N05" in s.removed and s.hands["nixon"] == ["N13", "N03"], describe(s)


@pytest.mark.ruling("R20")
def test_n07_gambit_may_still_be_removed_when_a_conspirator_is_held():
    s = play_action(nixon_to_play(nixon_hand=["N07", "N05", "N13"]), "N07")
    s, _ = act(s, "nixon", {"type": "gambit_remove"})
    assert_removed(s, "N07")
    assert s.hands["nixon"] == ["N05", "N13"], describe(s)


@pytest.mark.ruling("R20")
@pytest.mark.ruling("R31")
def test_n07_gambit_alternative_not_offered_without_a_conspirator():
    s = play_action(nixon_to_play(nixon_hand=["N07", "N13"], track_momentum=-1), "N07")
    assert s.track_momentum == -4, describe(s)
    assert isinstance(s.decision, GambitD), describe(s)  # R31: the prompt always comes
    assert acts(s, "nixon") == [{"type": "gambit_remove"}], describe(s)
    s, _ = act(s, "nixon", {"type": "gambit_remove"})
    assert_removed(s, "N07")
    assert s.hands["nixon"] == ["N13"], describe(s)


# ---- N08 A brilliant mood (R21) ------------------------------------------------------------


@pytest.mark.ruling("R21")
def test_n08_brilliant_mood_not_on_nixons_first_turn():
    s = nixon_to_play(nixon_hand=["N08", "N13"], turns={"nixon": 0, "editor": 1})
    assert {"type": "play_action", "card": "N08"} not in acts(s, "nixon"), describe(s)
    s = nixon_to_play(nixon_hand=["N08", "N13"], turns={"nixon": 1, "editor": 1})
    assert {"type": "play_action", "card": "N08"} in acts(s, "nixon"), describe(s)


@pytest.mark.ruling("R21")
@pytest.mark.ruling("R19")
def test_n08_brilliant_mood_drawn_by_howard_hunt_on_the_first_turn_is_value_only():
    s = nixon_to_play(nixon_hand=["N01", "N13"], nixon_deck=["N08"])
    s = play_action(s, "N01")
    assert s.decision == PlayD("nixon", "N08", 1), describe(s)
    assert {"type": "play_action", "card": "N08"} not in acts(s, "nixon"), describe(s)


@pytest.mark.ruling("R21")
def test_n08_brilliant_mood_editor_events_value_only_journalists_still_act():
    s = position(
        turn="nixon",
        turns={"nixon": 1, "editor": 1},
        nixon_hand=["N08", "N05", "N02"],
        editor_hand=["E18", "E01", "E04", "E05"],
        editor_discard=["E03"],
        track=[("T08", 0, True)],
    )
    s = play_action(s, "N08")
    assert_removed(s, "N08")
    offered = acts(s, "editor")
    assert {"type": "play_action", "card": "E18"} not in offered, describe(s)
    assert {"type": "play_action", "card": "E01"} in offered, describe(s)
    assert {"type": "play_value", "card": "E18", "target": "momentum"} in offered
    s, _ = act(s, "editor", {"type": "play_value", "card": "E18", "target": "initiative"})
    # Bradlee is discarded and Mass demonstration may not be used: no window (R18, R21)
    s, _ = act(s, "nixon", {"type": "play_action", "card": "N05"})
    assert not isinstance(s.decision, ReactD), describe(s)
    assert s.track_momentum == -2 and "N05" in s.discards["nixon"], describe(s)
    s, _ = act(s, "editor", {"type": "play_value", "card": "E01", "target": "initiative"})
    # "Follow the money!" is an event too: no window on Nixon's value move of evidence
    s, _ = act(s, "nixon", {"type": "play_value", "card": "N02", "target": "evidence", "handle": 1})
    assert not isinstance(s.decision, ReactD), describe(s)
    assert token(s, 1).pos == -3, describe(s)


@pytest.mark.ruling("R21")
@pytest.mark.ruling("R18")
def test_n08_brilliant_mood_ben_bradlee_may_still_react():
    s = position(
        turn="nixon",
        turns={"nixon": 1, "editor": 1},
        nixon_hand=["N08", "N05"],
        editor_hand=["E03", "E04", "E09"],
    )
    s = play_action(s, "N08")
    s, _ = act(s, "editor", {"type": "play_value", "card": "E09", "target": "initiative"})
    s, _ = act(s, "nixon", {"type": "play_action", "card": "N05"})
    assert isinstance(s.decision, ReactD), describe(s)
    assert acts(s, "editor") == [{"type": "pass"}, {"type": "react", "card": "E03"}]
    s, _ = act(s, "editor", {"type": "react", "card": "E03"})
    s = settle(s)
    assert s.track_momentum == 0 and "N05" in s.removed, describe(s)
    assert list(s.discards["editor"]) == ["E09", "E03"], describe(s)


# ---- N09–N20 events ------------------------------------------------------------------------


def test_n09_operation_gemstone_pins_two_tokens_from_the_bag_face_down():
    s = play_action(nixon_to_play(nixon_hand=["N09", "N13"], bag=["T02", "T08"]), "N09")
    assert isinstance(s.decision, PinD) and s.decision.role == "nixon", describe(s)
    held = {t.id: t.handle for t in s.holding["nixon"]}
    assert sorted(held) == ["T02", "T08"] and list(s.bag) == [], describe(s)
    s, _ = act(s, "nixon", {"type": "pin", "handle": held["T02"], "space": "O1"})
    s, _ = act(s, "nixon", {"type": "pin", "handle": held["T08"], "space": "O2"})
    assert board(s, "O1").id == "T02" and not board(s, "O1").up, describe(s)
    assert board(s, "O2").id == "T08" and not board(s, "O2").up, describe(s)
    assert_removed(s, "N09")


def test_n10_third_rate_burglary_returns_two_tokens_on_zero_or_editor_side():
    track = [("T08", 0, False), ("T14", 2, True), ("T03", -1, True), ("T20", 4, True)]
    s = play_action(nixon_to_play(nixon_hand=["N10", "N13"], track=track, bag=[]), "N10")
    assert choice_set(s, "nixon", "handle") == {1, 2, 4}, describe(s)
    assert DONE in acts(s, "nixon"), describe(s)  # R28: "up to 2"
    s = target(s, 2)
    assert choice_set(s, "nixon", "handle") == {1, 4}, describe(s)
    s = target(s, 4)
    assert sorted(s.bag) == ["T14", "T20"], describe(s)
    assert [(t.id, t.pos) for t in s.track] == [("T08", 0), ("T03", -1)], describe(s)
    assert_removed(s, "N10")


def test_n10_third_rate_burglary_never_takes_tokens_on_nixons_side():
    s = nixon_to_play(nixon_hand=["N10", "N13"], track=[("T03", -1, True)], bag=[])
    s = play_action(s, "N10")
    assert [t.id for t in s.track] == ["T03"] and list(s.bag) == [], describe(s)
    assert_removed(s, "N10")


@pytest.mark.ruling("R11")
def test_n11_executive_privilege_initiative_and_no_asking():
    track = [("T08", 0, False)]
    s = play_action(nixon_to_play(nixon_hand=["N11", "N13"], track=track), "N11")
    assert s.track_initiative == -1, describe(s)
    assert_removed(s, "N11")
    assert not [a for a in acts(s, "editor") if a.get("target") == "ask"], describe(s)


def test_n12_saturday_night_massacre_removes_face_up_tokens_then_momentum_to_editor():
    s = nixon_to_play(
        nixon_hand=["N12", "N13"],
        board={"O1": ("T02", True), "I1": ("T03", True), "O4": ("T14", False)},
        bag=[],
    )
    s = play_action(s, "N12")
    assert choice_set(s, "nixon", "space") == {"O1", "I1"}, describe(s)
    assert DONE in acts(s, "nixon"), describe(s)  # R28: "up to 2"
    s, _ = act(s, "nixon", {"type": "choose_space", "space": "O1"})
    assert choice_set(s, "nixon", "space") == {"I1"}, describe(s)
    s, _ = act(s, "nixon", {"type": "choose_space", "space": "I1"})
    assert board(s, "O1") is None and board(s, "I1") is None, describe(s)
    assert board(s, "O4").id == "T14" and sorted(s.bag) == ["T02", "T03"], describe(s)
    assert s.track_momentum == 2, describe(s)
    assert_removed(s, "N12")


def test_n13_i_am_not_a_crook_moves_momentum_four():
    """Rules version 4 (docs/balance.md, R35's rebalance)."""
    s = play_action(nixon_to_play(nixon_hand=["N13", "N02"]), "N13")
    assert s.track_momentum == -4, describe(s)
    assert_removed(s, "N13")


def test_n13_i_am_not_a_crook_moves_momentum_three_up_to_version_3():
    s = play_action(nixon_to_play(nixon_hand=["N13", "N02"], rules_version="3"), "N13")
    assert s.track_momentum == -3, describe(s)
    assert_removed(s, "N13")


@pytest.mark.ruling("R9")
def test_n13_reaching_space_five_gains_the_momentum_token():
    s = play_action(nixon_to_play(nixon_hand=["N13", "N02"], track_momentum=-3), "N13")
    assert s.track_momentum is None and s.momentum["nixon"] == 1, describe(s)


def test_n14_hush_money_turns_down_a_face_up_picture_not_connected():
    s = nixon_to_play(
        nixon_hand=["N14", "N13"],
        board={"O1": ("T02", True), "I1": ("T03", True)},
        pictures={"hugh_sloan": "up", "martha_mitchell": "up", "john_dean": "down"},
    )
    s = play_action(s, "N14")
    assert acts(s, "nixon") == [{"type": "choose_picture", "person": "martha_mitchell"}]
    s, _ = act(s, "nixon", {"type": "choose_picture", "person": "martha_mitchell"})
    assert picture(s, "martha_mitchell") == "down" and picture(s, "hugh_sloan") == "up"
    assert_removed(s, "N14")


def test_n15_discrediting_martha_mitchell_pins_her_face_down_and_momentum_one():
    s = play_action(nixon_to_play(nixon_hand=["N15", "N13"]), "N15")
    assert picture(s, "martha_mitchell") == "down" and s.track_momentum == -1, describe(s)
    assert_removed(s, "N15")


@pytest.mark.ruling("R14")
def test_n15_picture_not_in_the_supply_is_skipped_momentum_still_moves():
    s = nixon_to_play(nixon_hand=["N15", "N13"], pictures={"martha_mitchell": "up"})
    s = play_action(s, "N15")
    assert picture(s, "martha_mitchell") == "up" and s.track_momentum == -1, describe(s)
    assert_removed(s, "N15")


def test_n16_minute_gap_pins_rose_mary_woods_and_removes_a_green_token():
    s = nixon_to_play(
        nixon_hand=["N16", "N13"],
        board={
            "O4": ("T14", True),
            "O1": ("T28", True),
            "I3": ("T15", False),
            "O2": ("T08", True),
        },
        bag=[],
    )
    s = play_action(s, "N16")
    assert picture(s, "rose_mary_woods") == "down", describe(s)
    assert choice_set(s, "nixon", "space") == {"O4", "O1"}, describe(s)
    s, _ = act(s, "nixon", {"type": "choose_space", "space": "O1"})
    assert board(s, "O1") is None and list(s.bag) == ["T28"], describe(s)
    assert board(s, "O4").up and board(s, "I3") and board(s, "O2"), describe(s)
    assert_removed(s, "N16")


def test_n17_cia_blocks_the_fbi_moves_every_track_token_one():
    track = [("T08", 2, True), ("T14", 0, False), ("T03", -4, True)]
    s = play_action(nixon_to_play(nixon_hand=["N17", "N13"], track=track), "N17")
    assert isinstance(s.decision, PinD) and s.holding["nixon"][0].id == "T03", describe(s)
    s, _ = act(s, "nixon", {"type": "pin", "handle": 3, "space": "O1"})
    assert board(s, "O1").id == "T03" and not board(s, "O1").up, describe(s)
    assert [(t.id, t.pos, t.up) for t in s.track] == [("T08", 1, True), ("T14", -1, True)]
    assert_removed(s, "N17")


def test_n18_re_election_landslide_moves_momentum_and_initiative_two():
    s = play_action(nixon_to_play(nixon_hand=["N18", "N13"], track_initiative=3), "N18")
    assert s.track_momentum == -2 and s.track_initiative == 1, describe(s)
    assert_removed(s, "N18")


def test_n19_scapegoat_pins_john_dean_face_down():
    s = play_action(nixon_to_play(nixon_hand=["N19", "N13"]), "N19")
    assert picture(s, "john_dean") == "down", describe(s)
    assert_removed(s, "N19")


def test_n20_enemies_list_pins_any_picture_from_the_supply_face_down():
    s = nixon_to_play(nixon_hand=["N20", "N13"], pictures={"hugh_sloan": "up", "john_dean": "down"})
    s = play_action(s, "N20")
    assert choice_set(s, "nixon", "person") == {
        "james_mccord",
        "alexander_butterfield",
        "martha_mitchell",
        "alfred_baldwin",
        "rose_mary_woods",
    }, describe(s)
    s, _ = act(s, "nixon", {"type": "choose_picture", "person": "alfred_baldwin"})
    assert picture(s, "alfred_baldwin") == "down", describe(s)
    assert_removed(s, "N20")
