"""Views, observations, the log and JSON (NR1, NR14): only the decks' order and content are
hidden, from every seat alike; a view is a whitelist of fields; every event field is public;
states, actions and events round-trip through JSON; malformed is told from illegal."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from engine.core.errors import IllegalAction, MalformedAction, MatchOver, NotYourDecision
from engine.core.rng import seed_state, shuffle
from engine.nations import GAME
from engine.nations.actions import ACTION_TYPES, SHAPES
from engine.nations.events import EVENT_TYPES
from engine.nations.state import STATE_FIELDS, MatchState
from tests.engine.nations.builders import RULES, new, pass_all, position

VIEW_KEYS = {
    "game",
    "viewer",
    "version",
    "players",
    "round",
    "rounds",
    "age",
    "phase",
    "decision",
    "order",
    "progress",
    "decks",
    "event",
    "architects",
    "war",
    "wars_bought",
    "nations",
    "scores",
    "winner",
}


def mid_game(players: int = 3, seed: int = 4) -> MatchState:
    game = GAME.with_players(players)
    s = game.start(seed).state
    bot = game.make_bot("random", seed, 0, None)
    while s.round < 3 or not game.to_move(s):
        seat = game.to_move(s)[0]
        s = game.apply(s, seat, bot.decide(s, seat, game.legal_actions(s, seat))).state
    return s


def reshuffled(s: MatchState, seed: int) -> MatchState:
    """The same table with every deck in another order (what no seat can tell apart)."""
    t = s.clone()
    rng = seed_state(seed)
    decks = []
    for d in (*s.decks, *s.event_decks):
        cards = list(d)
        rng = shuffle(rng, cards)
        decks.append(tuple(cards))
    t.decks, t.event_decks = tuple(decks[:4]), tuple(decks[4:])
    return t


def test_nr1_states_that_differ_only_in_their_decks_look_the_same_to_everyone() -> None:
    s = mid_game()
    t = reshuffled(s, 99)
    assert t.decks != s.decks
    seats = GAME.with_players(3).seats
    for viewer in (*seats, None):
        assert GAME.view_for(s, viewer) == GAME.view_for(t, viewer)
    for seat in seats:
        a, b = GAME.observation_for(s, seat), GAME.observation_for(t, seat)
        assert GAME.state_to_json(a) == GAME.state_to_json(b)
        assert GAME.legal_actions(a, seat) == GAME.legal_actions(s, seat)


def test_nr1_a_view_shows_how_many_cards_each_deck_holds_never_which() -> None:
    s = mid_game()
    view = GAME.view_for(s, "p1")
    assert set(view) == VIEW_KEYS
    assert view["decks"] == {
        "progress": [len(d) for d in s.decks],
        "events": [len(d) for d in s.event_decks],
    }
    text = json.dumps(view)
    in_decks = {c for d in (*s.decks, *s.event_decks) for c in d}
    assert not [c for c in in_decks if f'"{c}"' in text]


def test_nr1_everything_else_is_public_alike_to_every_seat_and_a_spectator() -> None:
    s = mid_game(4)
    spectator = GAME.view_for(s, None)
    for seat in GAME.with_players(4).seats:
        assert GAME.view_for(s, seat) == {**spectator, "viewer": seat}
    shown = spectator["nations"]
    assert isinstance(shown, dict) and set(shown) == {"p1", "p2", "p3", "p4"}


def test_open_view_adds_the_decks_and_admin_view_is_the_whole_state() -> None:
    s = mid_game()
    opened = GAME.open_view(s)
    assert opened["deck_cards"] == {
        "progress": [list(d) for d in s.decks],
        "events": [list(d) for d in s.event_decks],
    }
    assert GAME.admin_view(s) == GAME.state_to_json(s)


def test_nr1_every_field_of_every_event_is_public_and_the_log_is_the_same_for_all() -> None:
    for cls in EVENT_TYPES:
        assert cls.public == tuple(f.name for f in fields(cls)), cls.__name__
    s = position(passed=[1], order=[0, 1])
    step = GAME.apply(s, "p1", {"type": "pass"})  # a whole resolution and the next maintenance
    assert {e.type for e in step.events} >= {"produced", "order_set", "event_resolved"}
    for events in (step.events, GAME.start(3).events):
        assert GAME.events_for(events, "p2") == GAME.events_for(events, None)
        assert GAME.events_for(events, None) == GAME.events_to_json(events)


def test_a_state_round_trips_through_json() -> None:
    for s in (new(), mid_game(), mid_game(5, 2)):
        data = json.loads(json.dumps(GAME.state_to_json(s)))
        back = GAME.state_from_json(data)
        assert GAME.describe(back) == GAME.describe(s)
        assert GAME.state_to_json(back) == GAME.state_to_json(s)
        seat = GAME.to_move(s)[0]
        assert GAME.legal_actions(back, seat) == GAME.legal_actions(s, seat)


def test_every_action_type_round_trips_through_json() -> None:
    assert [cls.type for cls in ACTION_TYPES] == list(SHAPES)
    samples = [
        {"type": "grow"},
        {"type": "bonus", "resource": "food"},
        {"type": "buy", "card": "i_cyrene"},
        {"type": "buy", "card": "i_hoplites", "replace": "a_farm"},
        {"type": "deploy", "card": "a_farm"},
        {"type": "deploy", "card": "a_farm", "source": "a_quarry"},
        {"type": "undeploy", "card": "a_farm"},
        {"type": "hire"},
        {"type": "pass"},
        {"type": "choose", "option": 2},
    ]
    for obj in samples:
        assert GAME.action_to_json(GAME.parse_action(obj)) == obj


@pytest.mark.parametrize(
    "junk",
    [
        {"type": "buy"},
        {"type": "choose", "option": True},
        {"type": "deploy", "card": "a_farm", "source": 3},
        {"type": "grow", "extra": 1},
        ["pass"],
    ],
)
def test_a_malformed_action_is_refused_before_legality(junk: object) -> None:
    s = new()
    seat = GAME.to_move(s)[0]
    with pytest.raises(MalformedAction):
        GAME.apply(s, seat, junk)


@pytest.mark.parametrize(
    "wrong",
    [
        {"type": "bonus", "resource": "diamonds"},
        {"type": "buy", "card": "no_such_card"},
        {"type": "pass"},  # growth offers no pass
    ],
)
def test_a_well_formed_action_not_offered_is_illegal(wrong: object) -> None:
    s = new()
    with pytest.raises(IllegalAction):
        GAME.apply(s, GAME.to_move(s)[0], wrong)


def test_rejections_name_the_match_over_and_the_wrong_seat_first() -> None:
    s = new()
    waiting = next(seat for seat in GAME.seats if seat not in GAME.to_move(s))
    with pytest.raises(NotYourDecision):
        GAME.apply(s, waiting, {"type": "grow"})
    end = position(passed=[1], order=[0, 1], round_number=8)
    end, _ = pass_all(end)
    with pytest.raises(MatchOver):
        GAME.apply(end, "p1", {"type": "pass"})
    with pytest.raises(KeyError):
        GAME.legal_actions(s, "p9")


def test_the_metadata_lists_every_card_and_translation_as_plain_json() -> None:
    meta = GAME.metadata()
    assert json.loads(json.dumps(meta)) == meta
    ages = [meta[f"age{a}"] for a in (1, 2, 3, 4)]
    cards = [c["id"] for age in ages for c in age["progress"]]  # type: ignore[call-overload, index, union-attr]
    assert len(cards) == 168 and set(cards) <= set(RULES.cards)
    assert set(meta) >= {"i18n_en", "i18n_pt_BR", "i18n_de", "rules", "board", "difficulties"}
    assert GAME.with_players(4).metadata()["columns"] == 7


def test_clone_copies_every_field_of_the_state() -> None:
    s = mid_game()
    c = s.clone()
    assert all(getattr(c, name) == getattr(s, name) for name in STATE_FIELDS)
    assert c.rules is s.rules and c is not s
