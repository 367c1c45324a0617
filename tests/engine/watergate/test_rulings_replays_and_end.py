"""Rulings R31–R34 (docs/rulings.md): Gambit's prompt without a leak, The system works' replayed
card as a normal play, Howard Hunt's drawn card in the same turn, and the winning card put away;
and the Follow-the-money window that opens on a token already turned face up (R13, R17).

Positions are played by today's rules (version 3) unless a test names version 2, whose older
readings stored matches keep. Expected values are worked out by hand from the rulings.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.watergate import Action, MatchState, Role
from engine.watergate.describe import describe
from engine.watergate.state import CardD, GambitD, PinD, PlayD, ReactD
from engine.watergate.views import events_for, view_for
from tests.engine.watergate.builders import acts, do, of_type, pass_window, position, react
from tests.engine.watergate.builders import play_action as action

PASS: Action = {"type": "pass"}
REMOVE: Action = {"type": "gambit_remove"}


def keep(card: str) -> Action:
    return {"type": "gambit_keep", "card": card}


def nixon(hand: list[str], **kw: Any) -> MatchState:
    kw.setdefault("editor_hand", ["E09"])
    return position(turn="nixon", nixon_hand=hand, **kw)


def editor(hand: list[str], **kw: Any) -> MatchState:
    kw.setdefault("nixon_hand", ["N13"])
    return position(turn="editor", editor_hand=hand, **kw)


def assert_over(s: MatchState, winner: Role, reason: str) -> None:
    assert (s.winner, s.win_reason, s.decision) == (winner, reason, None), describe(s)


# ---- R31: Gambit's prompt, without a leak ------------------------------------------------------


@pytest.mark.ruling("R31")
@pytest.mark.ruling("R20")
@pytest.mark.parametrize(
    ("rest", "offered"),
    [
        ([], [REMOVE]),  # the hand is empty after Gambit
        (["N13", "N19"], [REMOVE]),  # events only
        (["N05", "N13", "N03"], [keep("N05"), keep("N03"), REMOVE]),  # one choice a conspirator
    ],
    ids=["empty_hand", "no_conspirator", "two_conspirators"],
)
def test_r31_gambit_always_asks_one_prompt(rest: list[str], offered: list[Action]) -> None:
    """R31: after Gambit's action Nixon always answers the prompt; its choices are one per
    conspirator he holds, and letting Gambit go."""
    s, _ = do(nixon(["N07", *rest]), "nixon", action("N07"))
    assert s.track_momentum == -3 and s.decision == GambitD("nixon", 0), describe(s)
    assert acts(s, "nixon") == offered
    assert view_for(s, "editor")["decision"] == {"role": "nixon", "kind": "gambit"}
    s, _ = do(s, "nixon", REMOVE)
    assert list(s.removed) == ["N07"] and s.hands["nixon"] == rest, describe(s)


@pytest.mark.ruling("R31")
@pytest.mark.ruling("R18")
def test_r31_the_editor_cannot_tell_whether_nixon_holds_a_conspirator() -> None:
    """R31, R18: with a conspirator or an event beside Gambit, the Editor sees the same."""
    seen = []
    for other_card in ("N05", "N19"):
        s, events = do(nixon(["N07", other_card]), "nixon", action("N07"))
        seen.append((view_for(s, "editor"), acts(s, "editor"), events_for(events, "editor")))
    assert seen[0] == seen[1]


@pytest.mark.ruling("R31")
def test_r31_version_2_asked_only_while_nixon_held_a_card() -> None:
    """R31 is rules version 3: version 2 let Gambit go without a prompt from an empty hand."""
    s, _ = do(nixon(["N07"], rules_version="2"), "nixon", action("N07"))
    assert list(s.removed) == ["N07"] and s.decision == PlayD("editor", "", 1), describe(s)


# ---- R32: The system works replays a card as if played normally -------------------------------


def replaying(hand: tuple[str, str] = ("E06", "E18"), **kw: Any) -> MatchState:
    """The Editor plays The system works (Nixon lets it stand) and chooses Front page again."""
    s, _ = do(editor(list(hand), removed=["E20"], **kw), "editor", action("E06"))
    s, _ = pass_window(s)
    assert isinstance(s.decision, CardD), describe(s)
    s, events = do(s, "editor", {"type": "choose_card", "card": "E20"})
    assert of_type(events, "card_replayed") == [
        {"type": "card_replayed", "role": "editor", "card": "E20"}
    ]
    return s


@pytest.mark.ruling("R32")
@pytest.mark.ruling("R17")
def test_r32_mitchell_cancels_the_replayed_event_and_both_end_removed() -> None:
    """R32: the replayed Front page is announced: Nixon's window opens against it; Mitchell
    cancels it, and it goes back out of the game (not to the discard pile) with E06."""
    s = replaying(nixon_hand=["N06", "N13"])
    assert isinstance(s.decision, ReactD) and s.decision.role == "nixon", describe(s)
    assert acts(s, "nixon") == [PASS, react("N06")]
    assert view_for(s, "editor")["decision"]["against"] == {
        "role": "editor",
        "card": "E20",
        "mode": "replay",
    }
    assert s.in_play == ["E06", "E20"] and list(s.removed) == [], describe(s)
    s, _ = do(s, "nixon", react("N06"))
    s, events = pass_window(s)  # the Editor could answer Mitchell (Bradlee, Mass demonstration)
    assert of_type(events, "card_removed") == [
        {"type": "card_removed", "role": "editor", "card": "E20"}
    ]
    assert (s.track_momentum, s.track_initiative) == (0, 0), describe(s)
    assert list(s.removed) == ["E20", "E06"] and s.discards == {"editor": (), "nixon": ("N06",)}
    assert s.in_play == [] and s.decision == PlayD("nixon", "", 1), describe(s)


@pytest.mark.ruling("R32")
@pytest.mark.ruling("R17")
def test_r32_bradlee_answers_mitchell_and_the_replayed_event_happens() -> None:
    """R32, R17: Mitchell against the replay, Ben Bradlee against Mitchell: Mitchell is removed,
    Front page moves momentum and initiative, then both cards leave the game again."""
    s = replaying(("E06", "E03"), nixon_hand=["N06", "N13"])
    s, _ = do(s, "nixon", react("N06"))
    s, _ = do(s, "editor", react("E03"))
    assert (s.track_momentum, s.track_initiative) == (2, 2), describe(s)
    assert list(s.removed) == ["N06", "E20", "E06"] and list(s.discards["editor"]) == ["E03"], (
        describe(s)
    )
    assert s.in_play == [] and s.decision == PlayD("nixon", "", 1), describe(s)


@pytest.mark.ruling("R32")
def test_r32_version_2_replayed_without_a_window() -> None:
    """R32 is rules version 3: under version 2 the replayed card simply acted, unanswerable."""
    s = replaying(nixon_hand=["N06", "N13"], rules_version="2")
    assert (s.track_momentum, s.track_initiative) == (2, 2), describe(s)
    assert sorted(s.removed) == ["E06", "E20"] and s.decision == PlayD("nixon", "", 1)


# ---- R33: Howard Hunt's drawn card belongs to the same turn ------------------------------------


@pytest.mark.ruling("R33")
@pytest.mark.ruling("R21")
@pytest.mark.parametrize(("turns_before", "acts_offered"), [(0, False), (1, True)])
def test_r33_a_brilliant_mood_drawn_by_hunt_is_value_only_on_nixons_first_turn(
    turns_before: int, acts_offered: bool
) -> None:
    """R33, R21: Hunt on Nixon's first turn draws A brilliant mood: that turn is still his
    first, so only its value may be used; on his second turn its action may."""
    s = nixon(["N01", "N13"], nixon_deck=["N08"], turns={"nixon": turns_before})
    s, _ = do(s, "nixon", action("N01"))
    s, _ = pass_window(s)
    assert s.decision == PlayD("nixon", "N08", turns_before + 1), describe(s)
    assert (action("N08") in acts(s, "nixon")) is acts_offered, describe(s)
    assert {"type": "play_value", "card": "N08", "target": "initiative"} in acts(s, "nixon")


# ---- R34: the winning card is put away --------------------------------------------------------

# Hugh Sloan's thread (P1 - O1 - I1 - N) is complete; Alfred Baldwin's lacks only his picture
# (P5 - O9 - I5 - N), or only O9 for BALDWIN_OPEN.
TWO_THREADS = {"O1": ("T02", True), "I1": ("T03", True), "O9": ("T09", True), "I5": ("T10", True)}
BALDWIN_OPEN = {"O1": ("T02", True), "I1": ("T03", True), "I5": ("T10", True)}
SLOAN = {"hugh_sloan": "up"}


@pytest.mark.ruling("R34")
@pytest.mark.ruling("R26")
def test_r34_the_event_that_connects_the_second_informant_is_removed() -> None:
    """R34: Alfred Baldwin's interview pins the picture that wins; E09 ends removed, as an
    event does (R15), not left in play."""
    s, _ = do(editor(["E09", "E18"], board=TWO_THREADS, pictures=SLOAN), "editor", action("E09"))
    s, _ = pass_window(s)
    assert_over(s, "editor", "connection")
    assert list(s.removed) == ["E09"] and s.in_play == [], describe(s)
    assert view_for(s, "nixon")["removed"] == ["E09"]


@pytest.mark.ruling("R34")
@pytest.mark.ruling("R27")
def test_r34_the_conspirator_that_brings_the_fifth_momentum_is_discarded() -> None:
    """R34: John Ehrlichman takes the momentum token to Nixon's 5: his fifth; N05 is discarded."""
    s = nixon(["N05", "N13"], momentum={"nixon": 4}, track_momentum=-3)
    s, _ = do(s, "nixon", action("N05"))
    s, _ = pass_window(s)
    assert_over(s, "nixon", "fifth_momentum")
    assert list(s.discards["nixon"]) == ["N05"] and s.in_play == [], describe(s)


@pytest.mark.ruling("R34")
def test_r34_a_value_card_whose_move_wins_is_discarded() -> None:
    """R34: Nixon's value gains a momentum-symbol token; pinning it pulls the momentum token to
    his 5 (R24): the fifth. The played card, still waiting for the discard pile, goes there."""
    s = nixon(["N03", "N13"], momentum={"nixon": 4}, track_momentum=-4, track=[("T01", -3, True)])
    s, _ = do(s, "nixon", {"type": "play_value", "card": "N03", "target": "evidence", "handle": 1})
    s, _ = pass_window(s)  # the Editor's Follow-the-money window (R17)
    assert isinstance(s.decision, PinD), describe(s)
    s, _ = do(s, "nixon", {"type": "pin", "handle": 1, "space": "O1"})
    assert_over(s, "nixon", "fifth_momentum")
    assert list(s.discards["nixon"]) == ["N03"] and s.in_play == [], describe(s)


@pytest.mark.ruling("R34")
@pytest.mark.ruling("R17")
def test_r34_follow_the_money_that_wins_is_removed_and_nixons_card_discarded() -> None:
    """R34, R17: "Follow the money!" sends Nixon's token to the Editor's 5; she pins it on O9,
    which connects Alfred Baldwin: E05 leaves the game, Nixon's card is in his discard pile."""
    pictures = {"hugh_sloan": "up", "alfred_baldwin": "up"}
    s = nixon(
        ["N09", "N13"],
        editor_hand=["E05", "E18"],
        board=BALDWIN_OPEN,
        pictures=pictures,
        track=[("T08", 3, True)],
    )
    s, _ = do(s, "nixon", {"type": "play_value", "card": "N09", "target": "evidence", "handle": 1})
    s, _ = do(s, "editor", react("E05"))
    s, _ = pass_window(s)  # Nixon's window for John Mitchell
    s, _ = do(s, "editor", {"type": "pin", "handle": 1, "space": "O9"})
    assert_over(s, "editor", "connection")
    assert list(s.removed) == ["E05"] and list(s.discards["nixon"]) == ["N09"], describe(s)
    assert s.in_play == [], describe(s)


@pytest.mark.ruling("R34")
@pytest.mark.ruling("R31")
def test_r34_gambit_that_wins_leaves_the_game_without_a_prompt() -> None:
    """R34: Gambit's momentum move is Nixon's fifth; nothing can be decided once the match is
    over, so Gambit goes where it goes without the prompt: out of the game."""
    s, _ = do(
        nixon(["N07", "N05"], momentum={"nixon": 4}, track_momentum=-2), "nixon", action("N07")
    )
    assert_over(s, "nixon", "fifth_momentum")
    assert list(s.removed) == ["N07"] and not s.in_play, describe(s)
    assert s.hands["nixon"] == ["N05"], describe(s)


@pytest.mark.ruling("R34")
@pytest.mark.ruling("R32")
def test_r34_a_replayed_card_that_wins_and_the_system_works_both_end_removed() -> None:
    """R34, R32: The system works replays Alfred Baldwin's interview, which wins: the replayed
    card and then The system works leave the game, as they would have."""
    s = editor(["E06", "E18"], removed=["E09"], board=TWO_THREADS, pictures=SLOAN)
    s, _ = do(s, "editor", action("E06"))
    s, _ = pass_window(s)
    s, _ = do(s, "editor", {"type": "choose_card", "card": "E09"})
    s, _ = pass_window(s)  # Nixon's window on the replayed event
    assert_over(s, "editor", "connection")
    assert list(s.removed) == ["E09", "E06"] and s.in_play == [], describe(s)


@pytest.mark.ruling("R34")
def test_r34_version_2_left_the_winning_card_in_play() -> None:
    """R34 is rules version 3: a version-2 match ends as it always did, E09 still in play."""
    s = editor(["E09", "E18"], board=TWO_THREADS, pictures=SLOAN, rules_version="2")
    s, _ = do(s, "editor", action("E09"))
    s, _ = pass_window(s)
    assert_over(s, "editor", "connection")
    assert s.in_play == ["E09"] and list(s.removed) == [], describe(s)


# ---- R13 with R17: the Follow-the-money window opens on a face-up token ------------------------


@pytest.mark.ruling("R13")
@pytest.mark.ruling("R17")
def test_r13_nixons_face_down_token_is_face_up_when_follow_the_money_opens() -> None:
    """R13, R17: Nixon turns his face-down token face up to move it; the Editor's window opens
    after that and before the move, so she decides knowing which token it is."""
    s = nixon(["N09", "N13"], editor_hand=["E05", "E18"], track=[("T08", 0, False)])
    s, events = do(
        s, "nixon", {"type": "play_value", "card": "N09", "target": "evidence", "handle": 1}
    )
    assert isinstance(s.decision, ReactD) and s.decision.role == "editor", describe(s)
    (seen,) = view_for(s, "editor")["track"]["evidence"]
    assert (seen["face"], seen["colors"], seen["position"]) == ("up", ["yellow"], 0)
    log = events_for(events, "editor")
    assert [e["type"] for e in log] == ["card_played", "token_revealed"], log
    assert log[1]["token"]["colors"] == ["yellow"]
