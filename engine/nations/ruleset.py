"""The Ruleset: Nations' components (cards, event cards, side A, difficulty levels, the rules
table and the translations), read from data and passed in; nothing reads a component at import.

`load_ruleset()` reads engine/nations/data; `ruleset_from_data` builds one from the same documents
given as plain dicts, so a printed card list could replace the reconstruction without code.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Final, cast

from ..core.game import JSON, JSONObject
from ..core.jsondata import as_choice, as_int, as_list, as_object, as_str
from .catalog import (
    CARD_TYPES,
    DIFFICULTIES,
    GAINABLE,
    GOODS,
    MEASURES,
    POPULATION_COSTS,
    RESOURCES,
    SCORE_WHATS,
    Card,
    Choose,
    Consume,
    Difficulty,
    EventCard,
    Gain,
    GainByAttack,
    HistoricalEvent,
    InForce,
    Level,
    Lose,
    Once,
    Pay,
    PopulationCost,
    Produce,
    Score,
    ScorePer,
    Stability,
    Strength,
    Yield,
)

DATA_PACKAGE: Final = "engine.nations.data"
AGES: Final = (1, 2, 3, 4)
LANGUAGES: Final = ("en", "pt-BR", "de")


@dataclass(frozen=True, slots=True, eq=False)
class Ruleset:
    """One edition's components and rules table (read-only; compared by identity)."""

    cards: Mapping[str, Card]  # every progress card and side A's printed cards
    age_cards: Mapping[int, tuple[str, ...]]  # each age's progress cards, in data order
    events: Mapping[str, EventCard]
    age_events: Mapping[int, tuple[str, ...]]
    levels: Mapping[Difficulty, Level]
    default_level: Difficulty
    starting_cards: tuple[str, ...]
    slots: int
    colony_slots: int
    wonder_slots: int
    idle_workers: int
    population_track: tuple[tuple[PopulationCost, int], ...]
    rounds: int
    round_ages: tuple[int, ...]
    end_of_age_rounds: frozenset[int]
    player_counts: tuple[int, ...]
    rows: int
    columns: Mapping[int, int]
    architects_per_extra_player: int
    book_token: int
    revolt_books_per_point: int
    revolt_vp: int
    shortage_books_per_unit: int
    shortage_vp_per_resource: int
    shortage_vp_cap: int
    war_defeat_vp: int
    resources_per_vp: int
    texts: Mapping[str, JSONObject]  # language -> translations document
    documents: JSONObject  # the data as written, for clients (metadata)

    def deck(self, age: int, players: int) -> tuple[str, ...]:
        """The progress cards of `age` in play at this player count (NR38)."""
        cards = self.cards
        return tuple(c for c in self.age_cards[age] if cards[c].min_players <= players)

    def age_of(self, round_number: int) -> int:
        return self.round_ages[round_number - 1]


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


def _card(value: JSON) -> Card:
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


def _event_card(value: JSON) -> EventCard:
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


def _level(value: JSON) -> Level:
    raw = as_object(value, "difficulty level")
    lid = as_choice(raw["id"], DIFFICULTIES, "difficulty id")
    start, bonus = as_object(raw["start"], lid), as_object(raw["bonus"], lid)

    def goods(table: JSONObject) -> tuple[int, int, int]:
        g, s, f = (as_int(table[k], f"{lid} {k}") for k in GOODS)
        return g, s, f

    return Level(lid, goods(start), goods(bonus), as_str(raw["provenance"], f"{lid} provenance"))


def _value(doc: JSONObject, key: str) -> JSON:
    return as_object(doc[key], key)["value"]


def ruleset_from_data(documents: Mapping[str, JSONObject]) -> Ruleset:
    """A Ruleset from the documents of engine/nations/data, by name ("rules", "board",
    "difficulties", "age1".."age4", "i18n/en", "i18n/pt-BR", "i18n/de")."""
    rules, board = documents["rules"], documents["board"]
    start = tuple(_card(c) for c in as_list(board["starting_cards"], "starting cards"))
    ages = {a: as_object(documents[f"age{a}"], f"age{a}") for a in AGES}
    progress = {a: tuple(_card(c) for c in as_list(ages[a]["progress"], f"age{a}")) for a in AGES}
    event_cards = {a: tuple(_event_card(e) for e in as_list(ages[a]["events"], "ev")) for a in AGES}
    cards = {c.id: c for c in start} | {c.id: c for a in AGES for c in progress[a]}
    difficulties = documents["difficulties"]
    levels = {lv.id: lv for lv in map(_level, as_list(difficulties["levels"], "levels"))}
    track = tuple(
        (
            as_choice(t["cost"], POPULATION_COSTS, "population cost"),
            as_int(t["amount"], "population amount"),
        )
        for t in (as_object(x, "space") for x in as_list(board["population_track"], "track"))
    )
    columns = as_object(_value(rules, "columns"), "columns")

    def rule(key: str) -> int:
        return as_int(_value(rules, key), key)

    return Ruleset(
        cards=cards,
        age_cards={a: tuple(c.id for c in progress[a]) for a in AGES},
        events={e.id: e for a in AGES for e in event_cards[a]},
        age_events={a: tuple(e.id for e in event_cards[a]) for a in AGES},
        levels=levels,
        default_level=as_choice(difficulties["default"], DIFFICULTIES, "default level"),
        starting_cards=tuple(c.id for c in start),
        slots=as_int(_value(board, "slots"), "slots"),
        colony_slots=as_int(_value(board, "colony_slots"), "colony slots"),
        wonder_slots=as_int(_value(board, "completed_wonder_slots"), "wonder slots"),
        idle_workers=as_int(_value(board, "idle_workers"), "idle workers"),
        population_track=track,
        rounds=rule("rounds"),
        round_ages=tuple(as_int(a, "age") for a in as_list(_value(rules, "round_ages"), "ages")),
        end_of_age_rounds=frozenset(
            as_int(r, "round") for r in as_list(_value(rules, "end_of_age_rounds"), "rounds")
        ),
        player_counts=tuple(
            as_int(n, "count") for n in as_list(_value(rules, "player_counts"), "counts")
        ),
        rows=rule("rows"),
        columns={int(k): as_int(v, "columns") for k, v in columns.items()},
        architects_per_extra_player=rule("architects_per_extra_player"),
        book_token=rule("book_token"),
        revolt_books_per_point=rule("revolt_books_per_point"),
        revolt_vp=rule("revolt_vp"),
        shortage_books_per_unit=rule("shortage_books_per_unit"),
        shortage_vp_per_resource=rule("shortage_vp_per_resource"),
        shortage_vp_cap=rule("shortage_vp_cap"),
        war_defeat_vp=rule("war_defeat_vp"),
        resources_per_vp=rule("resources_per_vp"),
        texts={lang: documents[f"i18n/{lang}"] for lang in LANGUAGES},
        documents=cast(JSONObject, dict(documents)),
    )


def read_data(name: str) -> JSONObject:
    """One of the package's data documents by name (e.g. "rules", "age1", "i18n/de")."""
    path = resources.files(DATA_PACKAGE)
    for part in f"{name}.json".split("/"):
        path = path.joinpath(part)
    return as_object(cast(JSON, json.loads(path.read_text(encoding="utf-8"))), name)


DOCUMENTS: Final = (
    "rules",
    "board",
    "difficulties",
    *(f"age{a}" for a in AGES),
    *(f"i18n/{lang}" for lang in LANGUAGES),
)


def load_ruleset() -> Ruleset:
    """The reconstructed edition, from engine/nations/data."""
    return ruleset_from_data({name: read_data(name) for name in DOCUMENTS})
