"""Nations' computer players: each decides from its seat's observation alone (NR1: it cannot
tell states apart that differ only in their decks), returns one of the offered actions, is
reproducible from its seed, the heuristic beats the random player, and the search bot keeps to
its thinking budget on the clock it is given (its strength is measured by bench.match)."""

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


@pytest.mark.parametrize("name", GAME.bot_names)
def test_a_bot_hands_back_the_json_it_was_offered(name: str) -> None:
    s = mid_game(2)
    seat = GAME.to_move(s)[0]
    offered: list[JSONObject] = [GAME.action_to_json(a) for a in GAME.legal_actions(s, seat)]
    choice = GAME.make_bot(name, 1, 0, None).decide(GAME.observation_for(s, seat), seat, offered)
    assert choice in offered


class SteppingClock:
    """A clock the test moves: each reading is `step` seconds after the last."""

    def __init__(self, step: float) -> None:
        self.t, self.step, self.readings = 0.0, step, 0

    def __call__(self) -> float:
        self.t += self.step
        self.readings += 1
        return self.t


def test_the_search_bot_out_of_time_plays_what_it_has_looked_at() -> None:
    s = mid_game(2)
    seat = GAME.to_move(s)[0]
    legal = GAME.legal_actions(s, seat)
    assert len(legal) > 2, "a position with candidates enough to cut the search short"
    slow = SteppingClock(step=10.0)  # every look at the clock: 10 s later, over a 100 ms budget
    bot = GAME.make_bot("search", 1, 100, slow)
    choice = bot.decide(GAME.observation_for(s, seat), seat, legal)
    assert choice in legal
    assert slow.readings == 2, "the start, then one check after the first play-out: it stopped"
    roomy = SteppingClock(step=0.0)
    GAME.make_bot("search", 1, 100, roomy).decide(GAME.observation_for(s, seat), seat, legal)
    assert roomy.readings > 2, "with time left it plays out further candidates"


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
