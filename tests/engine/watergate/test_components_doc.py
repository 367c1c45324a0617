"""The components the engine plays with (engine/watergate/data) are exactly the canonical table in
docs/components.md: every card, token, evidence space and colour slip, informant space, thread
and momentum-card space, with its provenance. A change to either alone fails here."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from engine.watergate.effects import OPS
from engine.watergate.ruleset import read_data

DOC = Path(__file__).resolve().parents[3] / "docs" / "components.md"
Row = tuple[str, ...]
# The op fields in the order the table writes them (`up_to` last, as a bare word: R28).
FIELDS = ("token", "where", "to", "face", "person", "filter", "rule", "steps", "count", "color")
FIELDS += ("toward",)


def tables(text: str) -> dict[str, list[Row]]:
    """Every table of a markdown text by the heading above it, as rows of stripped cells."""
    out: dict[str, list[Row]] = {}
    heading = ""
    for line in text.splitlines():
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        elif line.startswith("|") and not line.startswith("|---"):
            row = tuple(cell.strip() for cell in line.strip().strip("|").split("|"))
            out.setdefault(heading, []).append(row)
    return {h: rows[1:] for h, rows in out.items()}  # the header row is not data


def bullets(text: str) -> dict[str, str]:
    """The "- `key`: text" lines of a markdown text."""
    return {
        line[3 : line.index("`", 3)]: line[line.index("`:", 3) + 2 :].strip()
        for line in text.splitlines()
        if line.startswith("- `") and "`:" in line
    }


def op_text(op: dict[str, Any]) -> str:
    unknown = set(op) - {"op", "up_to", *FIELDS}
    assert not unknown, f"the table has no notation for {unknown} (extend FIELDS and the doc)"
    args = [f"{k}={op[k]}" for k in FIELDS if k in op] + (["up_to"] if op.get("up_to") else [])
    return f"{op['op']}({', '.join(args)})" if args else op["op"]


def ops_text(ops: Iterable[dict[str, Any]]) -> str:
    return "; ".join(op_text(op) for op in ops) or "—"


def requires_text(reqs: Iterable[dict[str, Any]]) -> str:
    parts = []
    for req in reqs:
        args = ", ".join(f"{k}={v}" for k, v in req.items() if k != "req")
        parts.append(f"{req['req']}({args})" if args else req["req"])
    return "; ".join(parts) or "—"


def reaction_text(card: dict[str, Any]) -> str:
    reaction = card.get("reaction")
    return f"{', '.join(reaction['reacts_to'])} → {reaction['on_cancel']}" if reaction else "—"


def expected(docs: dict[str, Any]) -> dict[str, list[Row]]:
    """The tables docs/components.md must hold for these data documents."""
    cards, tokens = docs["cards"]["cards"], docs["tokens"]["tokens"]
    board, momentum = docs["board"], docs["momentum"]
    out: dict[str, list[Row]] = {}
    for faction, title in (("nixon", "Nixon Administration"), ("editor", "Editor")):
        own = [c for c in cards if c["faction"] == faction]
        out[f"{title}: the cards"] = [
            (c["id"], c["name"], c["kind"], str(c["value"]), c["color"], c["provenance"])
            for c in own
        ]
        out[f"{title}: the action parts"] = [
            (
                c["id"],
                requires_text(c["requires"]),
                ops_text(c["effects"]),
                reaction_text(c),
                c.get("disposal") or "—",
            )
            for c in own
        ]
    out["Evidence tokens"] = [
        (
            t["id"],
            "/".join(t["colors"]),
            "yes" if t["momentum_symbol"] else "no",
            *(("bag",) * 2 if t["in_bag"] else ("spare",) * 2),
        )
        for t in tokens
    ]
    out["The evidence board"] = [(board["center"], board["provenance"])]
    out["Evidence spaces"] = [(s["id"], s["color"]) for s in board["spaces"]]
    out["Informant spaces"] = [(p["space"], p["person"], p["name"]) for p in board["informants"]]
    ends: dict[str, set[str]] = {}
    for a, b in board["edges"]:
        ends.setdefault(a, set()).add(b)
        ends.setdefault(b, set()).add(a)
    out["Threads"] = sorted((node, " ".join(sorted(linked))) for node, linked in ends.items())
    out["Momentum cards"] = [(side, momentum[side]["provenance"]) for side in ("nixon", "editor")]
    out["Spaces and their instructions"] = [
        (side, str(space["space"]), ops_text(space["effects"]))
        for side in ("nixon", "editor")
        for space in momentum[side]["spaces"]
    ]
    out["Later wordings"] = [
        (card["id"], key, ops_text(later["effects"]), later["provenance"])
        for card in docs["cards"]["cards"]
        for key, later in sorted(card.get("editions", {}).items())
    ] + [
        (
            f"{side} momentum space {space['space']}",
            key,
            ops_text(later["effects"]),
            later["provenance"],
        )
        for side in ("nixon", "editor")
        for space in momentum[side]["spaces"]
        for key, later in sorted(space.get("editions", {}).items())
    ]
    counts = momentum["tokens"]
    out["Tokens of the track"] = [
        (kind, str(counts[kind]), counts["provenance"]) for kind in ("momentum", "initiative")
    ]
    return out


def written() -> dict[str, list[Row]]:
    """The doc's tables in the shape `expected` builds (threads compared as sets of ends)."""
    found = tables(DOC.read_text(encoding="utf-8"))
    found["Threads"] = sorted(
        (node, " ".join(sorted(linked.split()))) for node, linked in found["Threads"]
    )
    return found


def differences(docs: dict[str, Any]) -> list[str]:
    """Every row where the doc and these data documents disagree, named by its section."""
    doc, out = written(), []
    for section, rows in expected(docs).items():
        theirs = doc.get(section, [])
        out += [f"{section}: data has {row}" for row in rows if row not in theirs]
        out += [f"{section}: the doc has {row}" for row in theirs if row not in rows]
    return out


def documents() -> dict[str, Any]:
    return {
        name: copy.deepcopy(read_data(name)) for name in ("cards", "tokens", "board", "momentum")
    }


def test_the_data_is_the_canonical_table() -> None:
    assert differences(documents()) == []


def test_token_provenance_keys_name_the_datas_provenance() -> None:
    tokens = documents()["tokens"]["tokens"]
    keys = bullets(DOC.read_text(encoding="utf-8"))
    assert {("bag" if t["in_bag"] else "spare"): t["provenance"] for t in tokens} == {
        k: keys[k] for k in ("bag", "spare")
    }


def test_the_notation_table_names_every_operation_once() -> None:
    """The doc's legend lists exactly the ops engine/watergate/effects.py implements."""
    legend = tables(DOC.read_text(encoding="utf-8"))["How an action is written"]
    names = [row[0].strip("`").split("(")[0] for row in legend]
    assert sorted(names) == sorted(OPS)


def _card(docs: dict[str, Any], card_id: str) -> dict[str, Any]:
    return next(c for c in docs["cards"]["cards"] if c["id"] == card_id)


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ("E09 value", "E09"),
        ("O14-O1 thread", "O1"),  # the rows of O1 and of O14
        ("O7 colour slip", "O7"),
        ("T19 symbol", "T19"),
        ("N02 up to", "N02"),
        ("Editor momentum space 2", "editor"),
    ],
)
def test_a_change_to_one_component_alone_is_caught(change: str, named: str) -> None:
    """The comparison can fail: each single change of the data is reported, by name."""
    docs = documents()
    if change == "E09 value":
        _card(docs, "E09")["value"] = 4
    elif change == "O14-O1 thread":
        edges = docs["board"]["edges"]
        docs["board"]["edges"] = [e for e in edges if sorted(e) != ["O1", "O14"]]
        assert len(docs["board"]["edges"]) == len(edges) - 1
    elif change == "O7 colour slip":
        next(s for s in docs["board"]["spaces"] if s["id"] == "O7")["color"] = "green"
    elif change == "T19 symbol":
        next(t for t in docs["tokens"]["tokens"] if t["id"] == "T19")["momentum_symbol"] = False
    elif change == "N02 up to":
        del _card(docs, "N02")["effects"][0]["up_to"]
    else:
        docs["momentum"]["editor"]["spaces"][1]["effects"] = []
    found = differences(docs)
    assert found and all(named in line for line in found), found
