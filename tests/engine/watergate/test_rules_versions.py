"""Stored matches replay under the rules they were played by: matches recorded under rules version
2 (before R28–R34 changed the rules) rebuild to exactly the final state and log they had then.

The golden (golden/rules_v2_matches.json) was written once by the engine of that time and is never
regenerated: it holds what the database holds (seed, rules version, the ordered actions as JSON)
and what came of it (the whole state as `describe` writes it, and a digest of the full log).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from engine.core.game import replay
from engine.watergate import GAME
from engine.watergate.serialize import dumps

GOLDEN = Path(__file__).parent / "golden" / "rules_v2_matches.json"
STORED: list[dict[str, Any]] = json.loads(GOLDEN.read_text(encoding="utf-8"))["matches"]


def _log_digest(seed: int, version: str, actions: list[tuple[str, object]]) -> str:
    step = GAME.start(seed, version)
    state, events = step.state, list(step.events)
    for seat, action in actions:
        step = GAME.apply(state, seat, action)
        state = step.state
        events.extend(step.events)
    return hashlib.sha256(dumps(GAME.events_to_json(events)).encode()).hexdigest()


@pytest.mark.parametrize("match", STORED, ids=lambda m: f"seed{m['seed']}")
def test_a_match_stored_under_rules_version_2_replays_exactly(match: dict[str, Any]) -> None:
    seed, version = match["seed"], match["rules_version"]
    actions = [(seat, action) for seat, action in match["actions"]]
    final = replay(GAME, seed, actions, version)
    assert GAME.describe(final).splitlines() == match["final"]["describe"]
    outcome = GAME.outcome(final)
    assert outcome is not None
    assert (outcome.winners, outcome.reason) == (
        (match["final"]["winner"],),
        match["final"]["win_reason"],
    )
    assert _log_digest(seed, version, actions) == match["final"]["log_sha256"]
