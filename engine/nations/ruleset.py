"""The Ruleset: Nations' components (cards, event cards, side A, difficulty levels, the rules
table and the translations), read from data and passed in; nothing reads a component at import.

`load_ruleset()` reads engine/nations/data; `ruleset_from_data` builds one from the same documents
given as plain dicts, so a printed card list could replace the reconstruction without code.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from importlib import resources
from typing import Final, cast

from ..core.game import JSON, JSONObject
from ..core.jsondata import as_choice, as_int, as_list, as_object, as_str
from .catalog import (
    DIFFICULTIES,
    POPULATION_COSTS,
    Card,
    Difficulty,
    EventCard,
    Level,
    PopulationCost,
)
from .parse import card, event_card, level

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
    starting_workers: Mapping[str, int]  # side A's printed cards' workers at set-up (NR41)
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
    row_costs: tuple[int, ...]  # gold to buy a card, by row
    rows_removed: int  # maintenance removes the first rows; the rest slide to the top
    columns: Mapping[int, int]
    setup_architects: Mapping[int, int]  # by player count (NR41)
    round_architects_added: Mapping[int, int]  # NR5: added to the event card's number
    event_winners: Mapping[int, int]  # places a positive event reaches, by player count (NR42)
    event_losers: Mapping[int, int]  # places from the bottom a negative event reaches (NR42)
    age_vp_per_nation_behind: int
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
    version: str = ""  # the rules version this edition plays (editions.json)

    def deck(self, age: int, players: int) -> tuple[str, ...]:
        """The progress cards of `age` in play at this player count (NR38)."""
        cards = self.cards
        return tuple(c for c in self.age_cards[age] if cards[c].min_players <= players)

    def age_of(self, round_number: int) -> int:
        return self.round_ages[round_number - 1]


def _value(doc: JSONObject, key: str) -> JSON:
    return as_object(doc[key], key)["value"]


def ruleset_from_data(documents: Mapping[str, JSONObject]) -> Ruleset:
    """A Ruleset from the documents of engine/nations/data, by name ("rules", "board",
    "difficulties", "age1".."age4", "i18n/en", "i18n/pt-BR", "i18n/de")."""
    rules, board = documents["rules"], documents["board"]
    start = tuple(card(c) for c in as_list(board["starting_cards"], "starting cards"))
    ages = {a: as_object(documents[f"age{a}"], f"age{a}") for a in AGES}
    progress = {a: tuple(card(c) for c in as_list(ages[a]["progress"], f"age{a}")) for a in AGES}
    event_cards = {a: tuple(event_card(e) for e in as_list(ages[a]["events"], "ev")) for a in AGES}
    cards = {c.id: c for c in start} | {c.id: c for a in AGES for c in progress[a]}
    difficulties = documents["difficulties"]
    levels = {lv.id: lv for lv in map(level, as_list(difficulties["levels"], "levels"))}
    track = tuple(
        (
            as_choice(t["cost"], POPULATION_COSTS, "population cost"),
            as_int(t["amount"], "population amount"),
        )
        for t in (as_object(x, "space") for x in as_list(board["population_track"], "track"))
    )

    def rule(key: str) -> int:
        return as_int(_value(rules, key), key)

    def by_count(doc: JSONObject, key: str) -> dict[int, int]:
        return {int(k): as_int(v, key) for k, v in as_object(_value(doc, key), key).items()}

    row_costs = tuple(as_int(c, "row cost") for c in as_list(_value(rules, "row_costs"), "costs"))
    workers = as_object(_value(board, "starting_workers"), "starting workers")
    if len(row_costs) != rule("rows"):
        raise ValueError(f"one cost per row, got {row_costs}")

    return Ruleset(
        cards=cards,
        age_cards={a: tuple(c.id for c in progress[a]) for a in AGES},
        events={e.id: e for a in AGES for e in event_cards[a]},
        age_events={a: tuple(e.id for e in event_cards[a]) for a in AGES},
        levels=levels,
        default_level=as_choice(difficulties["default"], DIFFICULTIES, "default level"),
        starting_cards=tuple(c.id for c in start),
        starting_workers={c.id: as_int(workers[c.id], c.id) for c in start},
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
        row_costs=row_costs,
        rows_removed=rule("rows_removed"),
        columns=by_count(rules, "columns"),
        setup_architects=by_count(rules, "setup_architects"),
        round_architects_added=by_count(rules, "round_architects_added"),
        event_winners=by_count(rules, "event_winners"),
        event_losers=by_count(rules, "event_losers"),
        age_vp_per_nation_behind=rule("age_vp_per_nation_behind"),
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


def _with_values(doc: JSONObject, values: JSONObject) -> JSONObject:
    """`doc` with each named entry put back: an entry with a value and its provenance gets its
    value back (its provenance kept); any other (the population track, a list of spaces each
    with its own provenance) is put back whole."""
    changed = dict(doc)
    for key, value in values.items():
        entry = doc[key]
        changed[key] = {**entry, "value": value} if isinstance(entry, dict) else value
    return changed


def edition_documents(version: str) -> dict[str, JSONObject]:
    """The data documents of a rules version: the current ones, with an earlier version's
    entries put back as editions.json records them (ValueError for an unknown version)."""
    documents = {name: read_data(name) for name in DOCUMENTS}
    editions = read_data("editions")
    if version == as_str(_value(editions, "current"), "current version"):
        return documents
    versions = as_object(editions["versions"], "versions")
    if version not in versions:
        raise ValueError(f"Nations rules version {version!r} is not known")
    edition = as_object(versions[version], version)
    documents["rules"] = _with_values(documents["rules"], as_object(edition["rules"], "rules"))
    documents["board"] = _with_values(documents["board"], as_object(edition["board"], "board"))
    gone = {as_str(c, "card") for c in as_list(edition["without_cards"], "without cards")}
    for age in AGES:
        doc = documents[f"age{age}"]
        progress = as_list(doc["progress"], "progress")
        kept: list[JSON] = [c for c in progress if as_object(c, "card")["id"] not in gone]
        documents[f"age{age}"] = {**doc, "progress": kept}
    return documents


def rules_versions() -> tuple[str, ...]:
    """Every rules version a Nations match may have been dealt with, oldest first."""
    editions = read_data("editions")
    current = as_str(_value(editions, "current"), "current version")
    return (*sorted(as_object(editions["versions"], "versions")), current)


def load_ruleset(version: str | None = None) -> Ruleset:
    """A rules version's edition (the current one by default), from engine/nations/data."""
    chosen = version or rules_versions()[-1]
    return replace(ruleset_from_data(edition_documents(chosen)), version=chosen)
