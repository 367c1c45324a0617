"""The components are data passed in (a Ruleset), never import-time globals: a game built from
changed data plays by the changed data (a card's value or colour, an edge of the board, the
momentum supply), and the standard edition built from plain dicts equals the loaded one."""

from __future__ import annotations

import ast
import copy
from pathlib import Path

import pytest

from engine.core.game import JSONObject
from engine.watergate import WatergateGame
from engine.watergate.ruleset import Ruleset, load_ruleset, read_data, ruleset_from_data
from engine.watergate.standard import GAME
from tests.engine.watergate.builders import position

SEED = 7


def documents() -> dict[str, JSONObject]:
    """Fresh copies of the four data documents, free to change."""
    return {
        name: copy.deepcopy(read_data(name)) for name in ("cards", "tokens", "board", "momentum")
    }


def build(docs: dict[str, JSONObject]) -> Ruleset:
    return ruleset_from_data(docs["cards"], docs["tokens"], docs["board"], docs["momentum"])


def card_doc(docs: dict[str, JSONObject], card_id: str) -> JSONObject:
    cards = docs["cards"]["cards"]
    assert isinstance(cards, list)
    found = [c for c in cards if isinstance(c, dict) and c["id"] == card_id]
    assert len(found) == 1
    return found[0]


def first_editor_card() -> str:
    hand = GAME.view_for(GAME.start(SEED).state, "editor")["hands"]
    assert isinstance(hand, dict) and isinstance(hand["editor"], list)
    card = hand["editor"][0]
    assert isinstance(card, dict) and isinstance(card["id"], str)
    return card["id"]


def test_the_standard_edition_from_plain_dicts_plays_like_the_loaded_one() -> None:
    standard, rebuilt = load_ruleset(), build(documents())
    assert rebuilt.cards == standard.cards and rebuilt.tokens == standard.tokens
    assert rebuilt.space_neighbours == standard.space_neighbours
    assert rebuilt.effect_sources == standard.effect_sources
    game = WatergateGame(rebuilt)
    assert game.describe(game.start(SEED).state) == GAME.describe(GAME.start(SEED).state)
    assert game.metadata() == GAME.metadata()


def test_a_changed_card_value_moves_the_initiative_that_far() -> None:
    card = first_editor_card()
    docs = documents()
    old = card_doc(docs, card)["value"]
    new = 3 if old != 3 else 2
    card_doc(docs, card)["value"] = new
    for game, steps in ((GAME, old), (WatergateGame(build(docs)), new)):
        state = game.start(SEED).state
        action = {"type": "play_value", "card": card, "target": "initiative"}
        events = game.events_for(game.apply(state, "editor", action).events, None)
        moved = [e for e in events if e["type"] == "token_moved"]
        assert [(m["what"], m["to"]) for m in moved] == [("initiative", steps)]


def test_a_card_turned_joker_may_ask_for_every_colour() -> None:
    card = first_editor_card()
    docs = documents()
    card_doc(docs, card)["color"] = "joker"

    def asked(game: WatergateGame) -> list[object]:
        legal = [
            game.action_to_json(a) for a in game.legal_actions(game.start(SEED).state, "editor")
        ]
        return sorted(
            str(a["color"]) for a in legal if a["card"] == card and a.get("target") == "ask"
        )

    assert len(asked(GAME)) == 1  # R11: a coloured card asks for its own colour
    assert asked(WatergateGame(build(docs))) == ["blue", "green", "yellow"]
    assert WatergateGame(build(docs)).metadata()["cards"][card]["color"] == "joker"  # type: ignore[index]


def test_a_removed_edge_cuts_the_thread_to_nixon() -> None:
    docs = documents()
    edges = docs["board"]["edges"]
    assert isinstance(edges, list)
    docs["board"]["edges"] = [e for e in edges if e != ["N", "I1"]]
    cut = build(docs)
    s = position(board={"I1": ("T01", True)})
    assert GAME.view_for(s, None)["board"]["lit"] == ["I1"]  # type: ignore[index]
    s.rules = cut
    assert WatergateGame(cut).view_for(s, None)["board"]["lit"] == []  # type: ignore[index]
    assert ["N", "I1"] not in WatergateGame(cut).metadata()["edges"]  # type: ignore[operator]


def test_the_momentum_supply_comes_from_the_data() -> None:
    docs = documents()
    tokens = docs["momentum"]["tokens"]
    assert isinstance(tokens, dict) and isinstance(tokens["momentum"], int)
    standard = tokens["momentum"]
    tokens["momentum"] = standard + 4
    game = WatergateGame(build(docs))
    supply = game.view_for(game.start(SEED).state, None)["momentum"]["supply"]  # type: ignore[index]
    assert supply == standard + 4 - 1  # one momentum token is on the track from the start


def test_a_state_loaded_from_json_plays_with_the_loading_games_components() -> None:
    docs = documents()
    card = first_editor_card()
    card_doc(docs, card)["value"] = 5
    game = WatergateGame(build(docs))
    saved = GAME.state_to_json(GAME.start(SEED).state)  # the components are not in the JSON
    assert "rules" not in saved
    state = game.state_from_json(saved)
    action = {"type": "play_value", "card": card, "target": "initiative"}
    events = game.events_for(game.apply(state, "editor", action).events, None)
    assert {"type": "initiative_gained", "role": "editor"} in events  # 5 steps reach space 5 (R9)


RULES = Path(__file__).resolve().parents[3] / "engine" / "watergate"
# Only these modules may load components; every other module gets them from a state's Ruleset.
LOADERS = {"__init__.py", "game.py", "ruleset.py", "standard.py"}


@pytest.mark.parametrize(
    "path",
    sorted(p for p in RULES.rglob("*.py") if p.relative_to(RULES).as_posix() not in LOADERS),
    ids=lambda p: p.relative_to(RULES).as_posix(),
)
def test_rules_modules_load_no_components_at_import(path: Path) -> None:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            names += [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names += [a.name for a in node.names]
    loading = [
        n
        for n in names
        if n.split(".")[-1] in {"load_ruleset", "read_data", "GAME", "RULESET"}
        or n.startswith(("importlib", "standard", "game."))
    ]
    assert loading == []
