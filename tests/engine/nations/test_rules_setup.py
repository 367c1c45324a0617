"""Set-up and maintenance (docs/nations.md): random order and shuffles at set-up (NR2), books by
place (NR18), difficulty (NR6, NR21), side A (NR7), board width (NR4), decks by count (NR38), the
board sliding and refilling (NR3, NR22), growth in reverse order (NR14), the event and the
architects (NR5, NR25). Expected values are worked out from the rules and the data files."""

from __future__ import annotations

import pytest

from engine.nations import GAME
from engine.nations.economy import population_costs, production, stability, strength
from engine.nations.state import ActD, GrowthD
from engine.nations.views import view_for
from tests.engine.nations.builders import (
    QUIET,
    RULES,
    act,
    new,
    of_type,
    offered,
    pass_all,
    position,
)
from tests.engine.nations.raw import TRACK


def test_nr2_a_seed_is_its_match_and_every_shuffle_happens_at_set_up() -> None:
    a, b = new(seed=11), new(seed=11)
    assert (a.order, a.decks, a.event_decks, a.board) == (b.order, b.decks, b.event_decks, b.board)
    assert new(seed=12).decks != a.decks
    s = a
    while s.winner < 0:  # a whole match of passes: the generator never moves after set-up
        s = GAME.apply(s, GAME.to_move(s)[0], GAME.legal_actions(s, GAME.to_move(s)[0])[-1]).state
    assert s.rng == a.rng


def test_nr2_player_order_is_drawn_at_random() -> None:
    firsts = {new(seed=seed).order[0] for seed in range(30)}
    assert firsts == {0, 1}
    assert {new(4, seed=seed).order[0] for seed in range(40)} == {0, 1, 2, 3}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_nr18_books_start_at_each_place_in_player_order(players: int) -> None:
    s = new(players, seed=3)
    assert [s.nations[p].books for p in s.order] == list(range(1, players + 1))


def test_nr6_the_level_sets_the_starting_goods_and_prince_is_the_default() -> None:
    s = new()
    assert [(n.level, n.gold, n.stone, n.food) for n in s.nations] == [("prince", 6, 5, 6)] * 2
    hand = GAME.with_levels(("chieftain", "emperor")).start(1).state
    assert [(n.level, (n.gold, n.stone, n.food)) for n in hand.nations] == [
        ("chieftain", RULES.levels["chieftain"].start),
        ("emperor", RULES.levels["emperor"].start),
    ]


def test_nr6_nr20_each_seat_takes_its_own_levels_bonus_at_every_growth() -> None:
    """A handicap applies seat by seat, at set-up and at each round's growth, whichever seat is
    first in player order (the levels follow the seats, not the order)."""
    for seed in range(6):
        s = GAME.with_levels(("chieftain", "emperor")).start(seed).state
        for _ in range(3):  # three rounds of growth, passing in between
            while isinstance(s.decision, GrowthD):
                p = s.decision.player
                before = s.nations[p].gold
                s, events = act(s, f"p{p + 1}", {"type": "bonus", "resource": "gold"})
                want = RULES.levels[s.nations[p].level].bonus[0]  # gold, stone, food
                assert s.nations[p].gold == before + want
                assert of_type(events, "bonus_taken")[0]["amount"] == want
            assert [n.level for n in s.nations] == ["chieftain", "emperor"]
            while isinstance(s.decision, ActD):
                seat = f"p{s.decision.player + 1}"
                s, _ = act(s, seat, {"type": "pass"})


def test_nr6_nr21_levels_are_match_options_checked_at_start() -> None:
    with pytest.raises(ValueError):
        GAME.with_levels(("prince",))
    with pytest.raises(ValueError):
        GAME.with_levels(("prince", "god"))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        GAME.with_players(6)
    assert GAME.with_players(5).seats == ("p1", "p2", "p3", "p4", "p5")


def test_nr7_nr41_side_a_prints_a_farm_and_a_quarry_with_a_worker_and_empty_warriors() -> None:
    """Seed: "a disc on 0 of the military track": the printed military card starts without a
    worker, whose worker waits in the resource area with the other two (NR41)."""
    n = new().nations[0]
    assert [(sl.card, sl.workers) for sl in n.slots] == [
        ("a_farm", 1),
        ("a_quarry", 1),
        ("a_warriors", 0),
    ]
    assert n.idle == 3 and n.grown == 0
    assert production(RULES, n) == ([0, 3, 3, 0], [0, 0, 0, 0])  # gold, stone, food, books


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("level", ["chieftain", "prince", "king", "emperor"])
def test_nr41_every_nation_starts_at_0_strength_and_0_stability(players: int, level: str) -> None:
    """Seed, set-up of the scoring board, steps 4 and 6: a disc on 0 of the military strength
    track and on 0 of the stability track, at every count and level."""
    s = GAME.with_players(players).with_levels((level,) * players).start(players).state
    assert [(strength(RULES, n), stability(RULES, n)) for n in s.nations] == [(0, 0)] * players
    view = GAME.view_for(s, None)["nations"]
    assert isinstance(view, dict)
    assert {(v["strength"], v["stability"]) for v in view.values()} == {(0, 0)}  # type: ignore[index]


@pytest.mark.parametrize(("players", "columns"), [(2, 5), (3, 6), (4, 7), (5, 7)])
def test_nr4_the_progress_board_width_and_round_one_fills_it(players: int, columns: int) -> None:
    s = new(players, seed=5)
    assert len(s.board) == 3 * columns and all(s.board)
    assert len(s.decks[0]) == len(RULES.deck(1, players)) - 3 * columns
    assert all(RULES.cards[c].age == 1 for c in s.board)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_nr38_each_deck_holds_the_cards_of_its_player_count(players: int) -> None:
    s = new(players, seed=2)
    for age in (1, 2, 3, 4):
        dealt = [c for c in s.board if c] if age == 1 else []
        in_play = sorted([*s.decks[age - 1], *dealt])
        want = sorted(c for c in RULES.age_cards[age] if RULES.cards[c].min_players <= players)
        assert in_play == want
    assert [len(d) for d in s.event_decks] == [5, 5, 5, 5]


@pytest.mark.parametrize(("players", "placed"), [(2, 2), (3, 3), (4, 3), (5, 4)])
def test_nr41_set_up_places_three_architects_at_three_and_four_players_for_round_one(
    players: int, placed: int
) -> None:
    """Seed: "Coloque três Arquitetos nos quadrados reservados (para 3-4 jogadores)"; 2 players
    get 2 and 5 get 4 (NR41). They are round 1's architects: step 5 keeps them (none returned)
    and places no more, whatever the event card's number."""
    s = new(players, seed=4)
    assert s.architects == placed and s.event == "" and isinstance(s.decision, GrowthD)
    while isinstance(s.decision, GrowthD):
        s, events = act(s, f"p{s.decision.player + 1}", {"type": "bonus", "resource": "gold"})
    assert s.round == 1 and s.architects == placed
    assert of_type(events, "architects_placed") == [
        {"type": "architects_placed", "returned": 0, "placed": placed}
    ]
    assert GAME.with_players(players).view_for(s, None)["architects"] == placed


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_nr5_architects_are_the_events_number_plus_one_per_player_beyond_two(
    players: int,
) -> None:
    s = position(players, architects=4, passed=range(1, players), order=range(players))
    s, events = pass_all(s)
    while isinstance(s.decision, GrowthD):
        s, more = act(s, f"p{s.decision.player + 1}", {"type": "bonus", "resource": "food"})
        events += more
    assert of_type(events, "architects_placed") == [
        {
            "type": "architects_placed",
            "returned": 4,  # NR25: the unhired ones go back first
            "placed": QUIET.events[s.event].architects + players - 2,
        }
    ]


def test_nr22_rows_one_and_two_leave_row_three_slides_and_slots_fill_row_major() -> None:
    board = {0: "i_cyrene", 6: "i_hoplites", 10: "i_pyramids", 12: "i_sun_tzu"}  # 5 columns
    s = position(board=board, passed=[1], order=[0, 1])
    # the age's deck less the four cards on the board (30 - 4 at two players)
    s.decks = (tuple(c for c in RULES.deck(1, 2) if c not in board.values()), *s.decks[1:])
    deck = s.decks[0]
    s, events = pass_all(s)
    assert s.round == 2
    # row 3's cards keep their columns in row 1; the 13 empty slots, row-major, take the deck's
    # cards from the top (NR22), and the deck has them all (NR38: six rows an age)
    assert len(deck) == 26
    assert s.board[0] == "i_pyramids" and s.board[2] == "i_sun_tzu"
    fill = [i for i in range(15) if i not in (0, 2)]
    assert [s.board[i] for i in fill] == list(reversed(deck))[:13]
    assert len(s.decks[0]) == len(deck) - 13
    assert of_type(events, "progress_cleared") == [
        {
            "type": "progress_cleared",
            "removed": ["i_cyrene", "i_hoplites"],
            "slid": ["i_pyramids", "i_sun_tzu"],
        }
    ]
    assert not {"i_cyrene", "i_hoplites"} & {*s.board, *s.decks[0]}  # out of the game


def test_nr3_a_new_age_keeps_the_slid_cards_and_fills_from_its_own_deck() -> None:
    s = position(board={11: "i_colossus"}, round_number=2, passed=[1], order=[0, 1])
    s, _ = pass_all(s)
    assert (s.round, s.age) == (3, 2)
    assert s.board[1] == "i_colossus"
    assert all(RULES.cards[c].age == 2 for i, c in enumerate(s.board) if i != 1)
    assert len(s.decks[1]) == 30 - 14


def test_nr22_a_deck_that_runs_out_leaves_slots_empty() -> None:
    """Only a deck shorter than the data's (NR38) can run out; the engine then fills what it
    can rather than fail."""
    s = position(passed=[1], order=[0, 1], board={})
    s.decks = (("i_marathon", "i_cyrene"), *s.decks[1:])
    s, events = pass_all(s)
    assert s.board[:2] == ("i_cyrene", "i_marathon") and not any(s.board[2:])
    assert of_type(events, "progress_dealt")[0]["left"] == 0


def test_growth_runs_in_reverse_player_order_after_the_board_refills() -> None:
    s = position(3, order=[2, 0, 1], passed=[0, 1], decision=ActD(2))
    s, _ = pass_all(s)
    seen = []
    while isinstance(s.decision, GrowthD):
        seen.append(s.decision.player)
        s, _ = act(s, f"p{s.decision.player + 1}", {"type": "bonus", "resource": "stone"})
    assert seen == [1, 0, 2]


def test_nr14_growth_offers_growing_and_each_bonus() -> None:
    s = new()
    seat = f"p{s.decision.player + 1}"  # type: ignore[union-attr]
    assert offered(s, seat) == [
        {"type": "grow"},
        {"type": "bonus", "resource": "food"},
        {"type": "bonus", "resource": "stone"},
        {"type": "bonus", "resource": "gold"},
    ]


def test_the_bonus_is_the_levels_amount_of_the_chosen_good() -> None:
    s = GAME.with_levels(("king", "king")).start(8).state
    p = s.decision.player  # type: ignore[union-attr]
    s2, events = act(s, f"p{p + 1}", {"type": "bonus", "resource": "stone"})
    king = RULES.levels["king"].bonus[1]  # gold, stone, food (difficulties.json)
    assert s2.nations[p].stone == s.nations[p].stone + king
    assert of_type(events, "bonus_taken")[0]["amount"] == king


def test_nr43_growing_moves_a_worker_and_each_space_costs_food_or_stability_in_order() -> None:
    s = new()
    p = s.decision.player  # type: ignore[union-attr]
    s2, events = act(s, f"p{p + 1}", {"type": "grow"})
    n = s2.nations[p]
    assert (n.idle, n.grown) == (RULES.idle_workers + 1, 1)
    assert of_type(events, "grew") == [
        {"type": "grew", "seat": f"p{p + 1}", "space": 0, "cost": "food", "amount": 3}
    ]
    assert population_costs(RULES, n) == (3, 0)  # the first space: 3 food at every production
    assert production(RULES, n)[1][2] == 3
    # every emptied space adds its own cost, as the data file lists the spaces (NR43, rules
    # version 3: two food spaces, then a stability space)
    assert [space["cost"] for space in TRACK[:3]] == ["food", "food", "stability"]
    third = n._replace(grown=3)
    assert population_costs(RULES, third) == (6, 3) and stability(RULES, third) == -3
    assert production(RULES, third)[1][2] == 6


def test_growing_is_not_offered_once_the_population_track_is_empty() -> None:
    s = new()
    p = s.decision.player  # type: ignore[union-attr]
    s.nations = tuple(n._replace(grown=8) if i == p else n for i, n in enumerate(s.nations))
    s._legal = None
    assert {"type": "grow"} not in offered(s, f"p{p + 1}")


def test_the_event_is_revealed_after_growth_from_the_top_of_the_ages_deck() -> None:
    s = new(seed=9)
    top = s.event_decks[0][-1]
    while isinstance(s.decision, GrowthD):
        assert s.event == ""
        s, events = act(s, f"p{s.decision.player + 1}", {"type": "bonus", "resource": "food"})
    assert s.event == top and len(s.event_decks[0]) == 4
    assert of_type(events, "event_revealed") == [{"type": "event_revealed", "card": top, "left": 4}]
    assert isinstance(s.decision, ActD) and s.decision.player == s.order[0]
    assert view_for(s, None)["event"] == top
