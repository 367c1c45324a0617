"""Nations' data (engine/nations/data): per age 35 progress cards of the eight types (25 at every
player count, NR38) and five event cards, side A, the population track, the difficulty tables and
the rules table, each entry with its provenance, in the operation vocabulary (NR19), with names and
texts in en, pt-BR and de."""

from __future__ import annotations

import copy
import itertools
import json
import re
import string
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.nations.catalog import DIFFICULTIES, GOODS, MEASURES
from engine.nations.ruleset import AGES, DOCUMENTS, LANGUAGES, load_ruleset, ruleset_from_data

RULES = load_ruleset()
DATA = Path(__file__).resolve().parents[3] / "engine" / "nations" / "data"
# The types at every count (NR38: 30 an age), and the ones added from 3 and from 4 players.
BASE = {
    "building": 8,
    "military": 6,
    "colony": 2,
    "war": 2,
    "battle": 2,
    "wonder": 3,
    "advisor": 5,
    "golden_age": 2,
}
FROM_3 = {"building": 2, "military": 1, "wonder": 1, "advisor": 1, "golden_age": 1}
FROM_4 = {"building": 1, "military": 2, "colony": 1, "war": 1, "battle": 1}
OPS_WRITTEN = {
    "produce",
    "consume",
    "strength",
    "stability",
    "score",
    "score_per",
    "gain",
    "lose",
    "gain_by_attack",
    "choose",
    "pay",
}


def raw(name: str) -> Any:
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


def documents() -> dict[str, Any]:
    return {name: raw(name) for name in DOCUMENTS}


def ops_in(value: Any) -> list[str]:
    """Every "op" name anywhere inside a JSON value."""
    if isinstance(value, dict):
        found = [value["op"]] if "op" in value else []
        return found + [o for v in value.values() for o in ops_in(v)]
    if isinstance(value, list):
        return [o for v in value for o in ops_in(v)]
    return []


@pytest.mark.parametrize("age", AGES)
def test_nr38_each_age_has_42_progress_cards_of_the_eight_types(age: int) -> None:
    cards = [RULES.cards[c] for c in RULES.age_cards[age]]
    assert all(c.age == age for c in cards)
    by_count = {n: Counter(c.type for c in cards if c.min_players == n) for n in (2, 3, 4)}
    assert by_count == {2: Counter(BASE), 3: Counter(FROM_3), 4: Counter(FROM_4)}


@pytest.mark.parametrize("age", AGES)
def test_nr38_every_count_has_six_rows_of_cards_an_age(age: int) -> None:
    """Seed: maintenance fills every empty slot. An age's first round fills at most 3 rows and
    its second at most 3 again (every card bought in row 3 leaves a hole in row 1), so 6 rows'
    worth of cards never runs out, whatever is bought (NR22, NR38)."""
    for players in RULES.player_counts:
        assert len(RULES.deck(age, players)) >= 2 * RULES.rows * RULES.columns[players]


def test_nr4_progress_board_columns_by_player_count() -> None:
    assert RULES.columns == {2: 5, 3: 6, 4: 7, 5: 7}
    assert RULES.rows == 3


@pytest.mark.parametrize("age", AGES)
def test_each_age_has_four_to_six_event_cards_with_two_events(age: int) -> None:
    events = [RULES.events[e] for e in RULES.age_events[age]]
    assert 4 <= len(events) <= 6
    for e in events:
        assert e.age == age and len(e.events) == 2 and e.architects >= 1 and e.famine >= 0
        for ev in e.events:
            assert ev.measure in MEASURES and (ev.leader or ev.last)


def test_ids_are_unique_across_all_documents() -> None:
    ids = [c["id"] for c in raw("board")["starting_cards"]]
    for age in AGES:
        ids += [c["id"] for c in raw(f"age{age}")["progress"]]
        ids += [e["id"] for e in raw(f"age{age}")["events"]]
    assert len(ids) == len(set(ids)) == len(RULES.cards) + len(RULES.events)


def test_every_entry_has_a_provenance() -> None:
    entries: list[Any] = [*raw("board")["starting_cards"], *raw("board")["population_track"]]
    entries += list(raw("rules").values())
    entries += [raw("board")[k] for k in ("slots", "colony_slots", "completed_wonder_slots")]
    entries += raw("difficulties")["levels"]
    for age in AGES:
        entries += raw(f"age{age}")["progress"] + raw(f"age{age}")["events"]
    for entry in entries:
        assert re.match(r"^(seed|reconstructed|spec|NR\d+)\b", entry["provenance"]), entry


def test_every_card_is_named_after_history_of_its_age() -> None:
    for card in RULES.cards.values():
        assert card.history.strip(), card.id
    for event in RULES.events.values():
        assert event.history.strip(), event.id


def test_nr19_every_operation_written_is_in_the_vocabulary() -> None:
    used = set()
    for age in AGES:
        used |= set(ops_in(raw(f"age{age}")))
    used |= set(ops_in(raw("board")))
    assert used == OPS_WRITTEN


def test_nr7_side_a_has_a_food_building_a_stone_building_and_a_military_unit() -> None:
    start = [RULES.cards[c] for c in RULES.starting_cards]
    assert [c.type for c in start] == ["building", "building", "military"]
    assert start[0].per_worker.produce[2] > 0  # food
    assert start[1].per_worker.produce[1] > 0  # stone
    assert start[2].per_worker.strength > 0
    assert RULES.slots == 5 and RULES.colony_slots == 2 and RULES.wonder_slots == 5
    assert RULES.idle_workers == 3
    assert RULES.starting_workers == {"a_farm": 1, "a_quarry": 1, "a_warriors": 0}  # NR41


def test_the_population_track_costs_three_food_or_three_stability_a_space() -> None:
    assert len(RULES.population_track) == RULES.rounds
    assert {cost for cost, _ in RULES.population_track} == {"food", "stability"}
    assert all(amount == 3 for _, amount in RULES.population_track)


def test_nr6_harder_levels_get_less_and_prince_is_the_default() -> None:
    assert tuple(RULES.levels) == DIFFICULTIES and RULES.default_level == "prince"
    for easier, harder in itertools.pairwise(DIFFICULTIES):
        a, b = RULES.levels[easier], RULES.levels[harder]
        assert all(x >= y for x, y in zip(a.start + a.bonus, b.start + b.bonus, strict=True))
        assert sum(a.start + a.bonus) > sum(b.start + b.bonus)
    assert len(GOODS) == 3


def test_nr3_rounds_and_ages() -> None:
    assert RULES.rounds == 8 and RULES.round_ages == (1, 1, 2, 2, 3, 3, 4, 4)
    assert RULES.end_of_age_rounds == {2, 4, 6, 8}


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_name_and_text_exists_in_every_language(lang: str) -> None:
    texts, english = RULES.texts[lang], RULES.texts["en"]
    assert texts["language"] == lang
    assert set(texts["cards"]) == set(RULES.cards)  # type: ignore[arg-type]
    assert set(texts["events"]) == set(RULES.events)  # type: ignore[arg-type]
    for section in ("terms", "ages", "types", "difficulties", "measures", "ops"):
        table, reference = texts[section], english[section]
        assert isinstance(table, dict) and isinstance(reference, dict)
        assert set(table) == set(reference), section
        for key, value in table.items():
            assert isinstance(value, str) and value.strip(), (section, key)
            assert placeholders(value) == placeholders(str(reference[key])), (section, key)
    assert set(texts["ops"]) >= OPS_WRITTEN  # type: ignore[arg-type]


def test_pt_br_uses_the_seeds_portuguese_terms() -> None:
    terms = RULES.texts["pt-BR"]["terms"]
    assert isinstance(terms, dict)
    seed = {
        "food": "Comida",
        "stone": "Pedra",
        "gold": "Ouro",
        "books": "Livros",
        "stability": "Estabilidade",
        "strength": "Força Militar",
        "architects": "Arquitetos",
    }
    assert {k: terms[k] for k in seed} == seed


def test_nr39_deployments_and_sections_cost_at_least_one_stone() -> None:
    for card in RULES.cards.values():
        if card.takes_workers:
            assert card.deploy >= 1, card.id
        if card.type == "wonder":
            assert card.sections and min(card.sections) >= 1, card.id


@pytest.mark.parametrize(
    ("where", "change", "message"),
    [
        ("age1", lambda c: c.update(deploy=0), "at least 1 stone"),
        ("age1", lambda c: c.update(type="spaceship"), "type must be one of"),
        ("age1", lambda c: c["per_worker"].append({"op": "teleport"}), "not an in-force"),
        (
            "age1",
            lambda c: c["per_worker"].append({"op": "consume", "resource": "books", "amount": 1}),
            "must be one of",
        ),
        ("age1", lambda c: c.update(deploy=True), "must be an integer"),
    ],
)
def test_a_malformed_card_fails_at_load(where: str, change: Any, message: str) -> None:
    docs = copy.deepcopy(documents())
    change(docs[where]["progress"][0])  # i_nile_irrigation, a building
    with pytest.raises(ValueError, match=message):
        ruleset_from_data(docs)


def test_nr32_a_war_naming_two_resources_fails_at_load() -> None:
    docs = copy.deepcopy(documents())
    war = next(c for c in docs["age1"]["progress"] if c["type"] == "war")
    war["defeat"].append({"op": "lose", "resource": "food", "amount": 1})
    with pytest.raises(ValueError, match="one resource"):
        ruleset_from_data(docs)
