"""Every card's effect, read from the data files as written (not from the engine's compiled
tables): buildings and military per worker (NR24), colonies on purchase and while held, wonders
when complete, advisors, battles (NR40), golden ages' options (NR33), wars' defeats (NR32) and
each event card's two events (NR15) and famine (NR31)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.nations.economy import best_attack, production, score_sheet, stability, strength
from engine.nations.events import Event
from engine.nations.resolution import _events
from engine.nations.state import Nation, War
from tests.engine.nations.builders import (
    RULES,
    act,
    nation,
    of_type,
    offered,
    pass_all,
    position,
)
from tests.engine.nations.raw import EVENTS, ORDER, RAW


def of(kind: str) -> list[str]:
    return sorted(c for c, raw in RAW.items() if raw["type"] == kind)


def expected(ops: list[dict[str, Any]], times: int = 1) -> dict[str, Any]:
    """What a list of in-force operations adds up to, `times` over, by hand from the ops."""
    out: dict[str, Any] = {"gains": [0] * 4, "costs": [0] * 4, "strength": 0, "stability": 0}
    out["score"] = 0
    for op in ops:
        if op["op"] == "produce":
            out["gains"][ORDER.index(op["resource"])] += op["amount"] * times
        elif op["op"] == "consume":
            out["costs"][ORDER.index(op["resource"])] += op["amount"] * times
        elif op["op"] in ("strength", "stability", "score"):
            out[op["op"]] += op["amount"] * times
    return out


def holdings(n: Nation) -> dict[str, int]:
    return {"gold": n.gold, "stone": n.stone, "food": n.food, "books": n.books, "vp": n.vp}


@pytest.mark.parametrize("card", of("building") + of("military"))
@pytest.mark.parametrize("workers", [1, 2])
def test_every_building_and_military_card_works_once_per_worker(card: str, workers: int) -> None:
    want = expected(RAW[card]["per_worker"], workers)
    n = nation(slots=[(card, workers)])
    assert production(RULES, n) == (want["gains"], want["costs"])
    assert (strength(RULES, n), stability(RULES, n)) == (want["strength"], want["stability"])
    assert score_sheet(RULES, n).cards == want["score"]
    assert score_sheet(RULES, nation(slots=[(card, 0)])).cards == 0  # no worker, no VP
    if RAW[card]["type"] == "military":
        assert best_attack(RULES, n) == RAW[card]["attack"]
    rich = n._replace(gold=20, stone=20, food=20)
    _, events = pass_all(position(nations={0: rich}, order=[0, 1], passed=[1]))
    produced = next(e for e in of_type(events, "produced") if e["seat"] == "p1")
    assert (produced["gained"], produced["paid"]) == (want["gains"], want["costs"])


@pytest.mark.parametrize("card", of("colony"))
def test_every_colony_gives_its_purchase_and_then_its_lasting_effects(card: str) -> None:
    raw = RAW[card]
    warriors = (raw["min_strength"] + 1) // 2  # Warriors: 2 strength a worker
    n = nation(gold=1, slots=[("a_warriors", warriors)])
    s = position(nations={0: n}, board={0: card})
    s, _ = act(s, "p1", {"type": "buy", "card": card})
    after = holdings(s.nations[0])
    gains = dict.fromkeys(after, 0)
    for op in raw["on_buy"]:
        gains[op["resource"]] += op["amount"]
    assert after == gains  # the row's 1 gold paid, then the purchase's gains
    want = expected(raw["lasting"])
    held = nation(slots=[], colonies=[card])
    assert production(RULES, held) == (want["gains"], want["costs"])
    assert score_sheet(RULES, held).colonies == want["score"]
    too_weak = nation(gold=1, slots=[("a_warriors", warriors - 1)])
    assert strength(RULES, too_weak) < raw["min_strength"]
    weak = position(nations={0: too_weak}, board={0: card})
    assert [a for a in offered(weak, "p1") if a["type"] == "buy"] == []  # NR9


@pytest.mark.parametrize("card", of("wonder"))
def test_every_wonder_is_built_section_by_section_and_then_works(card: str) -> None:
    sections = RAW[card]["sections"]
    n = nation(stone=sum(sections), wonder=card)
    s = position(nations={0: n}, architects=len(sections), passed=[1])
    for k in range(len(sections)):
        assert s.nations[0].stone == sum(sections[k:])
        s, events = act(s, "p1", {"type": "hire"})
    assert of_type(events, "wonder_completed")[0]["wonder"] == card
    done = s.nations[0]
    assert (done.stone, done.wonder, done.wonders) == (0, "", (card,))
    want = expected(RAW[card]["lasting"])
    bare = nation(slots=[], wonders=[card])
    assert production(RULES, bare) == (want["gains"], want["costs"])
    assert (strength(RULES, bare), stability(RULES, bare)) == (want["strength"], want["stability"])
    bonus = sum(
        op["amount"] * {"wonder": 1, "colony": 0, "building": 0, "military": 0}[op["what"]]
        for op in RAW[card]["lasting"]
        if op["op"] == "score_per"
    )
    assert score_sheet(RULES, bare).wonders == want["score"] + bonus


def test_a_wonders_bonus_counts_what_the_nation_owns() -> None:
    # Big Ben: 5 VP and 1 VP per colony (age4.json)
    n = nation(slots=[], wonders=["iv_big_ben"], colonies=["i_massalia", "i_cyrene"])
    assert score_sheet(RULES, n).wonders == 5 + 2


@pytest.mark.parametrize("card", of("advisor"))
def test_every_advisor_works_while_it_is_the_advisor(card: str) -> None:
    want = expected(RAW[card]["lasting"])
    s = position(nations={0: nation(slots=[], gold=1)}, board={0: card})
    s, _ = act(s, "p1", {"type": "buy", "card": card})
    n = s.nations[0]
    assert n.advisor == card
    assert production(RULES, n) == (want["gains"], want["costs"])
    assert (strength(RULES, n), stability(RULES, n)) == (want["strength"], want["stability"])


@pytest.mark.parametrize("card", of("battle"))
def test_every_battle_gains_its_resource_by_the_attack(card: str) -> None:
    (op,) = RAW[card]["on_buy"]
    slots = [("i_war_chariots", 1)]  # attack 3
    s = position(nations={0: nation(gold=1, slots=slots)}, board={0: card})
    s, _ = act(s, "p1", {"type": "buy", "card": card})
    assert holdings(s.nations[0])[op["resource"]] == op["per"] * 3


@pytest.mark.parametrize("card", of("golden_age"))
def test_every_golden_age_option_does_what_it_says(card: str) -> None:
    (choose,) = RAW[card]["on_buy"]
    for index, option in enumerate(choose["options"]):
        start = nation(gold=11, stone=10, food=10, books=10)
        s = position(nations={0: start}, board={0: card})
        s, _ = act(s, "p1", {"type": "buy", "card": card})
        before = holdings(s.nations[0])
        s, _ = act(s, "p1", {"type": "choose", "option": index})
        change = dict.fromkeys(before, 0)
        for op in option:
            change[op["resource"]] += -op["amount"] if op["op"] == "pay" else op["amount"]
        assert holdings(s.nations[0]) == {r: before[r] + change[r] for r in before}


@pytest.mark.parametrize("card", of("war"))
@pytest.mark.parametrize("steady", [0, 2])
def test_every_war_takes_its_resource_less_positive_stability(card: str, steady: int) -> None:
    (op,) = RAW[card]["defeat"]
    advisor = "i_hammurabi" if steady else ""  # stability 2
    loser = nation(slots=[("a_warriors", 1)], gold=20, stone=20, food=20, advisor=advisor)
    s = position(nations={1: loser}, order=[0, 1], passed=[1], war=War(card, 0, 9))
    s, events = pass_all(s)
    (defeat,) = of_type(events, "defeated")
    assert (defeat["resource"], defeat["lost"], defeat["vp"]) == (
        op["resource"],
        op["amount"] - steady,
        1,
    )


def high_and_low() -> tuple[Nation, Nation]:
    """p1 ahead of p2 in every measure an event may compare (NR35), both with room to lose."""
    high = nation(
        slots=[("a_warriors", 3), ("a_farm", 0)],
        advisor="i_hammurabi",
        colonies=["i_massalia"],
        wonders=["i_pyramids"],
        gold=20,
        stone=20,
        food=20,
        books=20,
    )
    low = nation(slots=[("a_warriors", 1)], gold=10, stone=10, food=10, books=10)
    return high, low


@pytest.mark.parametrize("card", sorted(EVENTS))
def test_every_event_rewards_the_sole_leader_and_strikes_the_last(card: str) -> None:
    high, low = high_and_low()
    s = position(nations={0: high, 1: low}, event=card).clone()
    before = [holdings(n) for n in s.nations]
    ev: list[Event] = []
    _events(s, ev)
    want = [dict(before[0]), dict(before[1])]
    for event in EVENTS[card]["events"]:
        for who, side in ((0, "leader"), (1, "last")):
            for op in event[side]:
                want[who][op["resource"]] += op["amount"] if op["op"] == "gain" else -op["amount"]
    assert [holdings(n) for n in s.nations] == want


@pytest.mark.parametrize("card", sorted(EVENTS))
def test_every_event_cards_famine_takes_its_food(card: str) -> None:
    high, low = high_and_low()
    s = position(nations={0: high, 1: low}, event=card, order=[0, 1], passed=[1])
    s, events = pass_all(s)
    assert [e["food"] for e in of_type(events, "famine_paid")] == [EVENTS[card]["famine"]] * 2
    assert EVENTS[card]["architects"] == RULES.events[card].architects
