"""Watergate rules engine: pure, deterministic, seeded; the only place the rules live."""

from __future__ import annotations

from .catalog import CARDS, COLORS, PEOPLE, ROLES, SPACES, Role, other
from .errors import EngineError, IllegalAction, MalformedAction, MatchOver, NotYourDecision
from .flow import (
    Step,
    apply,
    awaiting,
    current_role,
    legal_actions,
    new_match,
    replay,
    replay_events,
    start,
)
from .state import RULES_VERSION, Action, Event, MatchState
from .views import admin_view, events_for, open_view, view_for

__all__ = [
    "CARDS",
    "COLORS",
    "PEOPLE",
    "ROLES",
    "RULES_VERSION",
    "SPACES",
    "Action",
    "EngineError",
    "Event",
    "IllegalAction",
    "MalformedAction",
    "MatchOver",
    "MatchState",
    "NotYourDecision",
    "Role",
    "Step",
    "admin_view",
    "apply",
    "awaiting",
    "current_role",
    "events_for",
    "legal_actions",
    "new_match",
    "open_view",
    "other",
    "replay",
    "replay_events",
    "start",
    "view_for",
]
