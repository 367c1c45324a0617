"""Resolution and the end (docs/nations.md): production with gains before costs (NR12), revolt
and shortage penalties (NR29, NR34), the 50-book token (NR29), player order, the war (NR10,
NR32), the events' sole leader and tied last (NR13, NR15), famine (NR31), the end-of-age book
scoring, the end after round 8 (NR16) and the final score with its tie-break (NR30, NR36, NR37).

Positions use the quiet test event (famine 0, no effects) unless a test names a real one; every
number is worked out by hand from age1.json and the rules table."""

from __future__ import annotations

import pytest

from engine.core.game import JSONObject
from engine.nations import GAME
from engine.nations.catalog import MEASURES
from engine.nations.economy import measure, score_sheet
from engine.nations.resolution import losers, winners
from engine.nations.state import ActD, MatchState, Nation, War
from tests.engine.nations.builders import (
    RULES,
    nation,
    of_type,
    pass_all,
    position,
    quiet_rules,
    shown,
)

BARE = [("a_warriors", 1)]  # strength 2, produces nothing


def resolve(s: MatchState) -> tuple[MatchState, list[JSONObject]]:
    return pass_all(s)


def one(events: list[JSONObject], kind: str, seat: str = "p1") -> JSONObject:
    (found,) = [e for e in of_type(events, kind) if e.get("seat", seat) == seat]
    return found


def test_production_takes_every_cards_yield_once_per_worker() -> None:
    n = nation(
        slots=[("a_farm", 2), ("a_quarry", 1), ("i_hoplites", 1)],
        colonies=["i_cyrene"],
        advisor="i_aristotle",
        wonders=["i_hanging_gardens"],
    )
    s, events = resolve(position(nations={0: n}, order=[0, 1], passed=[1]))
    assert one(events, "produced") == {
        "type": "produced",
        "seat": "p1",
        "gained": [1, 3, 6 + 2, 2],  # gold, stone, food, books
        "paid": [0, 0, 1, 0],  # the Hoplites eat 1 food
    }
    p1 = s.nations[0]
    assert (p1.gold, p1.stone, p1.food, p1.books) == (1, 3, 7, 2)


def test_nr12_gains_come_before_costs_within_a_resource() -> None:
    n = nation(slots=[("a_farm", 1)], grown=1, idle=1)  # +3 food, and 3 food for the grown worker
    s, events = resolve(position(nations={0: n}, order=[0, 1], passed=[1]))
    assert s.nations[0].food == 0
    assert [e for e in of_type(events, "short_of") if e["seat"] == "p1"] == []


def test_a_nation_in_revolt_loses_a_book_per_point_below_zero_and_a_vp() -> None:
    n = nation(slots=[("i_immortals", 2)], books=5)  # stability -2
    s, events = resolve(position(nations={0: n}, order=[0, 1], passed=[1]))
    assert one(events, "revolted") == {
        "type": "revolted",
        "seat": "p1",
        "stability": -2,
        "books": 2,
        "vp": 1,
    }
    assert (s.nations[0].books, s.nations[0].vp) == (3, -1)


def test_nr29_nr30_books_stop_at_zero_and_vp_goes_below() -> None:
    n = nation(slots=[("i_immortals", 3)], books=1)  # stability -3
    s, _ = resolve(position(nations={0: n}, order=[0, 1], passed=[1]))
    assert (s.nations[0].books, s.nations[0].vp) == (0, -1)


def test_a_shortage_costs_a_book_per_missing_unit_and_a_vp_per_resource_short() -> None:
    # Hoplites eat 1 food a worker; Musketeers 1 gold a worker; nothing produces either
    n = nation(slots=[("i_hoplites", 2), ("iii_musketeers", 1)], books=6, food=0, gold=0)
    s, events = resolve(position(nations={0: n}, order=[0, 1], passed=[1]))
    assert one(events, "short_of") == {
        "type": "short_of",
        "seat": "p1",
        "missing": [1, 0, 2, 0],
        "books": 3,
        "vp": 2,
        "during": "production",
    }
    p1 = s.nations[0]
    assert (p1.gold, p1.food, p1.books, p1.vp) == (0, 0, 3, -2)


def test_nr34_the_shortage_vp_are_capped_by_the_rules_table() -> None:
    capped = quiet_rules({"shortage_vp_cap": 1})
    n = nation(slots=[("i_hoplites", 2), ("iii_musketeers", 1)], books=6)
    s = position(nations={0: n}, order=[0, 1], passed=[1], rules=capped)
    s, events = resolve(s)
    assert one(events, "short_of")["vp"] == 1


def test_nr29_books_past_fifty_show_as_a_50_book_token() -> None:
    n = nation(slots=BARE, books=49, advisor="i_aristotle")  # +2 books
    s, _ = resolve(position(nations={0: n}, order=[0, 1], passed=[1]))
    p1 = shown(s, "p1")
    assert (p1["books"], p1["book_tokens"], p1["heritage"]) == (51, 1, 1)


def test_player_order_by_strength_then_stability_then_the_old_order() -> None:
    weak = nation(slots=BARE)
    strong = nation(slots=[("a_warriors", 2)])
    steady = nation(slots=[("a_warriors", 2)], advisor="i_hammurabi")
    s = position(3, nations={0: weak, 1: strong, 2: steady}, order=[0, 1, 2], passed=[1, 2])
    s, events = resolve(s)
    assert of_type(events, "order_set") == [{"type": "order_set", "order": ["p3", "p2", "p1"]}]
    s = position(3, nations={0: weak, 1: weak, 2: weak}, order=[2, 0, 1], passed=[0, 1])
    s.decision = ActD(2)
    s, events = resolve(s)
    assert of_type(events, "order_set")[0]["order"] == ["p3", "p1", "p2"]  # all tied: kept


def war_position(defender: Nation, buyer_slots: list[tuple[str, int]] | None = None) -> MatchState:
    buyer = nation(slots=buyer_slots or BARE)
    return position(
        nations={0: buyer, 1: defender},
        order=[0, 1],
        passed=[1],
        war=War("i_punic_wars", 0, 6),  # lose 4 food (age1.json)
    )


def test_nr32_a_defeat_loses_the_wars_resource_less_positive_stability_and_a_vp() -> None:
    defender = nation(slots=BARE, food=10, advisor="i_hammurabi")  # strength 2, stability 2
    s, events = resolve(war_position(defender))
    assert of_type(events, "war_resolved") == [
        {"type": "war_resolved", "card": "i_punic_wars", "strength": 6, "defeated": ["p2"]}
    ]
    assert one(events, "defeated", "p2") == {
        "type": "defeated",
        "seat": "p2",
        "card": "i_punic_wars",
        "resource": "food",
        "lost": 2,
        "vp": 1,
    }
    assert (s.nations[1].food, s.nations[1].vp) == (8, -1)
    assert s.war is None


def test_nr32_a_defeat_takes_at_most_what_there_is_and_never_below_zero() -> None:
    poor = nation(slots=BARE, food=1)
    s, events = resolve(war_position(poor))
    assert one(events, "defeated", "p2")["lost"] == 1 and s.nations[1].food == 0
    steady = nation(slots=BARE, food=9, advisor="iv_queen_victoria")  # stability 4
    s, events = resolve(war_position(steady))
    assert one(events, "defeated", "p2")["lost"] == 0 and s.nations[1].vp == -1


def test_nr32_equal_strength_to_the_war_is_no_defeat() -> None:
    _, events = resolve(war_position(nation(slots=[("a_warriors", 3)], food=5)))  # strength 6
    assert of_type(events, "war_resolved")[0]["defeated"] == []


def test_nr10_the_buyer_is_never_defeated_by_its_own_war() -> None:
    buyer_now_weaker = [("a_warriors", 0)]  # strength 0 against its war's 6
    _, events = resolve(war_position(nation(slots=[("a_warriors", 3)]), buyer_now_weaker))
    assert of_type(events, "war_resolved")[0]["defeated"] == []


def test_nr15_a_sole_leader_gains_and_everyone_tied_last_loses() -> None:
    # First Olympic Games: the strongest gains 2 books; the least stable lose 2 books; famine 1
    p1 = nation(slots=[("a_warriors", 2)], books=5, food=3)
    p2 = nation(slots=BARE, books=5, food=3)
    s = position(nations={0: p1, 1: p2}, order=[0, 1], passed=[1], event="ei_olympic_games")
    s, events = resolve(s)
    assert of_type(events, "event_resolved") == [
        {
            "type": "event_resolved",
            "card": "ei_olympic_games",
            "index": 0,
            "measure": "strength",
            "leader": "p1",
            "last": [],
            "leaders": ["p1"],
        },
        {
            "type": "event_resolved",
            "card": "ei_olympic_games",
            "index": 1,
            "measure": "stability",
            "leader": None,
            "last": ["p1", "p2"],  # NR15: both at 0, both last
            "leaders": [],
        },
    ]
    assert [n.books for n in s.nations] == [5 + 2 - 2, 5 - 2]


def test_nr15_a_tie_at_the_top_has_no_leader() -> None:
    same = nation(slots=BARE, books=5, food=3)
    s = position(nations={0: same, 1: same}, order=[0, 1], passed=[1], event="ei_olympic_games")
    s, events = resolve(s)
    assert of_type(events, "event_resolved")[0]["leader"] is None
    assert [n.books for n in s.nations] == [3, 3]


def test_nr15_with_three_nations_the_two_tied_last_both_lose() -> None:
    steady = nation(slots=BARE, advisor="i_hammurabi", books=4, food=3)
    shaky = nation(slots=BARE, books=4, food=3)
    s = position(
        3,
        nations={0: steady, 1: shaky, 2: shaky},
        order=[0, 1, 2],
        passed=[1, 2],
        event="ei_olympic_games",
    )
    s, events = resolve(s)
    assert of_type(events, "event_resolved")[1]["last"] == ["p2", "p3"]
    assert [n.books for n in s.nations] == [4, 2, 2]


def test_nr13_events_compare_the_values_after_production() -> None:
    # Plague of Athens: the least food loses 1 VP. Before production p1 has less food (0 < 2);
    # after it p1 has 3 (its farm) and p2 still 2, so p2 is last. Famine 2 comes after events.
    p1 = nation(slots=[("a_farm", 1)], food=0, books=3)
    p2 = nation(slots=BARE, food=2, books=3)
    s = position(nations={0: p1, 1: p2}, order=[0, 1], passed=[1], event="ei_plague_of_athens")
    s, events = resolve(s)
    assert of_type(events, "event_resolved")[0]["last"] == ["p2"]
    assert [n.vp for n in s.nations] == [0, -1]


def test_nr31_famine_takes_food_and_a_shortfall_is_a_shortage() -> None:
    # Founding of Alexandria: famine 1; the fewest books lose 1 VP (p2 here)
    p1 = nation(slots=BARE, food=0, books=5)
    p2 = nation(slots=BARE, food=4, books=2)
    alexandria = "ei_founding_of_alexandria"
    s = position(nations={0: p1, 1: p2}, order=[0, 1], passed=[1], event=alexandria)
    s, events = resolve(s)
    assert one(events, "famine_paid", "p2") == {"type": "famine_paid", "seat": "p2", "food": 1}
    assert one(events, "short_of") == {
        "type": "short_of",
        "seat": "p1",
        "missing": [0, 0, 1, 0],
        "books": 1,
        "vp": 1,
        "during": "famine",
    }
    assert [(n.food, n.books, n.vp) for n in s.nations] == [(0, 4, -1), (3, 2, -1)]


def test_the_end_of_an_age_gives_a_vp_for_each_nation_with_fewer_books() -> None:
    books = {0: nation(slots=BARE, books=5), 1: nation(slots=BARE, books=3)}
    books[2] = books[1]
    s = position(3, nations=books, order=[0, 1, 2], passed=[1, 2], round_number=2)
    s, events = resolve(s)
    assert [(e["seat"], e["vp"]) for e in of_type(events, "age_scored")] == [
        ("p1", 2),
        ("p2", 0),
        ("p3", 0),
    ]
    s = position(3, nations=books, order=[0, 1, 2], passed=[1, 2], round_number=1)
    s, events = resolve(s)
    assert of_type(events, "age_scored") == []  # round 1 ends no age


def test_nr16_the_match_ends_after_round_eights_resolution() -> None:
    s = position(order=[0, 1], passed=[1], round_number=8)
    s, events = resolve(s)
    assert s.winner >= 0 and s.decision is None and s.round == 8
    assert GAME.to_move(s) == () and of_type(events, "round_started") == []
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.reason == "score"
    assert of_type(events, "match_ended")[0]["winner"] == outcome.winners[0]


def test_the_final_score_adds_its_five_categories() -> None:
    n = nation(
        vp=3,
        colonies=["i_massalia", "i_gadir"],  # 2 + 3
        wonders=["i_pyramids", "iii_versailles"],  # 6 + (5 + 1 per completed wonder: 2)
        slots=[("ii_guild_hall", 2), ("iv_railway_station", 1), ("iv_textile_mill", 0)],
        gold=7,
        food=5,
        stone=4,
        books=9,
    )
    # cards: Guild Hall 1 a worker (2), Railway 2 (1 worker), an unmanned Mill nothing;
    # resources: 7 + 5 + 4 + 9 + strength 0 + stability 2 (Guild Hall) = 27 -> 2
    assert score_sheet(RULES, n) == (3, 5, 13, 4, 2, 27)


def test_nr36_a_resource_sum_below_ten_or_below_zero_scores_nothing() -> None:
    assert score_sheet(RULES, nation(slots=[], gold=9)).resources == 0
    # four grown workers: two stability spaces, -6 stability; 3 gold - 6 = -3, never below 0
    assert score_sheet(RULES, nation(slots=[], gold=3, grown=4)).resources == 0


def test_nr37_a_tie_goes_to_the_nation_earlier_in_player_order() -> None:
    same = nation(slots=BARE, books=1)
    s = position(nations={0: same, 1: same}, order=[1, 0], passed=[0], decision=ActD(1))
    s.round = 8
    s, events = resolve(s)
    assert s.scores[0] == s.scores[1] and s.winner == 1
    assert of_type(events, "match_ended")[0]["winner"] == "p2"


def test_nr35_each_event_measure_reads_one_thing_of_the_nation() -> None:
    n = nation(
        slots=[("a_warriors", 2), ("a_farm", 1), ("i_nile_irrigation", 0)],
        advisor="i_hammurabi",
        colonies=["i_massalia"],
        wonders=["i_pyramids", "i_colossus"],
        gold=4,
        stone=5,
        food=6,
        books=7,
    )
    got = {m: measure(RULES, n, m) for m in MEASURES}
    assert got == {
        "strength": 4 + 1,  # Warriors 2 a worker, the Colossus 1
        "stability": 2,
        "books": 7,
        "gold": 4,
        "food": 6,
        "stone": 5,
        "buildings": 2,  # the farm and the irrigation, manned or not
        "colonies": 1,
        "wonders": 2,
    }


def test_nr42_at_five_players_the_two_strongest_gain_and_the_two_weakest_lose() -> None:
    """The published game's five-player rule: a positive effect also reaches the second
    strongest (unless tied), a negative one the two weakest (rules.json, by player count)."""
    nations = {
        p: nation(
            slots=[("a_warriors", 4 - p)],  # strength 8, 6, 4, 2, 0
            advisor="i_hammurabi" if p < 2 else "",  # p1, p2 stable; p3-p5 tied last at 0
            books=5,
            food=3,
        )
        for p in range(5)
    }
    s = position(5, nations=nations, order=range(5), passed=range(1, 5), event="ei_olympic_games")
    s, events = resolve(s)
    strength_event, stability_event = of_type(events, "event_resolved")
    assert strength_event["leaders"] == ["p1", "p2"] and strength_event["leader"] == "p1"
    assert stability_event["last"] == ["p3", "p4", "p5"]  # a tie at the bottom reaches all
    assert [n.books for n in s.nations] == [7, 7, 3, 3, 3]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_nr15_nr42_below_five_players_one_place_gains_and_the_tied_last_lose(
    players: int,
) -> None:
    assert RULES.event_winners[players] == 1 and RULES.event_losers[players] == 1
    nations = {
        p: nation(slots=[("a_warriors", players - p)], books=5, food=3) for p in range(players)
    }
    s = position(
        players,
        nations=nations,
        order=range(players),
        passed=range(1, players),
        event="ei_olympic_games",
    )
    s, events = resolve(s)
    strength_event, stability_event = of_type(events, "event_resolved")
    assert strength_event["leaders"] == ["p1"]
    assert stability_event["last"] == [f"p{p + 1}" for p in range(players)]  # all at 0


@pytest.mark.parametrize(
    ("values", "places", "gain", "lose"),
    [
        ([5, 3, 1, 1, 0], 2, [0, 1], {2, 3, 4}),
        ([5, 5, 1, 0, 0], 2, [], {3, 4}),  # a tie at the top: nobody gains, nobody second
        ([5, 3, 3, 0, 1], 2, [0], {3, 4}),  # the second place tied: only the leader
        ([5, 3, 1, 0, 0], 1, [0], {3, 4}),
        ([2, 2], 1, [], {0, 1}),  # NR15: two tied nations, no leader, both last
    ],
)
def test_nr15_nr42_who_an_event_reaches(
    values: list[int], places: int, gain: list[int], lose: set[int]
) -> None:
    assert winners(values, places) == gain
    assert losers(values, places) == lose
