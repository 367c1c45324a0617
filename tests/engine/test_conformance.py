"""Every registered game keeps the Game protocol's promises (architecture.md §3.1, §6), checked
through the protocol only, on seeded random playouts (OpenSpiel's random-simulation test):
every offered action is accepted, views and logs are plain JSON, actions and states round-trip,
a seed plus the action list replays the match, whoever must move is consistent with the outcome,
and a seat's observation shows it nothing it could not already see (non-interference)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from engine.core import MalformedAction, MatchOver, NotYourDecision, replay
from engine.core.game import JSON
from engine.core.rng import below, seed_state
from engine.registry import AnyGame, game_ids, get_game

SEEDS = (1, 2, 3)


def configurations() -> list[tuple[str, int]]:
    """Every game at every seat count it takes (Nations: 2-5, each with its own board width,
    architects and event places)."""
    return [(game_id, n) for game_id in game_ids() for n in sorted(get_game(game_id).player_counts)]


CONFIGURATIONS = configurations()
CONFIG_IDS = [f"{g}-{n}p" for g, n in CONFIGURATIONS]
MAX_DECISIONS = 2000  # far above any real game (a Watergate game takes ~120 decisions)
STATE_EVERY = 7  # state JSON round trips on every 7th position (and the last) keep this fast
JUNK: tuple[object, ...] = (None, 3, "pass", [], {}, {"type": 7}, {"type": "no_such_action"})


def floats_in(value: JSON, path: str = "$") -> Iterator[str]:
    """Paths of the floats inside a JSON value (canonical JSON here needs none)."""
    if isinstance(value, float):
        yield path
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from floats_in(v, f"{path}[{i}]")
    elif isinstance(value, dict):
        for k, v in value.items():
            assert isinstance(k, str), f"{path}: key {k!r} is not a string"
            yield from floats_in(v, f"{path}.{k}")


def assert_plain_json(value: JSON) -> None:
    assert json.loads(json.dumps(value)) == value
    assert list(floats_in(value)) == []


def check_position(game: AnyGame, state: object) -> None:
    """Who moves, legal actions, views and non-interference at one position."""
    to_move = game.to_move(state)
    assert set(to_move) <= set(game.seats)
    assert (game.outcome(state) is None) == bool(to_move)
    for viewer in (*game.seats, None):
        assert_plain_json(game.view_for(state, viewer))
    spectator = game.view_for(state, None)
    for seat in game.seats:
        legal = [game.action_to_json(a) for a in game.legal_actions(state, seat)]
        assert bool(legal) == (seat in to_move), seat
        obs = game.observation_for(state, seat)
        assert game.view_for(obs, seat) == game.view_for(state, seat), seat
        assert [game.action_to_json(a) for a in game.legal_actions(obs, seat)] == legal, seat
        assert game.view_for(obs, None) == spectator, seat
        for action in legal:
            assert_plain_json(action)
            parsed = game.parse_action(json.loads(json.dumps(action)))
            assert game.action_to_json(parsed) == action


def check_state_round_trip(game: AnyGame, state: object) -> None:
    data = game.state_to_json(state)
    assert_plain_json(data)
    back = game.state_from_json(json.loads(json.dumps(data)))
    assert game.describe(back) == game.describe(state)
    assert game.state_to_json(back) == data
    assert game.view_for(back, None) == game.view_for(state, None)


def play_out(game: AnyGame, seed: int) -> tuple[object, list[tuple[str, JSON]]]:
    """A seeded random game to the end, checking every position; returns the end and the log."""
    step = game.start(seed)
    state, log = step.state, list[tuple[str, JSON]]()
    rng = seed_state(seed * 7919 + 1)
    for viewer in (*game.seats, None):
        assert_plain_json(list(game.events_for(step.events, viewer)))
    assert_plain_json(game.events_to_json(step.events))
    for n in range(MAX_DECISIONS):
        check_position(game, state)
        if n % STATE_EVERY == 0:
            check_state_round_trip(game, state)
        to_move = game.to_move(state)
        if not to_move:
            break
        seat = to_move[0]
        legal = game.legal_actions(state, seat)
        rng, i = below(rng, len(legal))
        version, before = game.version(state), game.describe(state)
        step = game.apply(state, seat, legal[i])  # every offered action is accepted
        assert game.describe(state) == before  # apply never mutates its input
        assert game.version(step.state) == version + 1
        assert 1 <= game.round_of(state) <= game.round_of(step.state)  # rounds never go back
        for viewer in (*game.seats, None):
            assert_plain_json(list(game.events_for(step.events, viewer)))
        full = game.events_to_json(step.events)  # the admin's log: one object per event
        assert_plain_json(full)
        assert len(full) == len(step.events)
        log.append((seat, game.action_to_json(legal[i])))
        state = step.state
    else:
        pytest.fail(f"{game.id} seed {seed}: no end within {MAX_DECISIONS} decisions")
    check_state_round_trip(game, state)
    return state, log


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("game_id", "players"), CONFIGURATIONS, ids=CONFIG_IDS)
def test_random_playout_keeps_the_protocol(game_id: str, players: int, seed: int) -> None:
    game = get_game(game_id).with_players(players)
    end, log = play_out(game, seed)
    outcome = game.outcome(end)
    assert outcome is not None and set(outcome.winners) <= set(game.seats) and outcome.reason
    replayed = replay(game, seed, log)
    assert game.describe(replayed) == game.describe(end)
    assert game.state_to_json(replayed) == game.state_to_json(end)
    with pytest.raises(MatchOver):
        game.apply(end, game.seats[0], log[-1][1])


@pytest.mark.parametrize("game_id", game_ids())
def test_the_same_seed_gives_the_same_match(game_id: str) -> None:
    game = get_game(game_id)
    assert game.describe(game.start(5).state) == game.describe(game.start(5).state)
    assert game.state_to_json(game.start(5).state) == game.state_to_json(game.start(5).state)


@pytest.mark.parametrize(("game_id", "players"), CONFIGURATIONS, ids=CONFIG_IDS)
def test_rejections_come_in_the_protocol_order(game_id: str, players: int) -> None:
    game = get_game(game_id).with_players(players)
    state = game.start(1).state
    mover = game.to_move(state)[0]
    offered = game.action_to_json(game.legal_actions(state, mover)[0])
    waiting = [seat for seat in game.seats if seat not in game.to_move(state)]
    for seat in waiting:
        with pytest.raises(NotYourDecision):
            game.apply(state, seat, offered)
    for junk in JUNK:
        with pytest.raises(MalformedAction):
            game.parse_action(junk)
        with pytest.raises(MalformedAction):
            game.apply(state, mover, junk)


@pytest.mark.parametrize("game_id", game_ids())
def test_a_game_says_its_player_counts_and_seats_each(game_id: str) -> None:
    game = get_game(game_id)
    counts = game.player_counts
    assert counts and len(game.seats) in counts
    for n in counts:
        seats = game.with_players(n).seats
        assert len(seats) == len(set(seats)) == n
        assert game.with_players(n).with_players(len(game.seats)).seats == game.seats
    for wrong in (min(counts) - 1, max(counts) + 1):
        with pytest.raises(ValueError):
            game.with_players(wrong)


@pytest.mark.parametrize("game_id", game_ids())
def test_the_game_describes_itself_in_json(game_id: str) -> None:
    game = get_game(game_id)
    assert game.id == game_id and len(game.seats) == len(set(game.seats)) >= 1
    assert_plain_json(game.metadata())
    state = game.start(1).state
    assert_plain_json(game.admin_view(state))
    assert_plain_json(game.open_view(state))
    ticks = iter(range(10**9))

    def clock() -> float:  # a fake clock: each reading is 1 ms later, so a search stops soon
        return next(ticks) / 1000

    for name in game.bot_names:
        bot = game.make_bot(name, 1, 5, clock)
        seat = game.to_move(state)[0]
        legal = game.legal_actions(state, seat)
        choice = bot.decide(game.observation_for(state, seat), seat, legal)
        assert game.action_to_json(choice) in [game.action_to_json(a) for a in legal]
