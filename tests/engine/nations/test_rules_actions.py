"""The action phase (docs/nations.md): buying by row (seed), overbuilding (NR8, NR23, NR27),
colonies' strength (NR9), one war a round (NR10), battles (NR35, NR40), golden ages (NR33),
deploying (NR24, NR39), free undeploying (NR11, NR26), architects, passing and turn order (NR17,
NR28). Card numbers are read from the data files (age1.json); board slots are row-major, 5 columns
at two players: slots 0–4 cost 1 gold, 5–9 cost 2, 10–14 cost 3."""

from __future__ import annotations

from engine.core.game import JSONObject
from engine.nations.economy import best_attack, production, stability, strength
from engine.nations.state import ActD, GoldenD, MatchState
from engine.nations.views import view_for
from tests.engine.nations.builders import RULES, act, nation, of_type, offered, position, shown

FULL = [("a_farm", 1), ("a_quarry", 1), ("a_warriors", 1), ("i_triremes", 0), ("i_hoplites", 0)]


def buys(s: MatchState, seat: str = "p1") -> list[JSONObject]:
    return [a for a in offered(s, seat) if a["type"] == "buy"]


def test_a_card_costs_its_rows_gold_and_only_affordable_rows_are_offered() -> None:
    board = {0: "i_cyrene", 5: "i_hammurabi", 10: "i_sun_tzu"}
    s = position(nations={0: nation(gold=2, slots=[("a_warriors", 2)])}, board=board)
    assert buys(s) == [{"type": "buy", "card": "i_cyrene"}, {"type": "buy", "card": "i_hammurabi"}]
    s, events = act(s, "p1", {"type": "buy", "card": "i_hammurabi"})
    assert s.nations[0].gold == 0 and s.nations[0].advisor == "i_hammurabi"
    assert s.board[5] == ""  # NR22: empty until the next maintenance
    assert of_type(events, "card_bought")[0]["row"] == 2


def test_nr23_with_free_slots_a_building_is_simply_added() -> None:
    s = position(nations={0: nation(gold=3)}, board={0: "i_nile_irrigation"})
    assert buys(s) == [{"type": "buy", "card": "i_nile_irrigation"}]
    s, _ = act(s, "p1", {"type": "buy", "card": "i_nile_irrigation"})
    assert [sl.card for sl in s.nations[0].slots][-1] == "i_nile_irrigation"


def test_nr8_nr23_a_full_board_offers_one_buy_per_card_it_may_replace() -> None:
    s = position(nations={0: nation(gold=3, slots=FULL)}, board={0: "i_war_chariots"})
    # NR23: one slot type, so a military card may replace a building, side A's included
    assert buys(s) == [
        {"type": "buy", "card": "i_war_chariots", "replace": card} for card, _ in FULL
    ]
    s, events = act(s, "p1", {"type": "buy", "card": "i_war_chariots", "replace": "a_farm"})
    n = s.nations[0]
    assert n.slots[0] == ("i_war_chariots", 0)
    assert n.idle == 1  # NR8: the farm's worker went back to the resource area
    assert of_type(events, "card_bought")[0] == {
        "type": "card_bought",
        "seat": "p1",
        "card": "i_war_chariots",
        "row": 1,
        "gold": 1,
        "replaced": "a_farm",
        "returned": 1,
    }


def test_nr8_an_advisor_replaces_the_advisor() -> None:
    s = position(nations={0: nation(gold=1, advisor="i_hammurabi")}, board={0: "i_sun_tzu"})
    assert buys(s) == [{"type": "buy", "card": "i_sun_tzu"}]
    s, events = act(s, "p1", {"type": "buy", "card": "i_sun_tzu"})
    assert s.nations[0].advisor == "i_sun_tzu"
    assert of_type(events, "card_bought")[0]["replaced"] == "i_hammurabi"
    assert strength(RULES, s.nations[0]) == 2 + 3 and stability(RULES, s.nations[0]) == 0


def test_nr8_a_third_colony_replaces_one_of_the_buyers_choice() -> None:
    n = nation(gold=1, colonies=["i_cyrene", "i_gadir"], slots=[("a_warriors", 3)])
    s = position(nations={0: n}, board={0: "i_massalia"})
    assert buys(s) == [
        {"type": "buy", "card": "i_massalia", "replace": "i_cyrene"},
        {"type": "buy", "card": "i_massalia", "replace": "i_gadir"},
    ]
    s, _ = act(s, "p1", {"type": "buy", "card": "i_massalia", "replace": "i_gadir"})
    assert s.nations[0].colonies == ("i_cyrene", "i_massalia")


def test_nr9_a_colony_needs_its_minimum_strength_only_when_bought() -> None:
    weak = nation(gold=1, slots=[("a_warriors", 1)])  # strength 2; Massalia needs 3
    s = position(nations={0: weak}, board={0: "i_massalia"})
    assert buys(s) == []
    strong = nation(gold=1, food=0, slots=[("a_warriors", 2)])  # strength 4
    s = position(nations={0: strong}, board={0: "i_massalia"})
    s, events = act(s, "p1", {"type": "buy", "card": "i_massalia"})
    assert s.nations[0].food == 3  # on purchase: 3 food
    assert of_type(events, "gained") == [
        {"type": "gained", "seat": "p1", "resource": "food", "amount": 3, "source": "i_massalia"}
    ]
    s, _ = act(s, "p2", {"type": "pass"})
    s, _ = act(s, "p1", {"type": "undeploy", "card": "a_warriors"})
    s, _ = act(s, "p1", {"type": "undeploy", "card": "a_warriors"})
    assert strength(RULES, s.nations[0]) == 0 and s.nations[0].colonies == ("i_massalia",)
    assert production(RULES, s.nations[0])[0][2] == 1  # the colony still produces its food


def test_nr27_a_new_wonder_replaces_the_one_under_construction() -> None:
    n = nation(gold=1, wonder="i_pyramids", built=2)
    s = position(nations={0: n}, board={0: "i_colossus"})
    s, events = act(s, "p1", {"type": "buy", "card": "i_colossus"})
    assert (s.nations[0].wonder, s.nations[0].built) == ("i_colossus", 0)
    bought = of_type(events, "card_bought")[0]
    assert (bought["replaced"], bought["returned"]) == ("i_pyramids", 2)


def test_nr27_five_completed_wonders_leave_no_room_for_another() -> None:
    five = ["i_pyramids", "i_colossus", "i_hanging_gardens", "ii_angkor_wat", "ii_alhambra"]
    s = position(nations={0: nation(gold=3, wonders=five)}, board={0: "i_library_alexandria"})
    assert buys(s) == []


def test_nr10_one_war_a_round_at_the_buyers_strength_when_bought() -> None:
    board = {0: "i_punic_wars", 1: "i_peloponnesian_war"}
    s = position(nations={0: nation(gold=1, slots=[("a_warriors", 3)])}, board=board)
    s, events = act(s, "p1", {"type": "buy", "card": "i_punic_wars"})
    assert s.war is not None and (s.war.card, s.war.buyer, s.war.strength) == ("i_punic_wars", 0, 6)
    assert of_type(events, "war_declared") == [
        {"type": "war_declared", "seat": "p1", "card": "i_punic_wars", "strength": 6}
    ]
    assert buys(s, "p2") == []  # p2 has the gold for the other war, but one war a round
    assert view_for(s, "p2")["war"] == {"card": "i_punic_wars", "seat": "p1", "strength": 6}


def test_nr40_a_battle_gains_by_the_best_manned_attack() -> None:
    slots = [("a_warriors", 1), ("i_war_chariots", 1), ("i_roman_legion", 0)]
    s = position(nations={0: nation(gold=1, slots=slots)}, board={0: "i_marathon"})
    assert best_attack(RULES, s.nations[0]) == 3  # Chariots 3; the Legion has no worker
    s, events = act(s, "p1", {"type": "buy", "card": "i_marathon"})
    assert s.nations[0].books == 3  # Marathon: 1 book a point of attack
    assert of_type(events, "battle_fought")[0]["attack"] == 3
    assert "i_marathon" not in s.board and "i_marathon" not in str(s.nations[0])


def test_nr35_a_battle_without_a_manned_military_card_gains_nothing_but_is_legal() -> None:
    s = position(nations={0: nation(gold=1, slots=[("a_warriors", 0)])}, board={0: "i_gaugamela"})
    assert buys(s) == [{"type": "buy", "card": "i_gaugamela"}]
    s, _ = act(s, "p1", {"type": "buy", "card": "i_gaugamela"})
    assert s.nations[0].food == 0


def test_nr33_a_golden_age_is_its_buyers_next_decision_among_affordable_options() -> None:
    s = position(nations={0: nation(gold=2)}, board={0: "i_age_of_pericles"})
    s, _ = act(s, "p1", {"type": "buy", "card": "i_age_of_pericles"})
    assert s.decision == GoldenD(0, "i_age_of_pericles")
    # 1 gold left: the option that pays 2 gold for 1 VP is not offered
    assert offered(s, "p1") == [{"type": "choose", "option": i} for i in (0, 1, 2)]
    rich = position(nations={0: nation(gold=3)}, board={0: "i_age_of_pericles"})
    rich, _ = act(rich, "p1", {"type": "buy", "card": "i_age_of_pericles"})
    rich, events = act(rich, "p1", {"type": "choose", "option": 3})
    assert (rich.nations[0].gold, rich.nations[0].vp) == (0, 1)
    assert rich.decision == ActD(1)  # the turn is over once chosen
    assert of_type(events, "option_chosen")[0]["option"] == 3


def test_deploying_pays_the_cards_stone_and_moves_an_idle_worker() -> None:
    n = nation(stone=2, idle=1, slots=[("a_farm", 1), ("i_laurion_mines", 0)])
    s = position(nations={0: n})
    deploys = [a for a in offered(s, "p1") if a["type"] == "deploy"]
    assert deploys == [
        {"type": "deploy", "card": "a_farm"},
        {"type": "deploy", "card": "i_laurion_mines"},
        {"type": "deploy", "card": "i_laurion_mines", "source": "a_farm"},
    ]
    s, events = act(s, "p1", {"type": "deploy", "card": "i_laurion_mines"})
    n = s.nations[0]
    assert (n.stone, n.idle, n.workers_on("i_laurion_mines")) == (0, 0, 1)
    assert of_type(events, "deployed")[0]["stone"] == 2


def test_deploying_is_not_offered_without_the_stone() -> None:
    n = nation(stone=1, idle=1, slots=[("a_farm", 0), ("i_laurion_mines", 0)])
    assert [a for a in offered(position(nations={0: n}), "p1") if a["type"] == "deploy"] == [
        {"type": "deploy", "card": "a_farm"}
    ]


def test_nr39_a_worker_moves_from_card_to_card_as_one_paid_action() -> None:
    n = nation(stone=1, slots=[("a_farm", 1), ("a_quarry", 0)])
    s = position(nations={0: n})
    s, _ = act(s, "p1", {"type": "deploy", "card": "a_quarry", "source": "a_farm"})
    n = s.nations[0]
    assert (n.workers_on("a_farm"), n.workers_on("a_quarry"), n.stone, n.idle) == (0, 1, 0, 0)
    assert s.decision == ActD(1)


def test_nr24_a_card_takes_several_workers_and_each_repeats_its_effect() -> None:
    one = nation(slots=[("i_immortals", 1)])
    three = nation(slots=[("i_immortals", 3)])
    assert (strength(RULES, one), stability(RULES, one)) == (3, -1)
    assert (strength(RULES, three), stability(RULES, three)) == (9, -3)


def test_nr11_nr26_undeploying_is_free_and_the_same_nation_decides_again() -> None:
    s = position(nations={0: nation(slots=[("i_immortals", 2)])})
    assert {"type": "undeploy", "card": "i_immortals"} in offered(s, "p1")
    s, events = act(s, "p1", {"type": "undeploy", "card": "i_immortals"})
    assert s.decision == ActD(0) and s.version == 3
    n = s.nations[0]
    assert (n.idle, n.workers_on("i_immortals")) == (1, 1)
    # strength and stability change at once (seed: "ajuste imediatamente")
    assert (shown(s, "p1")["strength"], shown(s, "p1")["stability"]) == (3, -1)
    assert events == [{"type": "undeployed", "seat": "p1", "card": "i_immortals"}]


def test_hiring_builds_the_leftmost_section_and_the_last_completes_the_wonder() -> None:
    n = nation(stone=5, wonder="i_hanging_gardens")  # sections 2 and 3 stone
    s = position(nations={0: n}, architects=2, passed=[1])
    s, events = act(s, "p1", {"type": "hire"})
    assert (s.nations[0].stone, s.nations[0].built, s.architects) == (3, 1, 1)
    assert of_type(events, "architect_hired")[0] == {
        "type": "architect_hired",
        "seat": "p1",
        "wonder": "i_hanging_gardens",
        "section": 1,
        "stone": 2,
    }
    s, events = act(s, "p1", {"type": "hire"})
    n = s.nations[0]
    assert (n.stone, n.wonder, n.built, n.wonders, s.architects) == (
        0,
        "",
        0,
        ("i_hanging_gardens",),
        0,
    )
    assert of_type(events, "wonder_completed")[0]["architects"] == 2
    assert production(RULES, n)[0][2] == 3 + 2 and stability(RULES, n) == 1


def test_hiring_needs_a_wonder_an_architect_and_the_sections_stone() -> None:
    def hires(stone: int, wonder: str, architects: int = 1) -> bool:
        s = position(nations={0: nation(stone=stone, wonder=wonder)}, architects=architects)
        return {"type": "hire"} in offered(s, "p1")

    assert hires(3, "i_pyramids")
    assert not hires(3, "")
    assert not hires(2, "i_pyramids")
    assert not hires(3, "i_pyramids", architects=0)


def test_nr17_passing_is_always_offered_and_may_be_all_there_is() -> None:
    s = position(nations={0: nation(slots=[("a_farm", 0)])}, board={0: "i_cyrene"})
    assert offered(s, "p1") == [{"type": "pass"}]


def test_nr28_turns_go_round_the_order_skipping_nations_that_passed() -> None:
    s = position(3, order=[1, 2, 0], decision=ActD(1))
    s, _ = act(s, "p2", {"type": "pass"})
    assert s.decision == ActD(2)
    s, _ = act(s, "p3", {"type": "deploy", "card": "a_farm"})
    assert s.decision == ActD(0)
    s, _ = act(s, "p1", {"type": "pass"})
    assert s.decision == ActD(2)  # p2 and p1 passed: p3 acts again and again
    assert offered(s, "p1") == [] and offered(s, "p2") == []
    s, events = act(s, "p3", {"type": "pass"})
    assert of_type(events, "produced") and s.round == 2  # all passed: resolution ran
