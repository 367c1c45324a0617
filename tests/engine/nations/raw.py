"""The data files read as plain JSON, for tests that recompute the rules by hand from what the
files say (not from the engine's compiled tables)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[3] / "engine" / "nations" / "data"
ORDER = ("gold", "stone", "food", "books")


def _read(name: str) -> Any:
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


RAW: dict[str, Any] = {c["id"]: c for c in _read("board")["starting_cards"]}
EVENTS: dict[str, Any] = {}
for _age in (1, 2, 3, 4):
    RAW |= {c["id"]: c for c in _read(f"age{_age}")["progress"]}
    EVENTS |= {e["id"]: e for e in _read(f"age{_age}")["events"]}
TRACK: list[Any] = _read("board")["population_track"]


def in_force_total(card: str, key: str, field: str, resource: str | None = None) -> int:
    """The sum of one in-force operation kind of a card as written (per worker or lasting)."""
    raw = RAW[card]
    ops = raw.get("per_worker", []) + raw.get("lasting", [])
    return sum(
        op["amount"]
        for op in ops
        if op["op"] == key and (resource is None or op.get(field) == resource)
    )


def final_score(n: Any) -> int:
    """The seed's final score of a nation, recomputed from the data files only."""
    deployed = [(s.card, s.workers) for s in n.slots]
    lasting = [*n.colonies, *n.wonders, *([n.advisor] if n.advisor else [])]
    strength = sum(in_force_total(c, "strength", "") * w for c, w in deployed) + sum(
        in_force_total(c, "strength", "") for c in lasting
    )
    stability = sum(in_force_total(c, "stability", "") * w for c, w in deployed) + sum(
        in_force_total(c, "stability", "") for c in lasting
    )
    stability -= sum(t["amount"] for t in TRACK[: n.grown] if t["cost"] == "stability")
    counts = {
        "colony": len(n.colonies),
        "wonder": len(n.wonders),
        "building": sum(1 for c, _ in deployed if RAW[c]["type"] == "building"),
        "military": sum(1 for c, _ in deployed if RAW[c]["type"] == "military"),
    }
    owned = 0
    for card in [*n.colonies, *n.wonders]:
        for op in RAW[card].get("lasting", []):
            if op["op"] == "score":
                owned += op["amount"]
            elif op["op"] == "score_per":
                owned += op["amount"] * counts[op["what"]]
    on_cards = sum(in_force_total(c, "score", "") * w for c, w in deployed)
    total = n.gold + n.food + n.stone + n.books + strength + stability
    return int(n.vp + owned + on_cards + max(0, total // 10))
