"""Rulings R1–R13 (rulings.md): set-up, rounds, turn order, drawing, and the value part of a card.

Every expected value below is worked out by hand from the rulebook and the rulings, never copied
from the engine. Decks in the builder are given top LAST.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.watergate import Action, Event, MatchState, Role, legal_actions, new_match
from engine.watergate.describe import describe
from engine.watergate.state import FaceDownD, FallbackD, PinD, PlayD, ReactD
from engine.watergate.views import events_for, view_for
from tests.engine.watergate.builders import act, acts, of_type, pass_window, position

BAG_IDS = [f"T{n:02d}" for n in range(1, 31)]
YELLOW_SPACES = {"O2", "O3", "O8", "O9", "O13", "I2", "I5"}


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


def values_of(s: MatchState, role: Role, card: str) -> list[Action]:
    return [a for a in acts(s, role) if a["type"] == "play_value" and a["card"] == card]


def token(s: MatchState, handle: int) -> dict:
    """The seat-independent facts of a track token, from the Editor's view."""
    for t in view_for(s, "editor")["track"]["evidence"]:
        if t["handle"] == handle:
            return t
    raise AssertionError(f"token #{handle} is not on the track\n{describe(s)}")


def end_round_quietly(s: MatchState) -> MatchState:
    """Editor moves the initiative 1 (keeps it), Nixon moves momentum 1 (gains it): no window."""
    s, _ = do(s, "editor", value("E18", "initiative"))
    s, _ = do(s, "nixon", value("N13", "momentum"))
    return s


# ---- R1: Nixon draws 3 evidence tokens every round ---------------------------------------------


@pytest.mark.ruling("R1")
def test_r1_set_up_puts_three_face_down_tokens_on_zero() -> None:
    """R1: at the start of round 1 three tokens from the bag lie face down on space 0."""
    s = new_match(7)
    ev = view_for(s, "editor")["track"]["evidence"]
    assert [(t["position"], t["face"]) for t in ev] == [(0, "down")] * 3, describe(s)
    assert all("colors" not in t for t in ev), "the Editor may not see face-down colours"
    assert all("colors" in t for t in view_for(s, "nixon")["track"]["evidence"])
    assert view_for(s, "editor")["bag"] == 27


@pytest.mark.ruling("R1")
def test_r1_nixon_draws_three_tokens_again_at_the_start_of_round_two() -> None:
    """R1: the initial phase of every round (not only set-up) puts 3 new tokens on space 0."""
    s = ed(["E18"])
    assert s.track == [] and len(s.bag) == 30
    s, _ = do(s, "editor", value("E18", "initiative"))
    s, events = do(s, "nixon", value("N13", "momentum"))
    assert s.round == 2, describe(s)
    placed = of_type(events_for(events, "editor"), "tokens_placed")
    assert [[sorted(p) for p in e["tokens"]] for e in placed] == [[["face", "handle"]] * 3]
    ev = view_for(s, "editor")["track"]["evidence"]
    assert [(t["position"], t["face"]) for t in ev] == [(0, "down")] * 3, describe(s)
    assert len(s.bag) == 27, describe(s)
    assert all(t.id in BAG_IDS for t in s.track)


@pytest.mark.ruling("R1")
@pytest.mark.parametrize(
    ("bag", "expected"),
    [([], 0), (["T02"], 1), (["T02", "T08"], 2), (["T02", "T08", "T14", "T20"], 3)],
)
def test_r1_fewer_than_three_in_the_bag_draws_what_is_there(bag: list[str], expected: int) -> None:
    """R1: if the bag holds fewer than 3 tokens, Nixon draws what is there."""
    s = end_round_quietly(ed(["E18"], bag=bag))
    assert s.round == 2, describe(s)
    assert len(s.track) == expected, describe(s)
    assert all(t.pos == 0 and not t.up for t in s.track), describe(s)
    assert len(s.bag) == len(bag) - expected
    assert sorted([*(t.id for t in s.track), *s.bag]) == sorted(bag), describe(s)


# ---- R2: the bag ------------------------------------------------------------------------------


@pytest.mark.ruling("R2")
@pytest.mark.parametrize("seed", [1, 2, 99])
def test_r2_the_bag_holds_the_thirty_set_up_tokens(seed: int) -> None:
    """R2: set-up puts the 30 bag tokens (T01–T30) in the bag; the 6 spares stay out of play."""
    s = new_match(seed)
    assert sorted([*s.bag, *(t.id for t in s.track)]) == BAG_IDS, describe(s)
    assert view_for(s, "nixon")["bag"] == 27


# ---- R3, R4: momentum at evaluation -----------------------------------------------------------


@pytest.mark.ruling("R3")
def test_r3_momentum_token_on_zero_returns_to_the_supply() -> None:
    """R3: at step 3 a momentum token on 0 goes back to the supply (not out of the game)."""
    s = ed(["E18"], initiative="editor")
    assert s.momentum_supply == 8
    s, _ = do(s, "editor", value("E18", "initiative"))  # 0 -> +1
    s, events = do(s, "nixon", value("N13", "initiative"))  # +1 -> 0
    # step 3 returns it (supply 9), step 4 puts a new one on 0 (supply 8)
    m = view_for(s, "editor")["momentum"]
    assert m == {"editor": 0, "nixon": 0, "supply": 8, "removed": 0}, describe(s)
    assert s.track_momentum == 0 and s.round == 2, describe(s)
    assert of_type(events, "momentum_returned"), events
    # step 2: the initiative token on 0 goes to the player who did not have initiative
    assert s.initiative == "nixon" and isinstance(s.decision, PlayD), describe(s)
    assert s.decision.role == "nixon"
    assert (len(s.hands["nixon"]), len(s.hands["editor"])) == (5, 4), describe(s)


@pytest.mark.ruling("R4")
def test_r4_empty_supply_at_step_four_nixon_wins() -> None:
    """R4: no momentum token left in the supply at evaluation step 4: Nixon wins."""
    s = ed(["E18"], momentum={"nixon": 1}, momentum_supply=0, track=[("T02", -2, False)])
    s, _ = do(s, "editor", value("E18", "initiative"))
    s, events = do(s, "nixon", value("N13", "momentum"))  # Nixon gains it at step 3
    assert s.momentum["nixon"] == 2, describe(s)
    assert (s.winner, s.win_reason) == ("nixon", "empty_supply"), describe(s)
    # step 5 never runs: Nixon's token is not pinned, no new round starts
    assert [(t.id, t.pos) for t in s.track] == [("T02", -2)], describe(s)
    assert all(b is None for b in s.board) and s.round == 1, describe(s)
    assert legal_actions(s, "editor") == [] and legal_actions(s, "nixon") == []
    assert of_type(events, "match_won") == [
        {"type": "match_won", "role": "nixon", "reason": "empty_supply"}
    ]


# ---- R5, R6: first initiative and turn order ----------------------------------------------------


@pytest.mark.ruling("R5")
@pytest.mark.parametrize("seed", [0, 5, 123])
def test_r5_editor_starts_with_initiative_five_cards_nixon_four(seed: int) -> None:
    """R5: the initiative card points to the Editor; Editor draws 5, Nixon 4, Editor plays first."""
    s = new_match(seed)
    ed, nx = view_for(s, "editor"), view_for(s, "nixon")
    assert ed["initiative"] == "editor" and nx["initiative"] == "editor"
    assert len(ed["hands"]["editor"]) == 5 and ed["hands"]["nixon"] == 4
    assert len(nx["hands"]["nixon"]) == 4 and nx["hands"]["editor"] == 5
    assert ed["decks"] == {"editor": 15, "nixon": 16}
    assert ed["track"]["initiative"] == 0 and ed["track"]["momentum"] == 0
    assert ed["momentum"]["supply"] == 8
    assert ed["decision"] == {"role": "editor", "kind": "play", "turn": 1}
    assert acts(s, "editor") and legal_actions(s, "nixon") == []


@pytest.mark.ruling("R6")
def test_r6_a_player_without_cards_is_skipped() -> None:
    """R6: players alternate; once Nixon's hand is empty the Editor keeps playing alone."""
    s = ed(["E18", "E11", "E14"])
    s, _ = do(s, "editor", value("E18", "initiative"))  # +1
    assert s.decision == PlayD("nixon", "", 1), describe(s)
    s, _ = do(s, "nixon", value("N13", "initiative"))  # 0
    assert s.decision == PlayD("editor", "", 2), describe(s)
    s, _ = do(s, "editor", value("E11", "initiative"))  # +1
    assert s.decision == PlayD("editor", "", 3), describe(s)  # Nixon has no card: skipped
    assert legal_actions(s, "nixon") == []
    s, events = do(s, "editor", value("E14", "initiative"))  # +3
    assert of_type(events, "evaluation_started"), events
    assert s.round == 2 and s.initiative == "editor", describe(s)


@pytest.mark.ruling("R6")
def test_r6_views_show_the_editor_on_turn_while_nixon_is_skipped() -> None:
    """R6: with Nixon's hand empty the Editor keeps playing; both seats see it is his turn."""
    s = ed(["E18", "E11", "E14"])
    s, _ = do(s, "editor", value("E18", "initiative"))
    s, _ = do(s, "nixon", value("N13", "initiative"))
    s, _ = do(s, "editor", value("E11", "initiative"))
    assert s.decision == PlayD("editor", "", 3) and s.hands["nixon"] == [], describe(s)
    for seat in ("editor", "nixon"):
        v = view_for(s, seat)
        assert (v["turn"], v["decision"]["role"]) == ("editor", "editor"), (seat, describe(s))


# ---- R7: drawing from an empty deck ---------------------------------------------------------


@pytest.mark.ruling("R7")
def test_r7_empty_deck_reshuffles_the_discard_pile_and_keeps_drawing() -> None:
    """R7: the Editor draws 2, then shuffles the 5-card discard pile into a deck and draws 3."""
    s0 = ed(["E18"], editor_deck=["E01", "E02"], editor_discard=["E09", "E10", "E11", "E14"])
    s = end_round_quietly(s0)  # E18 joins the discard pile; the Editor keeps initiative
    hand, deck = s.hands["editor"], s.decks["editor"]
    assert len(hand) == 5 and hand[:2] == ["E02", "E01"], describe(s)
    assert sorted([*hand, *deck]) == ["E01", "E02", "E09", "E10", "E11", "E14", "E18"], describe(s)
    assert len(deck) == 2 and list(s.discards["editor"]) == [], describe(s)
    # the match's seeded generator: the same position gives the same shuffle
    assert end_round_quietly(s0) == s


@pytest.mark.ruling("R7")
def test_r7_reshuffle_is_public_but_its_order_is_not() -> None:
    """R7: both seats learn that the Editor reshuffled (and how many cards), not the new order."""
    s = ed(["E18"], editor_deck=[], editor_discard=["E09", "E10"])
    s, _ = do(s, "editor", value("E18", "initiative"))
    _, events = do(s, "nixon", value("N13", "momentum"))
    shuffled = of_type(events_for(events, "nixon"), "deck_reshuffled")
    assert shuffled == [{"type": "deck_reshuffled", "role": "editor", "count": 3}], shuffled


@pytest.mark.ruling("R7")
def test_r7_deck_and_discard_empty_draws_fewer_cards() -> None:
    """R7: with 2 cards in the deck and an empty discard pile, the Editor draws only 2."""
    s = ed(["E18"], editor_deck=["E01", "E02"])
    s, _ = do(s, "editor", {"type": "play_action", "card": "E18"})  # event: leaves the game
    s, _ = pass_window(s)  # momentum 0 -> +2
    s, _ = do(s, "nixon", {"type": "play_action", "card": "N13"})  # momentum +2 -> -1
    assert s.round == 2, describe(s)
    assert sorted(s.hands["editor"]) == ["E01", "E02"], describe(s)
    assert list(s.decks["editor"]) == [] and list(s.discards["editor"]) == [], describe(s)
    assert view_for(s, "nixon")["hands"]["editor"] == 2


# ---- R8: reactions are out of turn ------------------------------------------------------------


@pytest.mark.ruling("R8")
def test_r8_reaction_comes_from_the_hand_and_does_not_change_the_turn() -> None:
    """R8: Ben Bradlee leaves the Editor's hand; afterwards it is the Editor's normal turn."""
    s = nx(["N05", "N13"], editor=["E03", "E18"])
    s, _ = do(s, "nixon", {"type": "play_action", "card": "N05"})
    assert s.decision == ReactD("editor", 0), describe(s)
    s, _ = do(s, "editor", {"type": "react", "card": "E03"})
    assert s.hands["editor"] == ["E18"], describe(s)
    assert list(s.discards["editor"]) == ["E03"] and list(s.removed) == ["N05"], describe(s)
    assert s.decision == PlayD("editor", "", 1), describe(s)  # the Editor's own (first) turn
    s, _ = do(s, "editor", value("E18", "initiative"))
    assert s.decision == PlayD("nixon", "", 2), describe(s)


# ---- R9: the track -----------------------------------------------------------------------------


@pytest.mark.ruling("R9")
@pytest.mark.parametrize(
    ("role", "card", "target", "start", "end"),
    [
        ("editor", "E10", "initiative", -2, 2),  # value 4 through 0
        ("editor", "E18", "momentum", -1, 0),
        ("nixon", "N09", "momentum", 3, -1),  # value 4 through 0
        ("nixon", "N13", "initiative", 0, -1),
    ],
)
def test_r9_value_moves_towards_the_player_through_zero(
    role: Role, card: str, target: str, start: int, end: int
) -> None:
    """R9: moving N steps towards your side passes through 0 if needed."""
    s = position(
        turn=role,
        editor_hand=[card] if role == "editor" else ["E18"],
        nixon_hand=[card] if role == "nixon" else ["N13"],
        track_initiative=start if target == "initiative" else 0,
        track_momentum=start if target == "momentum" else 0,
    )
    s, events = do(s, role, value(card, target))
    assert view_for(s, "editor")["track"][target] == end, describe(s)
    moved = of_type(events, "token_moved")
    assert [(m["from"], m["to"]) for m in moved] == [(start, end)], moved


@pytest.mark.ruling("R9")
def test_r9_reaching_five_gains_the_evidence_token_at_once_extra_steps_lost() -> None:
    """R9: value 4 from +3 stops on +5 (2 steps lost); the Editor gains the token and pins it."""
    s = ed(["E10"], track=[("T08", 3, True)])
    s, events = do(s, "editor", value("E10", "evidence", handle=1))
    moved = of_type(events, "token_moved")
    assert [(m["from"], m["to"], m["steps"]) for m in moved] == [(3, 5, 2)], moved
    assert s.track == [] and s.decision == PinD("editor"), describe(s)
    spaces = {a["space"] for a in acts(s, "editor")}
    assert spaces == YELLOW_SPACES, spaces
    s, _ = do(s, "editor", {"type": "pin", "handle": 1, "space": "O2"})
    assert view_for(s, "nixon")["board"]["spaces"]["O2"]["face"] == "up"
    assert list(s.discards["editor"]) == ["E10"], describe(s)
    assert s.decision == PlayD("nixon", "", 1), describe(s)


@pytest.mark.ruling("R9")
def test_r9_nixon_gains_the_initiative_at_once_and_it_cannot_be_moved_again() -> None:
    """R9: the initiative token reaching Nixon's 5 is gained at once; step 2 is then skipped."""
    s = nx(["N09", "N13"], initiative="editor", track_initiative=-3)
    s, _ = do(s, "nixon", value("N09", "initiative"))  # -3 -> -5 (2 steps lost)
    assert view_for(s, "editor")["initiative"] == "nixon", describe(s)
    assert view_for(s, "editor")["track"]["initiative"] is None
    assert value("E18", "initiative") not in acts(s, "editor")
    s, _ = do(s, "editor", value("E18", "momentum"))  # +1
    s, _ = do(s, "nixon", value("N13", "momentum"))  # 0: back to the supply
    assert s.round == 2 and s.initiative == "nixon", describe(s)
    assert s.decision == PlayD("nixon", "", 1) and len(s.hands["nixon"]) == 5, describe(s)


@pytest.mark.ruling("R9")
def test_r9_nixon_gains_the_momentum_token_at_once() -> None:
    """R9: the momentum token reaching Nixon's 5 goes on his momentum card at once."""
    s = nx(["N13"], track_momentum=-4)
    s, _ = do(s, "nixon", value("N13", "momentum"))
    assert view_for(s, "editor")["momentum"]["nixon"] == 1, describe(s)
    assert s.track_momentum is None, describe(s)
    assert [a["target"] for a in values_of(s, "editor", "E18")] == ["initiative"]


# ---- R10: what a value may move ---------------------------------------------------------------

MIXED_TRACK = [
    ("T02", 0, True),  # 1 blue
    ("T08", 0, True),  # 2 yellow
    ("T20", 1, True),  # 3 blue/yellow
    ("T29", -1, True),  # 4 green/blue
    ("T14", 2, True),  # 5 green
    ("T03", 0, False),  # 6 blue, face down
]


def _targets(actions: list[Action]) -> set[tuple[str, int | str]]:
    return {(str(a["target"]), a.get("handle", a.get("color", ""))) for a in actions}


@pytest.mark.ruling("R10")
def test_r10_editor_value_moves_initiative_momentum_or_a_matching_face_up_token() -> None:
    """R10: a blue card moves blue or blue-pair tokens; a joker any; face-down ones by asking."""
    s = ed(["E15", "E07"], track=MIXED_TRACK)
    blue = _targets(values_of(s, "editor", "E15"))
    assert blue == {
        ("initiative", ""),
        ("momentum", ""),
        ("evidence", 1),
        ("evidence", 3),
        ("evidence", 4),
        ("ask", "blue"),
    }, blue
    joker = _targets(values_of(s, "editor", "E07"))
    assert joker == {("initiative", ""), ("momentum", "")} | {
        ("evidence", h) for h in (1, 2, 3, 4, 5)
    } | {("ask", c) for c in ("blue", "yellow", "green")}, joker


@pytest.mark.ruling("R10")
def test_r10_nixon_value_moves_any_token_of_the_card_colour_face_up_or_down() -> None:
    """R10: Nixon's yellow card moves yellow and yellow-pair tokens, whichever face they show."""
    track = [("T02", 0, True), ("T08", 0, True), ("T20", 0, False), ("T14", 0, False)]
    track.append(("T10", -2, False))
    s = nx(["N09"], track=track)
    got = _targets(values_of(s, "nixon", "N09"))
    assert got == {("initiative", ""), ("momentum", ""), ("evidence", 2)} | {
        ("evidence", 3),
        ("evidence", 5),
    }, got


# ---- R11: face-down tokens for the Editor -----------------------------------------------------


@pytest.mark.ruling("R11")
def test_r11_editor_names_a_colour_and_nixon_chooses_a_matching_face_down_token() -> None:
    """R11: the Editor asks for yellow; only Nixon decides, among the face-down yellow tokens."""
    track = [("T08", 0, False), ("T14", 0, False), ("T20", -1, False), ("T09", 1, True)]
    s = ed(["E09"], track=track)
    offered = _targets(values_of(s, "editor", "E09"))
    assert ("evidence", 1) not in offered and ("evidence", 3) not in offered  # never directly
    assert ("ask", "yellow") in offered and ("evidence", 4) in offered
    s, events = do(s, "editor", value("E09", "ask", color="yellow"))
    assert s.decision == FaceDownD("nixon", "E09", "yellow", 3), describe(s)
    assert legal_actions(s, "editor") == []
    assert {a["handle"] for a in acts(s, "nixon")} == {1, 3}  # T08 yellow, T20 blue/yellow
    assert all(a["type"] == "choose_token" for a in acts(s, "nixon"))
    asked = of_type(events_for(events, "editor"), "face_down_asked")
    assert asked == [{"type": "face_down_asked", "role": "editor", "color": "yellow"}]
    s, _ = do(s, "nixon", {"type": "choose_token", "handle": 3})
    assert token(s, 3) == {
        "handle": 3,
        "face": "up",
        "position": 2,
        "colors": ["blue", "yellow"],
        "momentum_symbol": False,
    }, describe(s)
    assert token(s, 1)["face"] == "down" and "colors" not in token(s, 1)
    assert list(s.discards["editor"]) == ["E09"], describe(s)
    assert s.decision == PlayD("nixon", "", 1), describe(s)


@pytest.mark.ruling("R11")
def test_r11_no_matching_face_down_token_is_announced_and_the_editor_falls_back() -> None:
    """R11: no face-down yellow: the denial is public, then initiative/momentum/face-up yellow."""
    track = [("T14", 0, False), ("T09", -2, True), ("T15", 1, True)]
    s = ed(["E09"], track=track)
    s, events = do(s, "editor", value("E09", "ask", color="yellow"))
    for seat in ("editor", "nixon"):
        denied = of_type(events_for(events, seat), "face_down_denied")
        assert denied == [{"type": "face_down_denied", "role": "nixon", "color": "yellow"}]
    assert s.decision == FallbackD("editor", "E09", "yellow", 3), describe(s)
    assert _targets(acts(s, "editor")) == {("initiative", ""), ("momentum", ""), ("evidence", 2)}
    s, _ = do(s, "editor", {"type": "choose_target", "target": "evidence", "handle": 2})
    assert token(s, 2)["position"] == 1, describe(s)  # -2 + 3
    assert token(s, 1)["face"] == "down" and token(s, 1)["position"] == 0
    assert list(s.discards["editor"]) == ["E09"], describe(s)


@pytest.mark.ruling("R11")
def test_r11_joker_names_any_colour_and_falls_back_to_any_face_up_token() -> None:
    """R11: with a joker the Editor names a colour; after a denial any face-up colour may move."""
    track = [("T14", 0, False), ("T09", -2, True), ("T15", 1, True)]
    s = ed(["E07"], track=track)
    asks = {a["color"] for a in values_of(s, "editor", "E07") if a["target"] == "ask"}
    assert asks == {"blue", "yellow", "green"}
    s, _ = do(s, "editor", value("E07", "ask", color="blue"))
    assert isinstance(s.decision, FallbackD) and s.decision.role == "editor", describe(s)
    assert _targets(acts(s, "editor")) == {
        ("initiative", ""),
        ("momentum", ""),
        ("evidence", 2),
        ("evidence", 3),
    }


@pytest.mark.ruling("R11")
def test_r11_asking_for_a_joker_colour_nixon_must_flip_a_matching_one() -> None:
    """R11: a joker naming green finds the face-down green token; Nixon flips and moves it."""
    s = ed(["E07"], track=[("T14", -1, False)])
    s, _ = do(s, "editor", value("E07", "ask", color="green"))
    assert acts(s, "nixon") == [{"type": "choose_token", "handle": 1}]
    s, _ = do(s, "nixon", {"type": "choose_token", "handle": 1})
    assert token(s, 1)["face"] == "up" and token(s, 1)["position"] == 1, describe(s)


# ---- R12: nothing to move ----------------------------------------------------------------------


@pytest.mark.ruling("R12")
def test_r12_value_with_nothing_to_move_is_still_discarded() -> None:
    """R12: initiative and momentum gained, no evidence: the card is discarded, nothing moves."""
    s = ed(["E18"], track_initiative=None, track_momentum=None)
    assert values_of(s, "editor", "E18") == [value("E18", "none")]
    s, events = do(s, "editor", value("E18", "none"))
    assert list(s.discards["editor"]) == ["E18"] and s.hands["editor"] == [], describe(s)
    assert of_type(events, "token_moved") == [] and of_type(events, "nothing_moved")
    assert s.decision == PlayD("nixon", "", 1), describe(s)


@pytest.mark.ruling("R12")
def test_r12_nixon_card_whose_colour_matches_nothing_is_discarded() -> None:
    """R12: Nixon's yellow card with only a green token on the track moves nothing."""
    s = nx(["N09"], track=[("T14", 1, True)], track_initiative=None, track_momentum=None)
    assert values_of(s, "nixon", "N09") == [value("N09", "none")]
    s, _ = do(s, "nixon", value("N09", "none"))
    assert list(s.discards["nixon"]) == ["N09"] and s.track[0].pos == 1, describe(s)


@pytest.mark.ruling("R12")
def test_r12_denied_ask_with_no_fallback_still_discards_the_card() -> None:
    """R12 with R11: no face-down yellow and nothing else to move: the card is just discarded."""
    s = ed(["E09"], track=[("T14", 0, False)], track_initiative=None, track_momentum=None)
    s, events = do(s, "editor", value("E09", "ask", color="yellow"))
    assert of_type(events, "face_down_denied"), events
    assert list(s.discards["editor"]) == ["E09"], describe(s)
    assert s.track[0].pos == 0 and not s.track[0].up, describe(s)
    assert s.decision == PlayD("nixon", "", 1), describe(s)


# ---- R13: Nixon moving a face-down token turns it face up ----------------------------------------


@pytest.mark.ruling("R13")
def test_r13_nixon_value_on_a_face_down_token_turns_it_face_up() -> None:
    """R13: Nixon moves a face-down yellow token 4 steps; everyone now sees it face up."""
    s = nx(["N09", "N13"], track=[("T08", 0, False)])
    s, _ = do(s, "nixon", value("N09", "evidence", handle=1))
    s, _ = pass_window(s)  # "Follow the money!" is publicly possible
    assert token(s, 1) == {
        "handle": 1,
        "face": "up",
        "position": -4,
        "colors": ["yellow"],
        "momentum_symbol": False,
    }, describe(s)


@pytest.mark.ruling("R13")
def test_r13_nixon_action_moving_face_down_tokens_turns_them_face_up() -> None:
    """R13: Gordon Liddy moves two face-down tokens 2 steps each; both end face up."""
    track = [("T08", 0, False), ("T14", 1, False)]
    s = nx(["N02", "N13"], track=track)
    s, _ = do(s, "nixon", {"type": "play_action", "card": "N02"})
    s, _ = pass_window(s)
    s, _ = do(s, "nixon", {"type": "choose_target", "target": "evidence", "handle": 1})
    s, _ = do(s, "nixon", {"type": "choose_target", "target": "evidence", "handle": 2})
    assert [(token(s, h)["face"], token(s, h)["position"]) for h in (1, 2)] == [
        ("up", -2),
        ("up", -1),
    ], describe(s)
