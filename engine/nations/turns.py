"""The action phase: each turn's legal actions (free undeploys, buys with the card they replace,
deploys, hiring, pass) and carrying them out; a golden age's option; turns round the player order
until all have passed (NR8–NR11, NR14, NR17, NR23, NR26–NR28, NR33, NR39)."""

from __future__ import annotations

from typing import assert_never

from .actions import HIRE, PASS, Action, Buy, Choose, Deploy, Hire, Pass, Undeploy, offer
from .catalog import Card
from .catalog import Choose as ChooseOp
from .economy import strength
from .effects import can_pay, run_once, set_nation
from .events import (
    ArchitectHired,
    CardBought,
    Deployed,
    Event,
    OptionChosen,
    Passed,
    Undeployed,
    WarDeclared,
    WonderCompleted,
)
from .state import ActD, GoldenD, MatchState, Nation, Slot, War, seat_of


def act_choices(s: MatchState, d: ActD) -> list[Action]:
    """Every action of a turn; passing is always there, so nobody is ever stuck (NR17)."""
    n, rules = s.nations[d.player], s.rules
    cards, cols = rules.cards, s.columns
    out: list[Action] = []
    colony_strength = -1  # computed once, only if a colony is on offer
    for i, cid in enumerate(s.board):
        if not cid or n.gold < rules.row_costs[i // cols]:
            continue
        card = cards[cid]
        if card.type == "colony" and colony_strength < 0:
            colony_strength = strength(rules, n)
        out += _buys(s, n, card, colony_strength)
    for slot in n.slots:
        if n.stone < cards[slot.card].deploy:
            continue
        if n.idle:
            out.append(offer(Deploy, slot.card, None))
        for source in n.slots:  # NR39: a move from another card is one action too
            if source.workers and source.card != slot.card:
                out.append(offer(Deploy, slot.card, source.card))
    if n.wonder and s.architects > 0 and n.stone >= cards[n.wonder].sections[n.built]:
        out.append(HIRE)
    out += [offer(Undeploy, slot.card) for slot in n.slots if slot.workers]  # NR11, NR26
    out.append(PASS)
    return out


def _buys(s: MatchState, n: Nation, card: Card, colony_strength: int) -> list[Action]:
    """The ways to buy `card`: one per card it may replace when its slots are full (NR8, NR23)."""
    rules, cid = s.rules, card.id
    match card.type:
        case "building" | "military":
            if len(n.slots) < rules.slots:
                return [offer(Buy, cid, None)]
            return [offer(Buy, cid, slot.card) for slot in n.slots]
        case "colony":
            if colony_strength < card.min_strength:  # NR9: checked on purchase only
                return []
            if len(n.colonies) < rules.colony_slots:
                return [offer(Buy, cid, None)]
            return [offer(Buy, cid, c) for c in n.colonies]
        case "wonder":
            # NR27: with every completed-wonder slot full, a wonder could never be finished
            return [] if len(n.wonders) >= rules.wonder_slots else [offer(Buy, cid, None)]
        case "war":
            return [] if s.wars_bought else [offer(Buy, cid, None)]  # NR10: one war a round
        case "advisor" | "battle" | "golden_age":
            return [offer(Buy, cid, None)]
        case _:
            assert_never(card.type)


def resolve_act(s: MatchState, d: ActD, action: Action, ev: list[Event]) -> None:
    """Carry out a turn's action; the turn passes on unless it was a free undeploy or a golden
    age's option is still to choose."""
    p = d.player
    n, seat, cards = s.nations[p], seat_of(p), s.rules.cards
    match action:
        case Undeploy(card):
            set_nation(s, p, _move_worker(n, card, -1)._replace(idle=n.idle + 1))
            ev.append(Undeployed(seat, card))
            s.decision = d  # NR11: not an action, the same player decides again
            return
        case Buy(card, replace):
            _buy(s, p, cards[card], replace, ev)
            if cards[card].type == "golden_age":
                s.decision = GoldenD(p, card)
                return
        case Deploy(card, source):
            stone = cards[card].deploy
            moved = n._replace(stone=n.stone - stone)
            if source is None:
                moved = moved._replace(idle=n.idle - 1)
            else:
                moved = _move_worker(moved, source, -1)
            set_nation(s, p, _move_worker(moved, card, +1))
            ev.append(Deployed(seat, card, source, stone))
        case Hire():
            _hire(s, p, ev)
        case Pass():
            s.passed = (*s.passed[:p], True, *s.passed[p + 1 :])
            ev.append(Passed(seat))
        case _:
            raise AssertionError(f"{action} is not an action-phase action")
    next_turn(s, p)


def _move_worker(n: Nation, card: str, change: int) -> Nation:
    return n._replace(
        slots=tuple(Slot(sl.card, sl.workers + change) if sl.card == card else sl for sl in n.slots)
    )


def _buy(s: MatchState, p: int, card: Card, replace: str | None, ev: list[Event]) -> None:
    i = s.board.index(card.id)
    row = i // s.columns + 1
    price = s.rules.row_costs[row - 1]
    s.board = (*s.board[:i], "", *s.board[i + 1 :])
    n = s.nations[p]
    n = n._replace(gold=n.gold - price)
    replaced, returned = replace, 0
    match card.type:
        case "building" | "military":
            if replace is None:
                n = n._replace(slots=(*n.slots, Slot(card.id, 0)))
            else:  # NR8: the replaced card's workers go back to the resource area
                returned = n.workers_on(replace)
                slots = tuple(Slot(card.id, 0) if sl.card == replace else sl for sl in n.slots)
                n = n._replace(slots=slots, idle=n.idle + returned)
        case "colony":
            colonies = (
                n.colonies if replace is None else tuple(c for c in n.colonies if c != replace)
            )
            n = n._replace(colonies=(*colonies, card.id))
        case "advisor":
            replaced = n.advisor or None
            n = n._replace(advisor=card.id)
        case "wonder":  # NR27: the old wonder's architects return, its stone is lost
            replaced, returned = n.wonder or None, n.built
            n = n._replace(wonder=card.id, built=0)
        case "war" | "battle" | "golden_age":
            pass
        case _:
            assert_never(card.type)
    set_nation(s, p, n)
    seat = seat_of(p)
    ev.append(CardBought(seat, card.id, row, price, replaced, returned))
    if card.type == "war":
        s.war = War(card.id, p, strength(s.rules, n))  # NR10: the buyer's strength now
        s.wars_bought += 1
        ev.append(WarDeclared(seat, card.id, s.war.strength))
    elif card.type != "golden_age":
        for op in card.on_buy:
            run_once(s, p, op, card.id, ev)


def _hire(s: MatchState, p: int, ev: list[Event]) -> None:
    n, seat = s.nations[p], seat_of(p)
    wonder = s.rules.cards[n.wonder]
    stone = wonder.sections[n.built]
    n = n._replace(stone=n.stone - stone, built=n.built + 1)
    s.architects -= 1
    ev.append(ArchitectHired(seat, wonder.id, n.built, stone))
    if n.built == len(wonder.sections):
        ev.append(WonderCompleted(seat, wonder.id, n.built))
        n = n._replace(wonder="", built=0, wonders=(*n.wonders, wonder.id))
    set_nation(s, p, n)


def _options(s: MatchState, d: GoldenD) -> tuple[ChooseOp, ...]:
    return tuple(op for op in s.rules.cards[d.card].on_buy if isinstance(op, ChooseOp))


def golden_choices(s: MatchState, d: GoldenD) -> list[Action]:
    """NR33: every option the buyer can carry out (an option that pays only if affordable)."""
    n = s.nations[d.player]
    (choose,) = _options(s, d)
    return [offer(Choose, i) for i, option in enumerate(choose.options) if can_pay(n, option)]


def resolve_golden(s: MatchState, d: GoldenD, action: Action, ev: list[Event]) -> None:
    assert isinstance(action, Choose)
    (choose,) = _options(s, d)
    ev.append(OptionChosen(seat_of(d.player), d.card, action.option))
    for op in choose.options[action.option]:
        run_once(s, d.player, op, d.card, ev)
    next_turn(s, d.player)


def next_turn(s: MatchState, current: int) -> None:
    """NR28: the next nation in player order that has not passed; None when all have."""
    order = s.order
    k = order.index(current)
    for step in range(1, len(order) + 1):
        q = order[(k + step) % len(order)]
        if not s.passed[q]:
            s.decision = ActD(q)
            return
    s.decision = None  # the action phase is over: resolution runs next
