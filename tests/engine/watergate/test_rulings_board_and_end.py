"""Rulings R23–R27 (rulings.md): pinning evidence, the momentum symbol, evaluation step 5 order,
connections and the end of the game.

Board map (engine/data/board.json): informant k's picture touches O(2k-1) and O(2k), which touch
Ik, which touches Nixon's picture N; the outer ring links Oj to Oj+1. Colour slips:
blue O1 O6 O7 O12 O14 I1 I4, yellow O2 O3 O8 O9 O13 I2 I5, green O4 O5 O10 O11 I3 I6 I7.
Expected values are worked out by hand from the rules, never copied from the engine.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import MatchOver
from engine.watergate import Action, Event, MatchState, Role, apply, legal_actions
from engine.watergate.describe import describe
from engine.watergate.state import PictureD, PinD, PlayD, SpaceD
from engine.watergate.views import view_for
from tests.engine.watergate.builders import act, acts, of_type, pass_window, position

BLUE = {"O1", "O6", "O7", "O12", "O14", "I1", "I4"}
YELLOW = {"O2", "O3", "O8", "O9", "O13", "I2", "I5"}
GREEN = {"O4", "O5", "O10", "O11", "I3", "I6", "I7"}


def do(s: MatchState, role: Role, action: Action) -> tuple[MatchState, list[Event]]:
    """Apply `action` after checking that it is one of the offered legal actions."""
    offered = acts(s, role)
    assert action in offered, f"{action} not offered to {role}: {offered}\n{describe(s)}"
    return act(s, role, action)


def ed(hand: list[str], nixon: list[str] | None = None, **kw: Any) -> MatchState:
    """The Editor to play from `hand`; Nixon holds `nixon` (default: one event card)."""
    return position(editor_hand=hand, nixon_hand=["N13"] if nixon is None else nixon, **kw)


def nx(hand: list[str], editor: list[str] | None = None, **kw: Any) -> MatchState:
    """Nixon to play from `hand`; the Editor holds `editor` (default: one event card)."""
    editor_hand = ["E18"] if editor is None else editor
    return position(turn="nixon", nixon_hand=hand, editor_hand=editor_hand, **kw)


def value(card: str, target: str, **extra: str | int) -> Action:
    return {"type": "play_value", "card": card, "target": target, **extra}


def pin(handle: int, space: str) -> Action:
    return {"type": "pin", "handle": handle, "space": space}


def pin_options(s: MatchState, role: Role) -> set[tuple[int, str]]:
    assert s.decision == PinD(role), describe(s)
    return {(int(a["handle"]), str(a["space"])) for a in acts(s, role)}


def space(s: MatchState, sp: str, seat: Role = "editor") -> dict | None:
    return view_for(s, seat)["board"]["spaces"][sp]


def assert_over(s: MatchState, winner: Role, reason: str) -> None:
    """The match has ended: both seats see it, nobody may act."""
    assert (s.winner, s.win_reason) == (winner, reason), describe(s)
    for seat in ("editor", "nixon"):
        v = view_for(s, seat)
        assert (v["winner"], v["win_reason"], v["decision"]) == (winner, reason, None)
        assert legal_actions(s, seat) == []
    with pytest.raises(MatchOver):
        apply(s, winner, {"type": "pass"})


# ---- R23: pinning ------------------------------------------------------------------------------


@pytest.mark.ruling("R23")
def test_r23_editor_chooses_any_empty_space_of_either_colour_and_pins_face_up() -> None:
    """R23: a blue/yellow token may go on any empty blue or yellow space; the Editor chooses."""
    s = ed(["E10"], track=[("T20", 3, True)], board={"O1": ("T03", False)})
    s, _ = do(s, "editor", value("E10", "evidence", handle=1))
    assert pin_options(s, "editor") == {(1, sp) for sp in (BLUE | YELLOW) - {"O1"}}
    assert legal_actions(s, "nixon") == []
    s, _ = do(s, "editor", pin(1, "I4"))
    for seat in ("editor", "nixon"):
        assert space(s, "I4", seat) == {
            "handle": 1,
            "face": "up",
            "colors": ["blue", "yellow"],
            "momentum_symbol": False,
        }
    assert s.track_momentum == 0 and s.decision == PlayD("nixon", "", 1), describe(s)


@pytest.mark.ruling("R23")
def test_r23_nixon_pins_face_down_and_board_tokens_stay_visible() -> None:
    """R23: Nixon pins face down (breaking threads); both may still look at board tokens."""
    s = nx(["N09", "N13"], track=[("T08", -3, True)])
    s, _ = do(s, "nixon", value("N09", "evidence", handle=1))
    s, _ = pass_window(s)
    assert pin_options(s, "nixon") == {(1, sp) for sp in YELLOW}
    s, _ = do(s, "nixon", pin(1, "O8"))
    assert space(s, "O8", "editor") == {
        "handle": 1,
        "face": "down",
        "colors": ["yellow"],
        "momentum_symbol": False,
    }
    assert s.decision == PlayD("editor", "", 1), describe(s)


FULL_BLUE = {
    "O1": ("T03", True),
    "O6": ("T04", True),
    "O7": ("T05", False),
    "O12": ("T06", True),
    "O14": ("T21", False),
    "I1": ("T22", True),
    "I4": ("T28", True),
}


@pytest.mark.ruling("R23")
def test_r23_no_matching_empty_space_the_token_goes_back_to_the_bag() -> None:
    """R23: every blue space is taken, so the gained blue token returns to the bag."""
    s = ed(["E15"], track=[("T02", 3, True)], board=FULL_BLUE)
    assert len(s.bag) == 22
    s, events = do(s, "editor", value("E15", "evidence", handle=1))
    assert s.track == [] and list(s.holding["editor"]) == [], describe(s)
    assert len(s.bag) == 23 and "T02" in s.bag, describe(s)
    assert s.decision == PlayD("nixon", "", 1), describe(s)
    assert of_type(events, "evidence_pinned") == [] and of_type(events, "token_returned_to_bag")


@pytest.mark.ruling("R23")
def test_r23_two_coloured_token_with_one_colour_full_uses_the_other() -> None:
    """R23: blue is full, so a blue/yellow token may go only on an empty yellow space."""
    s = ed(["E15"], track=[("T20", 3, True)], board=FULL_BLUE)
    s, _ = do(s, "editor", value("E15", "evidence", handle=1))
    assert pin_options(s, "editor") == {(1, sp) for sp in YELLOW}


# ---- R24: the momentum symbol ------------------------------------------------------------------


@pytest.mark.ruling("R24")
def test_r24_editor_pinning_a_momentum_symbol_pulls_the_momentum_token() -> None:
    """R24: T07 shows the symbol; pinned by the Editor, the momentum token moves 0 -> +1."""
    s = ed(["E10"], track=[("T07", 3, True)])
    s, _ = do(s, "editor", value("E10", "evidence", handle=1))
    assert s.track_momentum == 0, describe(s)  # only when pinned
    s, _ = do(s, "editor", pin(1, "O2"))
    assert view_for(s, "nixon")["track"]["momentum"] == 1, describe(s)


@pytest.mark.ruling("R24")
def test_r24_nixon_pinning_a_momentum_symbol_pulls_it_towards_him() -> None:
    """R24: Nixon pins T01 (blue, symbol) face down; the momentum token moves 0 -> -1."""
    s = nx(["N19", "N13"], track=[("T01", -4, True)])
    s, _ = do(s, "nixon", value("N19", "evidence", handle=1))
    s, _ = pass_window(s)
    s, _ = do(s, "nixon", pin(1, "O1"))
    assert s.track_momentum == -1 and space(s, "O1")["face"] == "down", describe(s)


@pytest.mark.ruling("R24")
def test_r24_momentum_token_already_gained_nothing_moves() -> None:
    """R24: the symbol pulls the momentum token only if it is on the track."""
    s = ed(["E10"], track=[("T07", 3, True)], track_momentum=None)
    s, _ = do(s, "editor", value("E10", "evidence", handle=1))
    s, events = do(s, "editor", pin(1, "O2"))
    assert s.track_momentum is None and of_type(events, "token_moved") == [], describe(s)
    assert s.momentum == {"editor": 0, "nixon": 0} and s.decision == PlayD("nixon", "", 1)


@pytest.mark.ruling("R24")
def test_r24_the_pull_can_gain_the_momentum_token() -> None:
    """R24, R9: momentum at +4 pulled one step reaches +5: the Editor gains it at once."""
    s = ed(["E10"], track=[("T07", 3, True)], track_momentum=4)
    s, _ = do(s, "editor", value("E10", "evidence", handle=1))
    s, _ = do(s, "editor", pin(1, "O2"))
    assert s.track_momentum is None and s.momentum["editor"] == 1, describe(s)
    # the Editor's momentum card space 1: pin any picture from the supply
    assert isinstance(s.decision, PictureD) and s.decision.role == "editor", describe(s)


# ---- R25: evaluation step 5 order -----------------------------------------------------------


@pytest.mark.ruling("R25")
@pytest.mark.parametrize(
    ("round_initiative", "track_initiative", "first"),
    [
        ("editor", -2, "nixon"),  # the token on Nixon's side: he has initiative after step 2
        ("editor", 0, "nixon"),  # on 0: the player who did not have it
        ("nixon", 0, "editor"),
        ("editor", 3, "editor"),
        ("nixon", 1, "editor"),
    ],
)
def test_r25_initiative_after_step_two_pins_all_its_tokens_first(
    round_initiative: Role, track_initiative: int, first: Role
) -> None:
    """R25: both hands run out; the player holding initiative after step 2 pins all first."""
    second: Role = "editor" if first == "nixon" else "nixon"
    track = [
        ("T02", -3, False),  # 1 Nixon's side, blue
        ("T14", -1, False),  # 2 Nixon's side, green
        ("T08", 2, True),  # 3 Editor's side, yellow
        ("T09", 4, True),  # 4 Editor's side, yellow
        ("T15", 0, False),  # 5 neutral: back to the bag at step 1
    ]
    s = position(
        turn=round_initiative,
        initiative=round_initiative,
        editor_hand=["E18"],
        nixon_hand=["N13"],
        track_initiative=track_initiative,
        track=track,
    )
    bag = len(s.bag)
    s, _ = do(
        s, round_initiative, value("E18" if round_initiative == "editor" else "N13", "momentum")
    )
    last = "nixon" if round_initiative == "editor" else "editor"
    s, log = do(s, last, value("N13" if last == "nixon" else "E18", "momentum"))
    # step 1: token 5 back to the bag; step 3: momentum on 0 back to the supply
    left = [t.handle for t in [*s.track, *s.holding["editor"], *s.holding["nixon"]]]
    assert sorted(left) == [1, 2, 3, 4] and len(s.bag) == bag + 1, describe(s)
    assert s.initiative == first and s.momentum_supply == 8, describe(s)
    sides = {"nixon": {1, 2}, "editor": {3, 4}}
    # the first player pins both tokens in an order they choose (here: the later one first)
    for role in (first, second):
        for _ in range(2):
            offered = {h for h, _sp in pin_options(s, role)}
            assert offered <= sides[role], describe(s)
            assert legal_actions(s, "nixon" if role == "editor" else "editor") == []
            choice = next(a for a in acts(s, role) if a["handle"] == max(offered))
            s, events = do(s, role, choice)
            log += events
    pinned = [e["role"] for e in of_type(log, "evidence_pinned")]
    assert pinned == [first, first, second, second], pinned
    assert s.round == 2 and s.decision == PlayD(first, "", 1), describe(s)
    assert len(s.hands[first]) == 5 and len(s.hands[second]) == 4, describe(s)


@pytest.mark.ruling("R25")
def test_r25_board_after_a_full_evaluation() -> None:
    """R25, R23: Nixon (initiative after step 2) pins face down, then the Editor face up."""
    s = ed(
        ["E18"],
        track_initiative=-2,
        track=[("T02", -3, False), ("T14", -1, False), ("T08", 2, True)],
    )
    s, _ = do(s, "editor", value("E18", "momentum"))
    s, _ = do(s, "nixon", value("N13", "momentum"))
    assert pin_options(s, "nixon") == {(1, sp) for sp in BLUE} | {(2, sp) for sp in GREEN}
    s, _ = do(s, "nixon", pin(2, "I3"))
    s, _ = do(s, "nixon", pin(1, "O1"))
    assert pin_options(s, "editor") == {(3, sp) for sp in YELLOW}
    s, _ = do(s, "editor", pin(3, "O2"))
    faces = {sp: space(s, sp)["face"] for sp in ("I3", "O1", "O2")}
    assert faces == {"I3": "down", "O1": "down", "O2": "up"}, describe(s)


# ---- R26: connection ------------------------------------------------------------------------

# Hugh Sloan is connected (P1 - O1 - I1 - N); James McCord's picture touches O3 (face up).
SLOAN_CONNECTED = {"O1": ("T02", True), "I1": ("T03", True), "O3": ("T09", True)}
BOTH_UP = {"hugh_sloan": "up", "james_mccord": "up"}


@pytest.mark.ruling("R26")
@pytest.mark.parametrize(
    ("where", "wins"), [("I2", True), ("O2", True), ("O8", False), ("I5", False)]
)
def test_r26_editor_wins_the_moment_a_second_informant_is_connected(where: str, wins: bool) -> None:
    """R26: a face-up pin on I2 (or O2, through I1) joins McCord to Nixon: the Editor wins."""
    s = ed(["E10"], track=[("T10", 2, True)], board=SLOAN_CONNECTED, pictures=BOTH_UP)
    assert view_for(s, "nixon")["board"]["connected"] == ["hugh_sloan"]
    s, _ = do(s, "editor", value("E10", "evidence", handle=1))
    s, events = do(s, "editor", pin(1, where))
    if wins:
        assert view_for(s, "nixon")["board"]["connected"] == ["hugh_sloan", "james_mccord"]
        assert_over(s, "editor", "connection")
        assert of_type(events, "match_won") == [
            {"type": "match_won", "role": "editor", "reason": "connection"}
        ]
    else:
        assert s.winner is None and s.decision == PlayD("nixon", "", 1), describe(s)
        assert view_for(s, "editor")["board"]["connected"] == ["hugh_sloan"]


@pytest.mark.ruling("R26")
def test_r26_face_down_token_breaks_the_thread_until_turned_face_up() -> None:
    """R26: McCord's thread runs through a face-down token on I2: not connected; flip: win."""
    board = {**SLOAN_CONNECTED, "I2": ("T10", False)}
    s = ed(["E16"], board=board, pictures=BOTH_UP)
    assert view_for(s, "editor")["board"]["connected"] == ["hugh_sloan"] and s.winner is None
    s, _ = do(s, "editor", {"type": "play_action", "card": "E16"})
    s, _ = pass_window(s)
    assert isinstance(s.decision, SpaceD), describe(s)
    assert acts(s, "editor") == [{"type": "choose_space", "space": "I2"}]
    s, _ = do(s, "editor", {"type": "choose_space", "space": "I2"})
    assert_over(s, "editor", "connection")


@pytest.mark.ruling("R26")
def test_r26_face_down_picture_is_no_informant_until_turned_face_up() -> None:
    """R26: McCord's picture is face down, so his complete thread does not count; flip: win."""
    board = {**SLOAN_CONNECTED, "I2": ("T10", True)}
    pictures = {"hugh_sloan": "up", "james_mccord": "down"}
    s = ed(["E17"], board=board, pictures=pictures)
    assert view_for(s, "nixon")["board"]["connected"] == ["hugh_sloan"] and s.winner is None
    s, _ = do(s, "editor", {"type": "play_action", "card": "E17"})
    s, _ = pass_window(s)
    assert acts(s, "editor") == [{"type": "choose_picture", "person": "james_mccord"}]
    s, _ = do(s, "editor", {"type": "choose_picture", "person": "james_mccord"})
    assert_over(s, "editor", "connection")


@pytest.mark.ruling("R26")
def test_r26_empty_space_breaks_the_thread_and_one_informant_is_not_enough() -> None:
    """R26: with I2 and O2 empty McCord is not connected; Sloan alone does not win."""
    s = ed(["E18"], board=SLOAN_CONNECTED, pictures=BOTH_UP)
    s, _ = do(s, "editor", value("E18", "initiative"))
    assert s.winner is None and view_for(s, "nixon")["board"]["connected"] == ["hugh_sloan"]


@pytest.mark.ruling("R26")
def test_r26_win_during_evaluation_pinning_stops_everything_after_it() -> None:
    """R26, R27: the Editor's first pin at step 5 connects McCord; nothing else is pinned."""
    s = ed(
        ["E18"],
        track_initiative=2,
        track=[("T10", 2, True), ("T11", 3, True), ("T04", -2, True)],
        board=SLOAN_CONNECTED,
        pictures=BOTH_UP,
    )
    s, _ = do(s, "editor", value("E18", "momentum"))
    s, _ = do(s, "nixon", value("N13", "momentum"))
    assert pin_options(s, "editor") == {(h, sp) for h in (1, 2) for sp in YELLOW - {"O3"}}
    s, _ = do(s, "editor", pin(1, "I2"))
    assert_over(s, "editor", "connection")
    assert [t.handle for t in s.holding["editor"]] == [2], describe(s)  # never pinned
    assert [(t.handle, t.pos) for t in s.track] == [(3, -2)], describe(s)  # Nixon never pinned
    assert s.round == 1, describe(s)


# ---- R27: Nixon's win -------------------------------------------------------------------------


@pytest.mark.ruling("R27")
def test_r27_fifth_momentum_wins_at_once_and_howard_hunt_draws_nothing() -> None:
    """R27: Hunt's momentum move gives Nixon his fifth token; the draw-and-play never happens."""
    s = nx(["N01", "N13"], nixon_deck=["N10", "N09"], momentum={"nixon": 4}, track_momentum=-4)
    s, _ = do(s, "nixon", {"type": "play_action", "card": "N01"})
    s, events = pass_window(s)
    assert s.momentum["nixon"] == 5 and view_for(s, "editor")["momentum"]["nixon"] == 5
    assert_over(s, "nixon", "fifth_momentum")
    assert list(s.decks["nixon"]) == ["N10", "N09"] and s.hands["nixon"] == ["N13"], describe(s)
    assert of_type(events, "top_card_drawn") == [], events


@pytest.mark.ruling("R27")
def test_r27_fifth_momentum_by_a_value_wins_at_once() -> None:
    """R27: a value taking the momentum token to Nixon's 5 places his fifth token: he wins."""
    s = nx(["N13", "N19"], momentum={"nixon": 4}, track_momentum=-4)
    s, _ = do(s, "nixon", value("N13", "momentum"))
    assert_over(s, "nixon", "fifth_momentum")


@pytest.mark.ruling("R27")
def test_r27_fifth_momentum_at_step_three_skips_steps_four_and_five() -> None:
    """R27: Nixon gains his fifth token at step 3; no new momentum token, no pinning."""
    s = ed(
        ["E18"],
        momentum={"nixon": 4},
        track_momentum=-2,
        track=[("T04", -2, True), ("T08", 3, True)],
    )
    supply = s.momentum_supply
    assert supply == 4
    s, _ = do(s, "editor", value("E18", "initiative"))
    s, _ = do(s, "nixon", value("N13", "initiative"))
    assert_over(s, "nixon", "fifth_momentum")
    assert s.momentum_supply == supply and s.track_momentum is None, describe(s)
    assert [(t.id, t.pos) for t in s.track] == [("T04", -2), ("T08", 3)], describe(s)
    assert all(b is None for b in s.board) and s.round == 1, describe(s)


@pytest.mark.ruling("R27")
def test_r27_empty_supply_at_step_four_wins_before_step_five() -> None:
    """R27: the momentum token was gained earlier; the supply is empty at step 4: Nixon wins."""
    s = ed(
        ["E18"],
        momentum={"nixon": 2},
        track_momentum=None,
        momentum_supply=0,
        track=[("T08", 3, True)],
    )
    s, _ = do(s, "editor", value("E18", "initiative"))
    s, _ = do(s, "nixon", value("N13", "initiative"))
    assert_over(s, "nixon", "empty_supply")
    assert s.momentum["nixon"] == 2 and [t.pos for t in s.track] == [3], describe(s)


@pytest.mark.ruling("R27")
def test_r27_token_returned_at_step_three_refills_the_empty_supply() -> None:
    """R27, R3: momentum on 0 returns to the empty supply at step 3, so step 4 finds one."""
    s = ed(["E18"], momentum_supply=0)
    s, _ = do(s, "editor", value("E18", "initiative"))
    s, _ = do(s, "nixon", value("N13", "initiative"))
    assert s.winner is None and s.round == 2, describe(s)
    assert (s.momentum_supply, s.track_momentum) == (0, 0), describe(s)
