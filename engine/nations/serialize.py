"""Canonical JSON for Nations states (every record {"type": Name, ...fields}) and back:
`state_from_json(state_to_json(s))` describes the same state (the round-trip tests check it)."""

from __future__ import annotations

from typing import Final

from ..core.game import JSONObject
from ..core.records import decode, encode
from .ruleset import Ruleset
from .state import (
    RULES_VERSION,
    STATE_FIELDS,
    ActD,
    GoldenD,
    GrowthD,
    MatchState,
    Nation,
    Slot,
    War,
)

_RECORDS: Final[dict[str, type]] = {
    cls.__name__: cls for cls in (Slot, Nation, War, GrowthD, ActD, GoldenD)
}


def state_to_json(s: MatchState) -> JSONObject:
    """The whole state as plain JSON (the admin's: it holds the decks' order), with the rules
    version whose edition it is played with (state_from_json's caller picks that edition)."""
    return {
        **{name: encode(getattr(s, name)) for name in STATE_FIELDS},
        "rules_version": s.rules.version or RULES_VERSION,
    }


def state_from_json(data: JSONObject, rules: Ruleset) -> MatchState:
    """The state `state_to_json` wrote, played with `rules` (components are not in the JSON)."""
    s = MatchState.__new__(MatchState)
    s.rules = rules
    for name in STATE_FIELDS:
        setattr(s, name, decode(data[name], _RECORDS, tuple))
    s._legal = None
    if not isinstance(s.nations, tuple) or len(s.nations) != s.players:
        raise ValueError("a Nations state has one nation per player")
    return s
