"""Rejections (engine/core/errors.py) and the version-stable generator (engine/core/rng.py).

`apply` checks, in this order: match over -> not your decision -> malformed -> illegal
(architecture.md §3.1), each with a stable code. The RNG goldens pin SplitMix64 and our Fisher–Yates
shuffle, so a seed + action log replays identically for rules_version "1".
"""

from __future__ import annotations

import pytest

from engine.core.errors import (
    EngineError,
    IllegalAction,
    MalformedAction,
    MatchOver,
    NotYourDecision,
)
from engine.core.rng import below, next_u64, seed_state, shuffle
from engine.watergate import (
    GAME,
    MatchState,
    apply,
    current_role,
    legal_actions,
    new_match,
    other,
)
from engine.watergate.bots import RandomBot
from engine.watergate.serialize import dumps, state_to_json
from engine.watergate.views import view_for


def finished_match(seed: int = 3) -> MatchState:
    s, bot = new_match(seed), RandomBot(seed)
    while (role := current_role(s)) is not None:
        s = apply(s, role, bot.choose(view_for(s, role), legal_actions(s, role))).state
    return s


def rejection(s: MatchState, role: str, action: object) -> EngineError:
    before = dumps(state_to_json(s))
    with pytest.raises(EngineError) as info:
        apply(s, role, action)  # type: ignore[arg-type]
    assert dumps(state_to_json(s)) == before, "a rejected action changed the state"
    return info.value


# ---- the error tree and its codes ---------------------------------------------------------------


def test_every_error_has_its_stable_code() -> None:
    codes = {
        MatchOver: "match_over",
        NotYourDecision: "not_your_decision",
        MalformedAction: "malformed_action",
        IllegalAction: "illegal_action",
    }
    for cls, code in codes.items():
        assert issubclass(cls, EngineError)
        assert cls.code == code
        err = cls("some text")
        assert err.code == code and err.message == str(err) == "some text"


# ---- the order of the checks -------------------------------------------------------------------


@pytest.mark.parametrize(
    "action", ["junk", {"type": "pass"}, {"type": "choose_token", "handle": 999}]
)
@pytest.mark.parametrize("role", ["editor", "nixon"])
def test_match_over_comes_first(role: str, action: object) -> None:
    s = finished_match()
    assert s.winner is not None
    err = rejection(s, role, action)
    assert type(err) is MatchOver and err.code == "match_over"


@pytest.mark.parametrize("action", ["junk", {"type": "pass", "x": 1}, {"type": "pass"}])
def test_not_your_decision_comes_before_the_action_is_read(action: object) -> None:
    s = new_match(1)
    assert current_role(s) == "editor"
    for role in ("nixon", "referee"):
        err = rejection(s, role, action)
        assert type(err) is NotYourDecision and err.code == "not_your_decision"


def test_malformed_comes_before_illegal() -> None:
    s = new_match(1)
    err = rejection(s, "editor", {"type": "choose_token", "handle": True})
    assert type(err) is MalformedAction and err.code == "malformed_action"
    err = rejection(s, "editor", {"type": "choose_token", "handle": 1})
    assert type(err) is IllegalAction and err.code == "illegal_action"


MALFORMED = {
    "a list": [{"type": "pass"}],
    "a string": "pass",
    "null": None,
    "a number": 7,
    "no type": {"card": "E01"},
    "a non-string type": {"type": 3},
    "an unknown type": {"type": "teleport"},
    "a missing field": {"type": "play_value", "card": "E01"},
    "a missing handle": {"type": "pin", "space": "O1"},
    "an extra field": {"type": "pass", "card": "E01"},
    "an extra field on a full action": {"type": "play_action", "card": "E01", "target": "x"},
    "a bool for an int": {"handle": True, "type": "choose_token"},
    "a bool for an int (false)": {"type": "pin", "handle": False, "space": "O1"},
    "a string for an int": {"type": "choose_token", "handle": "3"},
    "a float for an int": {"type": "choose_token", "handle": 3.0},
    "an int for a string": {"type": "react", "card": 6},
    "null for a string": {"type": "play_action", "card": None},
    "a list for a string": {"type": "choose_space", "space": ["O1"]},
    "a non-string key": {"type": "pass", 1: 2},
}


@pytest.mark.parametrize("action", MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_actions_are_refused_as_malformed(action: object) -> None:
    err = rejection(new_match(2), "editor", action)
    assert type(err) is MalformedAction and err.code == "malformed_action"
    assert err.message


ILLEGAL = {
    "a made-up card": {"type": "play_value", "card": "E99", "target": "initiative"},
    "the opponent's card": {"type": "play_action", "card": "N01"},
    "a card still in the deck": {"type": "play_value", "card": "E05", "target": "initiative"},
    "a reaction with nothing to react to": {"type": "react", "card": "E03"},
    "a pass on a turn": {"type": "pass"},
    "an unknown token": {"type": "choose_token", "handle": 999},
    "a pin with nothing held": {"type": "pin", "handle": 1, "space": "O1"},
    "a gambit choice out of place": {"type": "gambit_remove"},
}


@pytest.mark.parametrize("action", ILLEGAL.values(), ids=ILLEGAL.keys())
def test_well_formed_actions_not_legal_now_are_illegal(action: dict[str, object]) -> None:
    s = new_match(12345)  # the Editor holds E03 E04 E20 E18 E09 (see the golden below)
    assert action not in legal_actions(s, "editor")
    err = rejection(s, "editor", action)
    assert type(err) is IllegalAction and err.code == "illegal_action"
    in_hand = action.get("card") in s.hands["editor"]
    if "card" in action and action["type"] != "gambit_keep" and not in_hand:
        assert err.message == "That card is not in your hand."
    else:
        assert "legal actions" in err.message


def test_an_offered_action_is_accepted_as_given_or_as_an_equal_copy() -> None:
    s = new_match(5)
    role = current_role(s)
    assert role is not None
    for action in legal_actions(s, role):
        assert apply(s, role, action) == apply(s, role, dict(action))
        with pytest.raises(NotYourDecision):
            apply(s, other(role), action)


# ---- the generator --------------------------------------------------------------------------


def test_splitmix64_matches_the_reference_outputs_for_seed_0() -> None:
    """Reference values of SplitMix64 (Steele, Lea, Flood 2014; Vigna's splitmix64.c), seed 0."""
    state, outputs = 0, []
    for _ in range(3):
        state, x = next_u64(state)
        outputs.append(x)
    assert outputs == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    assert state == (3 * 0x9E3779B97F4A7C15) & (2**64 - 1)


def test_seeds_map_onto_64_bit_states() -> None:
    assert seed_state(0) == 0
    assert seed_state(2**64 + 5) == 5
    assert seed_state(-1) == 2**64 - 1
    assert next_u64(seed_state(2**64))[1] == 0xE220A8397B1DCDAF


def test_below_stays_in_range() -> None:
    state = seed_state(99)
    for n in (1, 2, 3, 7, 10, 40, 64):
        seen = set()
        for _ in range(400):
            state, r = below(state, n)
            assert 0 <= r < n
            seen.add(r)
        assert seen == set(range(n))


def test_shuffle_of_range_10_is_a_pinned_permutation() -> None:
    """Golden: changing it changes every match's deal (bump rules_version, keep the old path)."""
    items = list(range(10))
    state = shuffle(7, items)
    assert sorted(items) == list(range(10))
    assert items == [9, 5, 8, 6, 1, 2, 4, 7, 0, 3]
    assert state == 10372713005361028292
    again = list(range(10))
    assert shuffle(7, again) == state and again == items
    one: list[int] = [1]
    assert shuffle(7, one) == 7 and one == [1]
    assert shuffle(7, []) == 7


def test_new_match_12345_deals_the_pinned_decks() -> None:
    """Golden of the first shuffles (editor deck, then Nixon deck, then three bag draws) for
    rules_version "1": it pins the version-stable shuffle. Any change here breaks the replay of
    stored matches, so it must come with a new rules_version (architecture.md §3.1)."""
    s = GAME.start(12345, "1").state
    assert s == new_match(12345, "1")  # the first edition's entry point deals the same
    assert s.hands == {
        "editor": ["E03", "E04", "E20", "E18", "E09"],
        "nixon": ["N08", "N03", "N06", "N19"],
    }
    editor_deck = "E01 E17 E05 E16 E11 E12 E08 E07 E19 E14 E10 E13 E15 E02 E06"  # top last
    nixon_deck = "N09 N11 N14 N13 N16 N10 N18 N07 N20 N12 N15 N02 N01 N05 N17 N04"
    assert " ".join(s.decks["editor"]) == editor_deck
    assert " ".join(s.decks["nixon"]) == nixon_deck
    assert [t.id for t in s.track] == ["T13", "T23", "T26"]
    assert len(s.bag) == 27
    assert new_match(12345) == s
