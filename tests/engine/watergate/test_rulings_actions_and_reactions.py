"""Rulings R14–R22 (rulings.md): the action part, disposal, requirements and reaction windows.

Expected values are worked out by hand from the rulebook and the rulings. Reaction windows (R17,
R18) are tested as a mechanism: when one opens, for whom, with which options, and when it does not.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.watergate import Action, MatchState, Role, legal_actions
from engine.watergate.describe import describe
from engine.watergate.state import CardD, GambitD, PlayD, ReactD, TargetD
from engine.watergate.views import view_for
from tests.engine.watergate.builders import act, acts, do, pass_window, position, react
from tests.engine.watergate.builders import play_action as action

PASS: Action = {"type": "pass"}
MOOD = ["editor_events_value_only"]  # A brilliant mood's restriction (R21)


def value(card: str, target: str, **extra: str | int) -> Action:
    return {"type": "play_value", "card": card, "target": target, **extra}


def ed(hand: list[str], nixon: list[str] | None = None, **kw: Any) -> MatchState:
    """The Editor to play from `hand`; Nixon holds `nixon` (default: one event card)."""
    return position(editor_hand=hand, nixon_hand=["N13"] if nixon is None else nixon, **kw)


def nx(hand: list[str], editor: list[str] | None = None, **kw: Any) -> MatchState:
    """Nixon to play from `hand`; the Editor holds `editor` (default: one event card)."""
    editor_hand = ["E18"] if editor is None else editor
    return position(turn="nixon", nixon_hand=hand, editor_hand=editor_hand, **kw)


def as_set(actions: list[Action]) -> set[str]:
    """Actions compared regardless of the order in which they are offered."""
    return {json.dumps(a, sort_keys=True) for a in actions}


def window(s: MatchState, role: Role) -> set[str]:
    """The options of `role`'s open reaction window (fails if no window is open for `role`)."""
    assert isinstance(s.decision, ReactD) and s.decision.role == role, describe(s)
    return as_set(acts(s, role))


def has_action(s: MatchState, role: Role, card: str) -> bool:
    return action(card) in acts(s, role)


# ---- R14: what cannot be done is skipped ---------------------------------------------------------


@pytest.mark.ruling("R14")
def test_r14_front_page_with_momentum_already_gained_still_moves_the_initiative() -> None:
    """R14: "move momentum 2" is impossible (gained this round); "move initiative 2" still runs."""
    s = ed(["E20"], track_momentum=None)
    s, _ = do(s, "editor", action("E20"))
    s, _ = pass_window(s)
    assert (s.track_initiative, s.track_momentum) == (2, None), describe(s)
    assert s.decision == PlayD("nixon", "", 1), describe(s)


@pytest.mark.ruling("R14")
def test_r14_hugh_sloan_talks_with_his_picture_already_pinned_still_moves_blue() -> None:
    """R14: the picture is not in the supply, so pinning is skipped; the blue token still moves."""
    s = ed(["E08"], pictures={"hugh_sloan": "down"}, track=[("T02", 1, True), ("T08", 1, True)])
    s, _ = do(s, "editor", action("E08"))
    s, _ = pass_window(s)
    assert acts(s, "editor") == [{"type": "choose_target", "target": "evidence", "handle": 1}]
    s, _ = do(s, "editor", {"type": "choose_target", "target": "evidence", "handle": 1})
    assert [(t.id, t.pos) for t in s.track] == [("T02", 2), ("T08", 1)], describe(s)
    assert view_for(s, "editor")["board"]["pictures"]["hugh_sloan"] == "down"


@pytest.mark.ruling("R14")
def test_r14_saturday_night_massacre_without_face_up_board_tokens_moves_momentum() -> None:
    """R14: nothing face up on the board to remove; momentum still moves 2 towards the Editor."""
    s = nx(["N12", "N13"])
    s, _ = do(s, "nixon", action("N12"))
    assert s.track_momentum == 2 and list(s.removed) == ["N12"], describe(s)
    assert s.decision == PlayD("editor", "", 1), describe(s)


# ---- R15: where used cards go ----------------------------------------------------------------


@pytest.mark.ruling("R15")
@pytest.mark.parametrize(
    ("role", "card", "to"),
    [
        ("editor", "E18", "removed"),  # event
        ("editor", "E02", "discard"),  # journalist
        ("nixon", "N05", "discard"),  # conspirator
        ("nixon", "N13", "removed"),  # event
    ],
)
def test_r15_events_leave_the_game_conspirators_and_journalists_are_discarded(
    role: Role, card: str, to: str
) -> None:
    """R15: after use, events go to the public removed area; others to the owner's discard."""
    hands = {"editor": ["E11"], "nixon": ["N19"]}
    hands[role].insert(0, card)
    s = position(
        turn=role, editor_hand=hands["editor"], nixon_hand=hands["nixon"], track=[("T02", 0, True)]
    )
    s, _ = do(s, role, action(card))
    while s.decision is not None and not isinstance(s.decision, PlayD):
        s, _ = act(s, s.decision.role, acts(s, s.decision.role)[0])  # pass / first option
    public = view_for(s, "editor" if role == "nixon" else "nixon")
    if to == "removed":
        assert public["removed"] == [card] and public["discards"][role] == [], describe(s)
    else:
        assert public["discards"][role] == [card] and public["removed"] == [], describe(s)
    assert card not in s.hands[role] and s.in_play == [], describe(s)


@pytest.mark.ruling("R15")
def test_r15_reaction_event_leaves_the_game_reaction_journalist_is_discarded() -> None:
    """R15: Mass demonstration (an event) is removed after use; Ben Bradlee is discarded."""
    for reaction, removed, discard in (
        ("E04", ["N05", "E04"], []),
        ("E03", ["N05"], ["E03"]),
    ):
        s = nx(["N05", "N13"], editor=[reaction, "E18"])
        s, _ = do(s, "nixon", action("N05"))
        s, _ = do(s, "editor", react(reaction))
        if isinstance(s.decision, ReactD):  # Mass demonstration can be answered by Mitchell
            s, _ = pass_window(s)
        assert sorted(s.removed) == sorted(removed), describe(s)
        assert list(s.discards["editor"]) == discard, describe(s)


# ---- R16: requirements -----------------------------------------------------------------------


@pytest.mark.ruling("R16")
@pytest.mark.parametrize(
    ("pictures", "offered"),
    [
        ({}, False),
        ({"hugh_sloan": "down"}, False),  # a face-down picture is no informant
        ({"john_dean": "up"}, False),  # "another" picture than John Dean's
        ({"hugh_sloan": "up"}, True),
    ],
)
def test_r16_john_dean_testifies_needs_another_face_up_picture(
    pictures: dict[str, str], offered: bool
) -> None:
    """R16: E12's action is offered only when its requirement holds; its value always is."""
    s = ed(["E12"], pictures=pictures)
    assert has_action(s, "editor", "E12") is offered, describe(s)
    assert value("E12", "initiative") in acts(s, "editor")


@pytest.mark.ruling("R16")
def test_r16_united_states_v_nixon_needs_two_face_up_pictures() -> None:
    """R16: E19 needs 2 face-up pictures on the board."""
    one = ed(["E19"], pictures={"hugh_sloan": "up"})
    assert not has_action(one, "editor", "E19") and value("E19", "momentum") in acts(one, "editor")
    two = ed(["E19"], pictures={"hugh_sloan": "up", "john_dean": "up"})
    assert has_action(two, "editor", "E19"), describe(two)


@pytest.mark.ruling("R16")
@pytest.mark.ruling("R22")
@pytest.mark.parametrize(
    ("removed", "offered"),
    [([], False), (["E04", "E05"], False), (["N13"], False), (["E18"], True)],
)
def test_r16_the_system_works_needs_an_own_removed_non_reaction_card(
    removed: list[str], offered: bool
) -> None:
    """R16, R22: The system works is offered for its action only with a usable removed card."""
    s = ed(["E06"], nixon=["N09"], removed=removed)
    assert has_action(s, "editor", "E06") is offered, describe(s)
    assert value("E06", "initiative") in acts(s, "editor")


# ---- R17: reaction windows -------------------------------------------------------------------


@pytest.mark.ruling("R17")
def test_r17_editor_event_opens_nixons_window_before_any_effect() -> None:
    """R17: Front page is announced; Nixon's window opens before momentum or initiative move."""
    s = ed(["E20"], nixon=["N06", "N13"])
    s, _ = do(s, "editor", action("E20"))
    assert window(s, "nixon") == as_set([PASS, react("N06")])
    assert (s.track_momentum, s.track_initiative) == (0, 0), describe(s)
    against = {"role": "editor", "card": "E20", "mode": "action"}
    assert view_for(s, "editor")["decision"] == {
        "role": "nixon",
        "kind": "react",
        "against": against,
    }
    s, _ = pass_window(s)
    assert (s.track_momentum, s.track_initiative) == (2, 2), describe(s)


@pytest.mark.ruling("R17")
def test_r17_mitchell_cancels_the_event_which_goes_to_the_discard_pile_unused() -> None:
    """R17: Nixon answers with Mitchell; the Editor may not re-react here (no reaction left)."""
    s = ed(["E20", "E18"], nixon=["N06", "N13"], editor_discard=["E03"], removed=["E04"])
    s, _ = do(s, "editor", action("E20"))
    s, _ = do(s, "nixon", react("N06"))
    assert (s.track_momentum, s.track_initiative) == (0, 0), describe(s)
    assert list(s.discards["editor"]) == ["E03", "E20"] and list(s.discards["nixon"]) == ["N06"], (
        describe(s)
    )
    assert s.decision == PlayD("nixon", "", 1), describe(s)


@pytest.mark.ruling("R17")
def test_r17_mitchell_opens_a_re_reaction_window_and_the_chain_resolves_lifo() -> None:
    """R17: event → Mitchell → Ben Bradlee: Mitchell is cancelled and removed, the event happens."""
    s = ed(["E20", "E03"], nixon=["N06", "N13"])
    s, _ = do(s, "editor", action("E20"))
    s, _ = do(s, "nixon", react("N06"))
    assert window(s, "editor") == as_set([PASS, react("E03")])
    s, _ = do(s, "editor", react("E03"))
    # Bradlee is a journalist: Mitchell cannot answer it, so no window for Nixon
    assert not isinstance(s.decision, ReactD), describe(s)
    assert (s.track_momentum, s.track_initiative) == (2, 2), describe(s)
    assert list(s.removed) == ["N06", "E20"] and list(s.discards["editor"]) == ["E03"], describe(s)
    assert s.decision == PlayD("nixon", "", 1), describe(s)


@pytest.mark.ruling("R17")
def test_r17_journalist_action_and_editor_value_open_no_window() -> None:
    """R17: Mitchell answers only events, so a journalist action or a value has no window."""
    s = ed(["E02", "E18"], nixon=["N06", "N13"], track=[("T02", 0, True)])
    j, _ = do(s, "editor", action("E02"))
    assert isinstance(j.decision, TargetD) and j.decision.role == "editor", describe(j)
    v, _ = do(s, "editor", value("E18", "momentum"))
    assert v.decision == PlayD("nixon", "", 1) and v.track_momentum == 1, describe(v)


@pytest.mark.ruling("R17")
def test_r17_nixon_conspirator_opens_the_editors_window() -> None:
    """R17: a conspirator action gives the Editor a window (Bradlee, Mass demonstration)."""
    s = nx(["N05", "N13"], editor=["E03", "E04", "E05"])
    s, _ = do(s, "nixon", action("N05"))
    assert window(s, "editor") == as_set([PASS, react("E03"), react("E04")])
    assert s.track_momentum == 0, describe(s)
    s, _ = pass_window(s)
    assert s.track_momentum == -2 and list(s.discards["nixon"]) == ["N05"], describe(s)


@pytest.mark.ruling("R17")
@pytest.mark.parametrize("play", [action("N13"), value("N13", "initiative")])
def test_r17_nixon_event_or_non_evidence_value_opens_no_window(play: Action) -> None:
    """R17: nothing answers a Nixon event or a value moving initiative/momentum."""
    s = nx(["N13", "N19"], editor=["E03", "E04", "E05"])
    s, _ = do(s, "nixon", play)
    assert s.decision == PlayD("editor", "", 1), describe(s)


@pytest.mark.ruling("R17")
def test_r17_follow_the_money_window_opens_before_the_token_is_gained() -> None:
    """R17: Nixon's value would take the token to his 5; the window opens first."""
    s = nx(["N09", "N13"], editor=["E05"], track=[("T08", -3, True)])
    s, _ = do(s, "nixon", value("N09", "evidence", handle=1))
    assert window(s, "editor") == as_set([PASS, react("E05")])
    assert [(t.handle, t.pos) for t in s.track] == [(1, -3)], describe(s)
    assert list(s.holding["nixon"]) == [], describe(s)
    passed, _ = pass_window(s)
    assert passed.track == [] and passed.decision is not None, describe(passed)
    assert passed.decision.role == "nixon" and type(passed.decision).__name__ == "PinD"
    # "Follow the money!" instead: an event, so Nixon's re-reaction window opens (Mitchell)
    s, _ = do(s, "editor", react("E05"))
    assert window(s, "nixon") == as_set([PASS])
    s, _ = pass_window(s)
    assert [(t.handle, t.pos) for t in s.track] == [(1, 1)], describe(s)  # -3 + 4
    assert list(s.discards["nixon"]) == ["N09"] and list(s.removed) == ["E05"], describe(s)


@pytest.mark.ruling("R17")
def test_r17_mass_demonstration_opens_nixons_re_reaction_window_bradlee_does_not() -> None:
    """R17: Mitchell may answer Mass demonstration (an event) but never Ben Bradlee."""
    s = nx(["N05", "N06"], editor=["E04", "E18"])
    s, _ = do(s, "nixon", action("N05"))
    s, _ = do(s, "editor", react("E04"))
    assert window(s, "nixon") == as_set([PASS, react("N06")])
    s, _ = do(s, "nixon", react("N06"))
    assert window(s, "editor") == as_set([PASS])  # Bradlee (in the deck) could answer Mitchell
    s, _ = pass_window(s)  # Mass demonstration cancelled: the conspirator acts
    assert s.track_momentum == -2 and list(s.discards["editor"]) == ["E04"], describe(s)
    b = nx(["N05", "N06"], editor=["E03", "E18"])
    b, _ = do(b, "nixon", action("N05"))
    b, _ = do(b, "editor", react("E03"))
    assert b.decision == PlayD("editor", "", 1), describe(b)
    assert list(b.removed) == ["N05"] and b.track_momentum == 0, describe(b)


# ---- R18: windows never leak a hand ------------------------------------------------------------


@pytest.mark.ruling("R18")
def test_r18_nixons_window_opens_without_mitchell_in_his_hand() -> None:
    """R18: Mitchell is in Nixon's deck (not public): the window opens and Nixon can only pass."""
    s = ed(["E20"])
    s, _ = do(s, "editor", action("E20"))
    assert window(s, "nixon") == as_set([PASS])
    assert view_for(s, "editor")["decision"]["kind"] == "react"


@pytest.mark.ruling("R18")
@pytest.mark.parametrize(
    "where",
    [{"nixon_discard": ["N06"]}, {"removed": ["N06"]}, {"nixon": []}],
    ids=["mitchell_discarded", "mitchell_removed", "empty_hand"],
)
def test_r18_no_window_when_mitchell_is_publicly_impossible(where: dict) -> None:
    """R18: Mitchell in the discard pile, removed, or Nixon holding no card: no window."""
    s = ed(["E20", "E18"], **{"nixon": ["N13"], **where})
    s, _ = do(s, "editor", action("E20"))
    assert not isinstance(s.decision, ReactD), describe(s)
    assert (s.track_momentum, s.track_initiative) == (2, 2), describe(s)


@pytest.mark.ruling("R18")
def test_r18_no_window_for_the_editor_holding_no_card() -> None:
    """R18: the Editor's hand is empty, so no reaction is possible: the conspirator just acts."""
    s = nx(["N05", "N13"], editor=[])
    s, _ = do(s, "nixon", action("N05"))
    assert s.track_momentum == -2 and s.decision == PlayD("nixon", "", 2), describe(s)


@pytest.mark.ruling("R18")
def test_r18_editors_window_opens_without_follow_the_money_in_hand_not_when_removed() -> None:
    """R18: a Nixon evidence move opens the Editor's window unless E05 is publicly gone."""
    track = [("T08", 0, True)]
    s = nx(["N09", "N13"], track=track)
    s, _ = do(s, "nixon", value("N09", "evidence", handle=1))
    assert window(s, "editor") == as_set([PASS])
    gone = nx(["N09", "N13"], track=track, removed=["E05"])
    gone, _ = do(gone, "nixon", value("N09", "evidence", handle=1))
    assert gone.decision == PlayD("editor", "", 1) and gone.track[0].pos == -4, describe(gone)


@pytest.mark.ruling("R18")
def test_r18_under_a_brilliant_mood_only_ben_bradlee_may_answer() -> None:
    """R18, R21: event reactions (Mass demonstration, "Follow the money!") are unusable under
    A brilliant mood; Ben Bradlee still is."""
    s = nx(["N05", "N13"], editor=["E03", "E04", "E05"], restrictions=MOOD)
    s, _ = do(s, "nixon", action("N05"))
    assert window(s, "editor") == as_set([PASS, react("E03")])
    # Bradlee publicly gone: the only possible reaction is an event, so no window at all
    no = nx(["N05", "N13"], editor=["E04", "E05"], editor_discard=["E03"], restrictions=MOOD)
    no, _ = do(no, "nixon", action("N05"))
    assert no.decision == PlayD("editor", "", 1) and no.track_momentum == -2, describe(no)
    # "Follow the money!" is an event too: no window on Nixon's evidence move though it is held
    fm = nx(["N09", "N13"], editor=["E05", "E18"], track=[("T08", 0, True)], restrictions=MOOD)
    fm, _ = do(fm, "nixon", value("N09", "evidence", handle=1))
    assert fm.decision == PlayD("editor", "", 1) and fm.track[0].pos == -4, describe(fm)


@pytest.mark.ruling("R18")
def test_r18_nixons_view_of_the_window_is_the_same_whatever_the_editor_holds() -> None:
    """R18: nothing Nixon sees depends on whether the Editor holds a reaction card."""
    views = []
    for hand in (["E03", "E18"], ["E11", "E18"]):
        s = nx(["N05", "N13"], editor=hand)
        s, _ = do(s, "nixon", action("N05"))
        assert isinstance(s.decision, ReactD), describe(s)
        views.append(view_for(s, "nixon"))
    assert views[0] == views[1]


# ---- R19: Howard Hunt -----------------------------------------------------------------------


@pytest.mark.ruling("R19")
def test_r19_howard_hunt_moves_momentum_then_plays_the_top_card() -> None:
    """R19: momentum first, then the top card is drawn and played at once (hidden from Editor).
    Rules version 3, where N13 moves momentum 3 (4 from version 4)."""
    s = nx(["N01", "N09"], nixon_deck=["N10", "N13"], rules_version="3")
    s, _ = do(s, "nixon", action("N01"))
    s, _ = pass_window(s)
    assert s.track_momentum == -1 and s.decision == PlayD("nixon", "N13", 1), describe(s)
    assert {str(a["card"]) for a in acts(s, "nixon")} == {"N13"}
    seen = view_for(s, "editor")
    assert seen["decision"] == {"role": "nixon", "kind": "play", "turn": 1, "from_deck": True}
    assert "N13" not in seen["in_play"]
    assert view_for(s, "nixon")["decision"]["card"] == "N13"
    s, _ = do(s, "nixon", action("N13"))
    assert s.track_momentum == -4, describe(s)
    assert list(s.discards["nixon"]) == ["N01"] and list(s.removed) == ["N13"], describe(s)
    assert s.hands["nixon"] == ["N09"] and list(s.decks["nixon"]) == ["N10"], describe(s)
    assert s.decision == PlayD("editor", "", 1), describe(s)


@pytest.mark.ruling("R19")
def test_r19_the_drawn_card_is_a_normal_play_with_its_reaction_window() -> None:
    """R19, R17: a drawn conspirator played for its action gives the Editor a window."""
    s = nx(["N01", "N09"], editor=["E03", "E18"], nixon_deck=["N05"])
    s, _ = do(s, "nixon", action("N01"))
    s, _ = pass_window(s)
    s, _ = do(s, "nixon", action("N05"))
    assert window(s, "editor") == as_set([PASS, react("E03")])
    s, _ = do(s, "editor", react("E03"))
    assert s.track_momentum == -1 and list(s.removed) == ["N05"], describe(s)
    assert list(s.discards["nixon"]) == ["N01"], describe(s)
    assert s.decision == PlayD("editor", "", 1), describe(s)


@pytest.mark.ruling("R19")
def test_r19_momentum_already_gained_still_draws_and_plays() -> None:
    """R19: the momentum token was gained this round; Hunt still draws and plays the top card."""
    s = nx(["N01", "N09"], nixon_deck=["N13"], track_momentum=None)
    s, _ = do(s, "nixon", action("N01"))
    s, _ = pass_window(s)
    assert s.decision == PlayD("nixon", "N13", 1), describe(s)
    s, _ = do(s, "nixon", value("N13", "initiative"))
    assert s.track_initiative == -1 and list(s.discards["nixon"]) == ["N13", "N01"], describe(s)


@pytest.mark.ruling("R19")
def test_r19_hunt_with_an_empty_deck_reshuffles_the_discard_pile() -> None:
    """R19, R7: the deck is empty, so the discard pile becomes the deck and its top is played."""
    s = nx(["N01", "N09"], nixon_deck=[], nixon_discard=["N13"])
    s, _ = do(s, "nixon", action("N01"))
    s, _ = pass_window(s)
    assert s.decision == PlayD("nixon", "N13", 1), describe(s)
    assert list(s.decks["nixon"]) == [] and list(s.discards["nixon"]) == [], describe(s)


@pytest.mark.ruling("R19")
def test_r19_hunt_with_deck_and_discard_empty_draws_nothing() -> None:
    """R19, R7: nothing to draw: Hunt's momentum move stands and the turn simply ends."""
    s = nx(["N01", "N09"], nixon_deck=[])
    s, _ = do(s, "nixon", action("N01"))
    s, _ = pass_window(s)
    assert s.track_momentum == -1 and list(s.discards["nixon"]) == ["N01"], describe(s)
    assert s.decision == PlayD("editor", "", 1), describe(s)


# ---- R20: Gambit ----------------------------------------------------------------------------


@pytest.mark.ruling("R20")
@pytest.mark.parametrize("keep", [True, False])
def test_r20_gambit_may_be_kept_by_removing_a_conspirator_from_hand(keep: bool) -> None:
    """R20: holding a conspirator, Nixon chooses: remove it (Gambit discarded) or remove Gambit."""
    s = nx(["N07", "N05", "N13"])
    s, _ = do(s, "nixon", action("N07"))  # a Nixon event: no window
    assert s.track_momentum == -3 and s.decision == GambitD("nixon", 0), describe(s)
    assert as_set(acts(s, "nixon")) == as_set(
        [{"type": "gambit_keep", "card": "N05"}, {"type": "gambit_remove"}]
    )
    if keep:
        s, _ = do(s, "nixon", {"type": "gambit_keep", "card": "N05"})
        assert list(s.removed) == ["N05"] and list(s.discards["nixon"]) == ["N07"], describe(s)
        assert s.hands["nixon"] == ["N13"], describe(s)
    else:
        s, _ = do(s, "nixon", {"type": "gambit_remove"})
        assert list(s.removed) == ["N07"] and list(s.discards["nixon"]) == [], describe(s)
        assert s.hands["nixon"] == ["N05", "N13"], describe(s)
    assert s.decision == PlayD("editor", "", 1), describe(s)


@pytest.mark.ruling("R20")
@pytest.mark.ruling("R31")
@pytest.mark.parametrize("rest", [["N13", "N19"], []])
def test_r20_gambit_without_a_conspirator_in_hand_is_removed(rest: list[str]) -> None:
    """R20, R31: without a conspirator in hand keeping Gambit is never offered; the prompt still
    comes (it hides whether he holds one) with letting Gambit go as its only choice."""
    s = nx(["N07", *rest])
    s, _ = do(s, "nixon", action("N07"))
    assert s.decision == GambitD("nixon", 0), describe(s)
    assert acts(s, "nixon") == [{"type": "gambit_remove"}], describe(s)
    s, _ = do(s, "nixon", {"type": "gambit_remove"})
    assert list(s.removed) == ["N07"] and list(s.discards["nixon"]) == [], describe(s)
    assert s.hands["nixon"] == rest and s.decision == PlayD("editor", "", 1), describe(s)


# ---- R21: A brilliant mood ------------------------------------------------------------------


@pytest.mark.ruling("R21")
def test_r21_a_brilliant_mood_not_on_nixons_first_turn_but_on_his_second() -> None:
    """R21: in a real round, Nixon's first turn offers only the value; his second the action."""
    s = ed(["E18", "E11"], nixon=["N08", "N13"])
    s, _ = do(s, "editor", value("E18", "initiative"))
    assert not has_action(s, "nixon", "N08") and value("N08", "initiative") in acts(s, "nixon")
    s, _ = do(s, "nixon", value("N13", "momentum"))
    s, _ = do(s, "editor", value("E11", "initiative"))
    assert has_action(s, "nixon", "N08"), describe(s)


@pytest.mark.ruling("R21")
@pytest.mark.parametrize(("done", "offered"), [(0, False), (1, True), (3, True)])
def test_r21_first_turn_counted_from_turns_taken(done: int, offered: bool) -> None:
    """R21: turns={'nixon': 0} is his first turn of the round; afterwards the action is open."""
    s = nx(["N08"], turns={"nixon": done})
    assert has_action(s, "nixon", "N08") is offered, describe(s)


@pytest.mark.ruling("R21")
def test_r21_after_a_brilliant_mood_editor_events_are_value_only_journalists_act() -> None:
    """R21: for the rest of the round Editor events offer only values; journalists still act."""
    s = nx(
        ["N08", "N13"], editor=["E18", "E20", "E02"], turns={"nixon": 1}, track=[("T02", 0, True)]
    )
    s, _ = do(s, "nixon", action("N08"))
    assert list(s.removed) == ["N08"] and s.decision == PlayD("editor", "", 1), describe(s)
    assert view_for(s, "editor")["restrictions"] == ["editor_events_value_only"]
    assert not has_action(s, "editor", "E18") and not has_action(s, "editor", "E20")
    assert has_action(s, "editor", "E02")
    assert value("E18", "initiative") in acts(s, "editor")


@pytest.mark.ruling("R21")
def test_r21_the_restriction_ends_with_the_round() -> None:
    """R21: in the next round the Editor may play events for their action again."""
    s = ed(
        ["E18"],
        editor_deck=["E14", "E15", "E16", "E17", "E20"],
        restrictions=["editor_events_value_only"],
    )
    s, _ = do(s, "editor", value("E18", "initiative"))
    s, _ = do(s, "nixon", value("N13", "momentum"))
    assert s.round == 2 and list(s.restrictions) == [], describe(s)
    assert all(has_action(s, "editor", c) for c in ("E14", "E15", "E20")), describe(s)


# ---- R22: The system works ------------------------------------------------------------------


@pytest.mark.ruling("R22")
@pytest.mark.ruling("R32")
def test_r22_the_system_works_replays_an_own_removed_card_then_removes_both() -> None:
    """R22: only own, non-reaction removed cards are offered; both end removed again."""
    s = ed(["E06"], removed=["E20", "E04", "N18"])
    s, _ = do(s, "editor", action("E06"))
    s, _ = pass_window(s)
    assert isinstance(s.decision, CardD) and s.decision.role == "editor", describe(s)
    assert acts(s, "editor") == [{"type": "choose_card", "card": "E20"}]
    assert legal_actions(s, "nixon") == []
    s, _ = do(s, "editor", {"type": "choose_card", "card": "E20"})
    s, _ = pass_window(s)  # R32: Nixon may answer the replayed event (here he passes)
    assert (s.track_momentum, s.track_initiative) == (2, 2), describe(s)
    assert sorted(s.removed) == ["E04", "E06", "E20", "N18"], describe(s)
    assert list(s.discards["editor"]) == [] and s.decision == PlayD("nixon", "", 1), describe(s)


@pytest.mark.ruling("R22")
def test_r22_mitchell_cancels_the_system_works_and_nothing_is_replayed() -> None:
    """R22, R17: The system works is an event; cancelled, it is discarded and E20 stays out."""
    s = ed(["E06", "E18"], nixon=["N06", "N13"], removed=["E20"])
    s, _ = do(s, "editor", action("E06"))
    s, _ = do(s, "nixon", react("N06"))
    s, _ = pass_window(s)  # the Editor could re-react (Bradlee, Mass demonstration)
    assert list(s.discards["editor"]) == ["E06"] and list(s.removed) == ["E20"], describe(s)
    assert (s.track_momentum, s.track_initiative) == (0, 0), describe(s)
    assert s.decision == PlayD("nixon", "", 1), describe(s)
