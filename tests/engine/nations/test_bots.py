"""Nations' computer players: each decides from its seat's observation alone (NR1: it cannot
tell states apart that differ only in their decks), returns one of the offered actions, is
reproducible from its seed, the heuristic beats the random player, and the search bot keeps to
its thinking budget on the clock it is given (its strength is measured by bench.match)."""

from __future__ import annotations

import pytest

from engine.core.game import JSONObject
from engine.nations import GAME
from engine.nations.bots.evaluate import nation_value
from engine.nations.economy import stability
from engine.nations.state import GrowthD, Nation
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


# ---- growth is a choice, and goods are spent (issue 39) ------------------------------------------
# The growth tests: a nation at its growth decision (maintenance step 3, NR14), the other nation
# as it is at set-up; the heuristic must choose the same whatever its seed (it samples the decks).
FED = nation(  # feeds itself with food to spare, has a card worth manning and the stone to man it
    slots=[("a_farm", 2), ("a_quarry", 1), ("ii_hanseatic_kontor", 1)],
    food=12,
    stone=9,
    gold=2,
    books=3,
)


def growth_choices(n: Nation, round_number: int) -> set[str]:
    """What the heuristic chooses at `n`'s growth decision in `round_number`, over 6 seeds:
    "grow" or the bonus's good."""
    s = position(nations={0: n}, order=[1, 0], round_number=round_number, decision=GrowthD(0))
    s.growth = (0, 1)  # reverse player order: p1 first, then p2
    chosen = set()
    for seed in range(6):
        bot = GAME.make_bot("normal", seed, 0, None)
        choice = GAME.action_to_json(
            bot.decide(GAME.observation_for(s, "p1"), "p1", GAME.legal_actions(s, "p1"))
        )
        chosen.add(str(choice.get("resource", choice["type"])))
    return chosen


def test_nr14_the_heuristic_grows_early_when_a_new_worker_has_a_card_to_man() -> None:
    assert RULES.population_track[FED.grown][0] == "food"  # a space it can feed
    assert growth_choices(FED, 1) == {"grow"}


def test_nr14_the_heuristic_takes_the_bonus_at_the_last_growth_with_nothing_to_man_for_vp() -> None:
    # Round 8: one production left, and none of its cards scores a worker at the end
    assert all(RULES.cards[sl.card].per_worker.score == 0 for sl in FED.slots)
    assert "grow" not in growth_choices(FED, RULES.rounds)


def test_nr14_the_heuristic_grows_onto_a_stability_space_only_when_stability_covers_it() -> None:
    # The next space costs 3 stability for good: at stability 0 the nation would revolt at every
    # production (seed: 1 book a point below 0 and 1 VP); an advisor worth 3 stability covers it
    shaky = FED._replace(grown=RULES.population_track.index(("stability", 3)))
    steady = shaky._replace(advisor="ii_eleanor_of_aquitaine")
    assert stability(RULES, shaky) == 0 and stability(RULES, steady) == 3
    assert "grow" not in growth_choices(shaky, 2)
    assert growth_choices(steady, 2) == {"grow"}


def test_the_heuristic_spends_its_goods_in_the_last_round_on_a_card_that_scores() -> None:
    # Last round: gold and stone to spare, an idle worker, and on the board (row 3) a building
    # that scores 1 VP a worker; buying it alone scores nothing, buying and manning it does
    mill = RULES.cards["iv_textile_mill"]
    assert mill.per_worker.score == 1 and mill.deploy <= 12
    rich = nation(
        slots=[("a_farm", 1), ("a_quarry", 1)], gold=12, stone=12, food=9, books=4, idle=1
    )
    columns = RULES.columns[2]
    s = position(
        nations={0: rich},
        board={2 * columns: "iv_textile_mill"},
        order=[0, 1],
        passed=[1],
        round_number=RULES.rounds,
    )
    bot = GAME.make_bot("normal", 1, 0, None)
    for _ in range(6):
        if s.winner >= 0 or GAME.to_move(s) != ("p1",):
            break
        choice = bot.decide(GAME.observation_for(s, "p1"), "p1", GAME.legal_actions(s, "p1"))
        s, _ = act(s, "p1", GAME.action_to_json(choice))
    assert s.nations[0].workers_on("iv_textile_mill") >= 1


def test_a_good_held_is_worth_less_as_the_phases_to_spend_it_run_out() -> None:
    # The evaluation's worth of 10 more gold: early in the match, at the last round's growth
    # (one action phase left to spend it) and after the match (its final share: 1 VP per 10)
    def worth_of_ten_gold(round_number: int) -> float:
        s = position(nations={0: FED}, round_number=round_number, decision=GrowthD(0))
        richer = position(
            nations={0: FED._replace(gold=FED.gold + 10)},
            round_number=round_number,
            decision=GrowthD(0),
        )
        return nation_value(richer, 0) - nation_value(s, 0)

    final_share = 10 / RULES.resources_per_vp
    assert worth_of_ten_gold(2) > worth_of_ten_gold(RULES.rounds) > final_share
