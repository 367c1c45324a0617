"""Stored matches replay under the rules they were played by: matches recorded under rules version
2 (before R28–R34 changed the rules) rebuild to exactly the final state and log they had then, and
each version plays by its own readings (engine/watergate/versions.py).

The golden (golden/rules_v2_matches.json) was written once by the engine of that time and is never
regenerated: it holds what the database holds (seed, rules version, the ordered actions as JSON)
and what came of it (the whole state as `describe` writes it, and a digest of the full log).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import fields
from pathlib import Path
from typing import Any, cast

import pytest

from engine.core.errors import EngineError
from engine.core.game import replay
from engine.watergate import GAME, RULES_VERSION
from engine.watergate.serialize import dumps, state_from_json
from engine.watergate.state import JSON as StateJSON
from engine.watergate.versions import AUDITED_READINGS, FIRST_READINGS, VERSIONS, Features
from tests.engine.watergate.builders import act, position

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


def test_the_stored_actions_under_todays_rules_play_differently() -> None:
    """The golden pins something: read as rules version 3 (same generator, R28–R34), at least one
    stored match no longer replays to its recorded end (an action is refused or the end differs)."""
    diverged = 0
    for match in STORED:
        actions = [(seat, action) for seat, action in match["actions"]]
        try:
            final = replay(GAME, match["seed"], actions, "3")
        except EngineError:
            diverged += 1
            continue
        diverged += GAME.describe(final).splitlines() != match["final"]["describe"]
    assert diverged > 0


def test_versions_say_which_readings_they_play_by() -> None:
    """Versions 1 and 2 keep the first edition's readings, 3 plays R28–R34, 4 also the later
    wording of the momentum card (R35), 5 three weaker Editor cards as well; new matches are 5."""
    assert GAME.rules_version == RULES_VERSION == "5"
    assert {v: (r.generator, r.features, r.data) for v, r in VERSIONS.items()} == {
        "1": ("splitmix64", FIRST_READINGS, ""),
        "2": ("sha256-ctr", FIRST_READINGS, ""),
        "3": ("sha256-ctr", AUDITED_READINGS, ""),
        "4": ("sha256-ctr", AUDITED_READINGS, "4"),
        "5": ("sha256-ctr", AUDITED_READINGS, "5"),
    }
    assert all(vars_of(AUDITED_READINGS)) and not any(vars_of(FIRST_READINGS))
    for version in VERSIONS:
        state = GAME.start(5, version).state
        assert state.rules is GAME.edition(version)  # one Ruleset per version, shared
        assert state.rules.version.id == version
        back = GAME.state_from_json(GAME.state_to_json(state))
        assert back == state and back.rules is state.rules
    with pytest.raises(ValueError):
        GAME.start(5, "6")  # a version never made


def test_a_state_keeps_its_rules_version_in_equality_and_json() -> None:
    """Two states alike but for their rules version are not equal, and JSON cannot swap them."""
    old, new = GAME.start(5, "2").state, GAME.start(5, "3").state
    assert GAME.describe(old) == GAME.describe(new) and old != new
    data = GAME.state_to_json(old)
    assert data["rules_version"] == "2"
    with pytest.raises(ValueError):
        state_from_json(cast(dict[str, StateJSON], data), GAME.edition("3"))


def vars_of(features: Features) -> list[bool]:
    return [getattr(features, f.name) for f in fields(features)]


def test_version_5_keeps_edition_4s_wording_of_what_it_does_not_reword() -> None:
    """An edition lists only what it changes (engine/watergate/ruleset.py `as_of`): version 5
    rewords Deep Throat, John Dean testifies and Subpoena for the tapes, and plays "I am not a
    crook", Bob Haldeman and the Editor's momentum space 2 as version 4 does."""
    n13 = {"type": "play_action", "card": "N13"}
    moved = {}
    for version in ("3", "4", "5"):
        s = position(turn="nixon", nixon_hand=["N13", "N01"], rules_version=version)
        s = act(s, "nixon", n13)[0]
        moved[version] = -s.track_momentum
    assert moved == {"3": 3, "4": 4, "5": 4}
    five, four = GAME.edition("5"), GAME.edition("4")
    assert five.editor_momentum_effects == four.editor_momentum_effects
    assert five.effect_sources["N04"] == four.effect_sources["N04"]
    changed = {c for c in five.effect_sources if five.effect_sources[c] != four.effect_sources[c]}
    assert changed == {"E07", "E12", "E18"}
