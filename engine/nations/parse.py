"""Reading Nations' data documents into typed records: the operations of the effect vocabulary
(NR19), cards with the checks the rules need of each type, event cards and difficulty levels."""

from __future__ import annotations

from typing import cast

from ..core.game import JSON, JSONObject
from ..core.jsondata import as_choice, as_int, as_list, as_object, as_str
from .catalog import (
    CARD_TYPES,
    DIFFICULTIES,
    GAINABLE,
    GOODS,
    MEASURES,
    RESOURCES,
    SCORE_WHATS,
    Card,
    Choose,
    Consume,
    EventCard,
    Gain,
    GainByAttack,
    HistoricalEvent,
    InForce,
    Level,
    Lose,
    Once,
    Pay,
    Produce,
    Score,
    ScorePer,
    Stability,
    Strength,
    Yield,
)

# ---- operations ------------------------------------------------------------------------------


def _amount(raw: JSONObject, what: str) -> int:
    return as_int(raw["amount"], f"{what} amount")


def _in_force(value: JSON, what: str) -> InForce:
    raw = as_object(value, what)
    op = as_str(raw["op"], f"{what} op")
    match op:
        case "produce":
            return Produce(as_choice(raw["resource"], RESOURCES, what), _amount(raw, what))
        case "consume":
            return Consume(as_choice(raw["resource"], GOODS, what), _amount(raw, what))
        case "strength":
            return Strength(_amount(raw, what))
        case "stability":
            return Stability(_amount(raw, what))
        case "score":
            return Score(_amount(raw, what))
        case "score_per":
            return ScorePer(as_choice(raw["what"], SCORE_WHATS, what), _amount(raw, what))
    raise ValueError(f"{what}: {op!r} is not an in-force operation")


def _once(value: JSON, what: str) -> Once:
    raw = as_object(value, what)
    op = as_str(raw["op"], f"{what} op")
    match op:
        case "gain":
            return Gain(as_choice(raw["resource"], GAINABLE, what), _amount(raw, what))
        case "lose":
            return Lose(as_choice(raw["resource"], GAINABLE, what), _amount(raw, what))
        case "pay":
            return Pay(as_choice(raw["resource"], RESOURCES, what), _amount(raw, what))
        case "gain_by_attack":
            resource = as_choice(raw["resource"], RESOURCES, what)
            return GainByAttack(resource, as_int(raw["per"], f"{what} per"))
        case "choose":
            options = []
            for option in as_list(raw["options"], f"{what} options"):
                ops = tuple(_once(o, f"{what} option") for o in as_list(option, what))
                if not all(isinstance(o, Gain | Lose | Pay) for o in ops):
                    raise ValueError(f"{what}: an option holds only gain, lose and pay")
                options.append(cast(tuple[Gain | Lose | Pay, ...], ops))
            return Choose(tuple(options))
    raise ValueError(f"{what}: {op!r} is not a once-only operation")


def _simple(ops: tuple[Once, ...], what: str) -> tuple[Gain | Lose, ...]:
    if not all(isinstance(o, Gain | Lose) for o in ops):
        raise ValueError(f"{what}: only gain and lose may be used here")
    return cast(tuple[Gain | Lose, ...], ops)


def compile_yield(ops: tuple[InForce, ...]) -> Yield:
    """In-force operations added up into one vector (each op kind handled here once)."""
    produce, consume = [0, 0, 0, 0], [0, 0, 0, 0]
    strength = stability = score = 0
    per: list[ScorePer] = []
    for op in ops:
        match op:
            case Produce(resource, amount):
                produce[RESOURCES.index(resource)] += amount
            case Consume(resource, amount):
                consume[RESOURCES.index(resource)] += amount
            case Strength(amount):
                strength += amount
            case Stability(amount):
                stability += amount
            case Score(amount):
                score += amount
            case ScorePer():
                per.append(op)
    return Yield(
        (produce[0], produce[1], produce[2], produce[3]),
        (consume[0], consume[1], consume[2], consume[3]),
        strength,
        stability,
        score,
        tuple(per),
    )


# ---- cards and events ------------------------------------------------------------------------


def card(value: JSON) -> Card:
    raw = as_object(value, "card")
    cid = as_str(raw["id"], "card id")
    kind = as_choice(raw["type"], CARD_TYPES, f"{cid} type")
    takes_workers = kind in ("building", "military")
    in_force = tuple(
        _in_force(o, f"{cid} op")
        for o in as_list(raw.get("per_worker" if takes_workers else "lasting", []), cid)
    )
    compiled = compile_yield(in_force)
    on_buy = tuple(_once(o, f"{cid} on_buy") for o in as_list(raw.get("on_buy", []), cid))
    defeat = tuple(_once(o, f"{cid} defeat") for o in as_list(raw.get("defeat", []), cid))
    card = Card(
        id=cid,
        age=as_int(raw["age"], f"{cid} age"),
        type=kind,
        min_players=as_int(raw.get("min_players", 2), f"{cid} min_players"),
        deploy=as_int(raw.get("deploy", 0), f"{cid} deploy"),
        attack=as_int(raw.get("attack", 0), f"{cid} attack"),
        min_strength=as_int(raw.get("min_strength", 0), f"{cid} min_strength"),
        sections=tuple(as_int(x, f"{cid} section") for x in as_list(raw.get("sections", []), cid)),
        per_worker=compiled if takes_workers else compile_yield(()),
        lasting=compile_yield(()) if takes_workers else compiled,
        on_buy=on_buy,
        defeat=tuple(o for o in defeat if isinstance(o, Lose)),
        in_force=in_force,
        history=as_str(raw["history"], f"{cid} history"),
        provenance=as_str(raw["provenance"], f"{cid} provenance"),
    )
    _check_card(card, len(defeat))
    return card


def _check_card(card: Card, defeat_ops: int) -> None:
    """What the rules need of each type (so a bad file fails at load, not mid-match)."""
    cid, kind = card.id, card.type
    if card.takes_workers and card.deploy < 1:
        raise ValueError(f"{cid}: every deployment costs at least 1 stone (NR39)")
    if kind == "wonder" and (not card.sections or min(card.sections) < 1):
        raise ValueError(f"{cid}: a wonder has sections of at least 1 stone (NR39)")
    if kind == "war" and (defeat_ops != 1 or len(card.defeat) != 1):
        raise ValueError(f"{cid}: a war names one resource to lose (NR32)")
    if kind == "golden_age" and not (len(card.on_buy) == 1 and isinstance(card.on_buy[0], Choose)):
        raise ValueError(f"{cid}: a golden age is one choice (NR33)")
    if kind == "golden_age":
        choose = card.on_buy[0]
        assert isinstance(choose, Choose)
        if all(any(isinstance(op, Pay) for op in option) for option in choose.options):
            raise ValueError(f"{cid}: a golden age has an option that pays nothing (NR17)")
    consumed_books = card.per_worker.consume[3] or card.lasting.consume[3]
    if consumed_books:
        raise ValueError(f"{cid}: books are never consumed (NR34)")


def event_card(value: JSON) -> EventCard:
    raw = as_object(value, "event card")
    eid = as_str(raw["id"], "event id")
    events = []
    for e in as_list(raw["events"], eid):
        ev = as_object(e, eid)
        events.append(
            HistoricalEvent(
                as_choice(ev["measure"], MEASURES, f"{eid} measure"),
                _simple(tuple(_once(o, eid) for o in as_list(ev["leader"], eid)), eid),
                _simple(tuple(_once(o, eid) for o in as_list(ev["last"], eid)), eid),
            )
        )
    return EventCard(
        id=eid,
        age=as_int(raw["age"], f"{eid} age"),
        architects=as_int(raw["architects"], f"{eid} architects"),
        famine=as_int(raw["famine"], f"{eid} famine"),
        events=tuple(events),
        history=as_str(raw["history"], f"{eid} history"),
        provenance=as_str(raw["provenance"], f"{eid} provenance"),
    )


def level(value: JSON) -> Level:
    raw = as_object(value, "difficulty level")
    lid = as_choice(raw["id"], DIFFICULTIES, "difficulty id")
    start, bonus = as_object(raw["start"], lid), as_object(raw["bonus"], lid)

    def goods(table: JSONObject) -> tuple[int, int, int]:
        g, s, f = (as_int(table[k], f"{lid} {k}") for k in GOODS)
        return g, s, f

    return Level(lid, goods(start), goods(bonus), as_str(raw["provenance"], f"{lid} provenance"))
