"""Nations' computer players: each decides from its seat's observation alone (NR1: it cannot
tell states apart that differ only in their decks), returns one of the offered actions, is
reproducible from its seed, and the heuristic beats the random player."""

from __future__ import annotations

import pytest

from engine.core.game import JSONObject
from engine.nations import GAME
from tests.engine.nations.builders import RULES, act, nation, position
from tests.engine.nations.test_views import mid_game, reshuffled


def play(bots: dict[str, str], seed: int) -> str:
    game = GAME.with_players(len(bots))
    players = {
        seat: game.make_bot(name, seed + k, 0, None) for k, (seat, name) in enumerate(bots.items())
    }
    s = game.start(seed).state
    while to_move := game.to_move(s):
        seat = to_move[0]
        choice = players[seat].decide(
            game.observation_for(s, seat), seat, game.legal_actions(s, seat)
        )
        s = game.apply(s, seat, choice).state
    outcome = game.outcome(s)
    assert outcome is not None
    return outcome.winners[0]


@pytest.mark.parametrize("name", GAME.bot_names)
def test_nr1_a_bot_decides_the_same_on_states_it_cannot_tell_apart(name: str) -> None:
    s = mid_game()
    t = reshuffled(s, 5)
    seat = GAME.to_move(s)[0]
    game = GAME.with_players(3)
    a = game.make_bot(name, 3, 0, None).decide(
        game.observation_for(s, seat), seat, game.legal_actions(s, seat)
    )
    b = game.make_bot(name, 3, 0, None).decide(
        game.observation_for(t, seat), seat, game.legal_actions(t, seat)
    )
    assert a == b and a in game.legal_actions(s, seat)


def test_the_heuristic_hands_back_the_json_it_was_offered() -> None:
    s = mid_game(2)
    seat = GAME.to_move(s)[0]
    offered: list[JSONObject] = [GAME.action_to_json(a) for a in GAME.legal_actions(s, seat)]
    choice = GAME.make_bot("heuristic", 1, 0, None).decide(
        GAME.observation_for(s, seat), seat, offered
    )
    assert choice in offered


def test_bots_are_reproducible_from_their_seed() -> None:
    assert play({"p1": "heuristic", "p2": "random"}, 4) == play(
        {"p1": "heuristic", "p2": "random"}, 4
    )


def test_the_heuristic_beats_the_random_player() -> None:
    wins = sum(play({"p1": "heuristic", "p2": "random"}, seed) == "p1" for seed in range(6))
    wins += sum(play({"p1": "random", "p2": "heuristic"}, seed) == "p2" for seed in range(6))
    assert wins >= 11


def test_the_heuristic_mends_a_revolt_before_production() -> None:
    # Two workers on the Immortals (stability -1 each): the nation would revolt at production,
    # losing 2 books and a VP, for 6 strength it does not need; undeploying is free (NR11)
    n = nation(slots=[("a_farm", 1), ("i_immortals", 2)], books=6, food=5)
    s = position(nations={0: n}, passed=[1], order=[0, 1])
    bot = GAME.make_bot("heuristic", 1, 0, None)
    for _ in range(3):
        choice = bot.decide(GAME.observation_for(s, "p1"), "p1", GAME.legal_actions(s, "p1"))
        if GAME.action_to_json(choice)["type"] == "pass":
            break
        s, _ = act(s, "p1", GAME.action_to_json(choice))
    assert s.nations[0].workers_on("i_immortals") == 0
    assert RULES.cards["i_immortals"].per_worker.stability == -1
