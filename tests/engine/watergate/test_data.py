"""The component data (engine/watergate/data, from game-data.md) holds what the rules need: the 40
cards, the 36 evidence tokens, the evidence board and the momentum cards, each with its provenance,
in the effect vocabulary that engine/watergate/effects.py implements."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.watergate.catalog import COLORS, Op, Role
from engine.watergate.effects import OPS
from engine.watergate.standard import RULESET

BAG_TOKEN_IDS = RULESET.bag_token_ids
CARD_IDS = RULESET.card_ids
CARDS = RULESET.cards
CENTER = RULESET.center
EFFECT_SOURCES = RULESET.effect_sources
MOMENTUM_SPACES = RULESET.momentum_sizes["nixon"]
MOMENTUM_TOKENS = RULESET.momentum_tokens
PEOPLE = RULESET.people
REACTION_CARDS = RULESET.reaction_cards
SPACES = RULESET.spaces
SPARE_TOKEN_IDS = RULESET.spare_token_ids
TOKENS = RULESET.tokens

DATA = Path(__file__).resolve().parents[3] / "engine" / "watergate" / "data"
# The requirement kinds engine/effects.py `requirements_met` checks (R16, R21, R22).
REQUIREMENT_KINDS = {"not_first_turn", "face_up_pictures", "removed_own_replayable"}
# What an announcement is, for reaction cards to answer (R17).
ANNOUNCEMENTS = {"event_action", "conspirator_action", "journalist_action", "value_evidence_move"}
RESTRICTIONS = {"editor_events_value_only", "editor_no_ask"}  # the rules plays.py enforces


def raw(name: str) -> Any:
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


# ---- cards ---------------------------------------------------------------------------------------


def test_forty_cards_twenty_per_faction_with_stable_ids() -> None:
    cards = raw("cards")["cards"]
    assert len(cards) == len(CARDS) == 40
    factions: tuple[tuple[Role, str], ...] = (("nixon", "N"), ("editor", "E"))
    for role, letter in factions:
        ids = [f"{letter}{i:02d}" for i in range(1, 21)]
        assert [c["id"] for c in cards if c["faction"] == role] == ids
        assert CARD_IDS[role] == tuple(ids)


def test_nixon_has_six_conspirators_and_the_editor_three_journalists() -> None:
    kinds = Counter((c.faction, c.kind) for c in CARDS.values())
    assert kinds == {
        ("nixon", "conspirator"): 6,
        ("nixon", "event"): 14,
        ("editor", "journalist"): 3,
        ("editor", "event"): 17,
    }


@pytest.mark.parametrize("card_id", sorted(CARDS))
def test_each_card_is_complete_and_cites_its_source(card_id: str) -> None:
    card = CARDS[card_id]
    assert card.name.strip()
    assert card.provenance.strip(), f"{card_id} has no provenance"
    assert type(card.value) is int and 1 <= card.value <= 4
    assert card.color in (*COLORS, "joker")
    assert card.disposal in ("", "gambit")


def test_the_reaction_cards_are_mitchell_bradlee_mass_demonstration_follow_the_money() -> None:
    """R17: John Mitchell; Ben Bradlee, Mass demonstration and "Follow the money!"."""
    reactions = {c.id for c in CARDS.values() if c.is_reaction}
    assert reactions == {"N06", "E03", "E04", "E05"}
    assert {c.id for role in ("editor", "nixon") for c in REACTION_CARDS[role]} == reactions
    for card_id in reactions:
        card = CARDS[card_id]
        assert set(card.reacts_to) <= ANNOUNCEMENTS
        assert card.on_cancel in ("discard", "remove", "follow_the_money")
        assert card.effects == (), "a reaction acts by cancelling, it has no action of its own"
    assert CARDS["N06"].reacts_to == ("event_action",)
    assert CARDS["E05"].reacts_to == ("value_evidence_move",)
    assert CARDS["E05"].on_cancel == "follow_the_money"
    assert [c.id for c in CARDS.values() if c.on_cancel == "" and c.is_reaction] == []


def test_only_gambit_has_a_disposal_alternative() -> None:
    """R20."""
    assert [c.id for c in CARDS.values() if c.disposal] == ["N07"]


# ---- effects -------------------------------------------------------------------------------------


def all_ops() -> list[tuple[str, Op]]:
    return [(source, op) for source, ops in EFFECT_SOURCES.items() for op in ops]


def test_every_effect_op_is_implemented_once_in_effects_py() -> None:
    used = {op["op"] for _, op in all_ops()}
    assert used <= set(OPS), used - set(OPS)
    # "move_to" is the rulebook's common instruction "move the token to that space": the
    # vocabulary needs it for a printed card list though no card of ours says it yet
    # (test_move_to.py plays it); any other op no card uses is dead code
    unused = set(OPS) - used - {"move_to"}
    assert unused == set(), f"implemented but no card or momentum space uses it: {unused}"


def test_every_effect_op_has_only_known_well_typed_fields() -> None:
    fields = set(Op.__annotations__)
    for source, op in all_ops():
        where = f"{source}: {op}"
        assert set(op) <= fields, where
        for key in ("steps", "count"):
            if key in op:
                assert type(op[key]) is int and op[key] >= 1, where
        if op["op"] in ("move", "move_all"):
            assert "steps" in op, where
        if op["op"] in ("move", "move_to"):
            assert op["token"] in ("initiative", "momentum", "evidence"), where
        if op["op"] == "move_to":
            assert type(op["space"]) is int and 1 <= op["space"] <= 5, where
        assert op.get("color", "blue") in COLORS, where
        assert op.get("toward", "opponent") == "opponent", where
        assert op.get("person", "any") in (*PEOPLE, "any"), where
        assert op.get("to", "up") in ("up", "down") and op.get("face", "up") in ("up", "down")
        if op["op"] == "restrict":
            assert op["rule"] in RESTRICTIONS, where


def test_every_requirement_kind_is_known() -> None:
    """R16: requirements are checked when a card is offered for its action."""
    for card in CARDS.values():
        for req in card.requires:
            assert req["req"] in REQUIREMENT_KINDS, card.id
            if req["req"] == "face_up_pictures":
                assert type(req["min"]) is int and req["min"] >= 1
                assert req.get("except", PEOPLE[0]) in PEOPLE


# ---- evidence tokens -----------------------------------------------------------------------------


def test_thirty_six_tokens_thirty_in_the_bag() -> None:
    """R2: 36 evidence tokens in the box; 30 start in the bag, T31–T36 are spares."""
    tokens = raw("tokens")["tokens"]
    assert [t["id"] for t in tokens] == [f"T{i:02d}" for i in range(1, 37)]
    assert len(TOKENS) == 36 and len(BAG_TOKEN_IDS) == 30
    spares = tuple(f"T{i}" for i in range(31, 37))
    assert spares == SPARE_TOKEN_IDS
    for t in TOKENS.values():
        assert 1 <= len(t.colors) <= 2 and len(set(t.colors)) == len(t.colors)
        assert set(t.colors) <= set(COLORS), t.id
        assert type(t.momentum_symbol) is bool
        assert t.provenance.strip(), f"{t.id} has no provenance"


def test_every_colour_is_in_the_bag() -> None:
    bag = Counter(c for tid in BAG_TOKEN_IDS for c in TOKENS[tid].colors)
    assert set(bag) == set(COLORS)
    assert any(TOKENS[t].momentum_symbol for t in BAG_TOKEN_IDS)


# ---- the evidence board --------------------------------------------------------------------------


def board_graph() -> dict[str, set[str]]:
    adj: dict[str, set[str]] = {}
    for a, b in raw("board")["edges"]:
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)
    return adj


def test_board_has_21_evidence_spaces_seven_of_each_colour_and_seven_informants() -> None:
    board = raw("board")
    assert board["provenance"].strip()
    assert len(SPACES) == 21 and len({s.id for s in SPACES}) == 21
    assert Counter(s.color for s in SPACES) == dict.fromkeys(COLORS, 7)
    informants = board["informants"]
    assert len(informants) == len(PEOPLE) == 7
    assert len({i["space"] for i in informants}) == len(set(PEOPLE)) == 7


def test_board_graph_is_connected_and_every_informant_reaches_the_centre() -> None:
    """R26: a connection runs from an informant's picture through evidence spaces to Nixon."""
    adj = board_graph()
    spaces = {s.id for s in SPACES}
    informant_spaces = {i["space"] for i in raw("board")["informants"]}
    assert set(adj) == spaces | informant_spaces | {CENTER}, "an edge names an unknown node"
    seen, todo = {CENTER}, [CENTER]
    while todo:
        for nxt in adj[todo.pop()] - seen:
            seen.add(nxt)
            todo.append(nxt)
    assert seen == set(adj), "the board graph is not connected"
    for start in informant_spaces:
        # only evidence spaces may lie between an informant and the centre
        reached, todo = set(), [n for n in adj[start] if n in spaces]
        while todo:
            node = todo.pop()
            if node not in reached:
                reached.add(node)
                todo += [n for n in adj[node] if n in spaces]
        assert any(CENTER in adj[n] for n in reached), f"{start} cannot reach {CENTER}"


# ---- momentum ------------------------------------------------------------------------------------


def test_momentum_data_has_nine_tokens_and_five_spaces_a_side() -> None:
    momentum = raw("momentum")
    assert momentum["tokens"]["momentum"] == MOMENTUM_TOKENS == 9
    assert momentum["tokens"]["initiative"] == 1
    assert MOMENTUM_SPACES == 5
    for side in ("editor", "nixon"):
        assert [s["space"] for s in momentum[side]["spaces"]] == [1, 2, 3, 4, 5]
        assert momentum[side]["provenance"].strip()
    assert all(s["effects"] == [] for s in momentum["nixon"]["spaces"])  # R27: the fifth wins
