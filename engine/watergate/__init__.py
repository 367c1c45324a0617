"""Watergate (the Editor against the Nixon Administration) as a game of the platform.

`GAME` is what the registry holds. The other names are Watergate's own rules surface, for its
tests and bots; the platform reaches the game only through `GAME`'s protocol methods.
"""

from __future__ import annotations

from ..core.game import Step
from .catalog import CARDS, COLORS, PEOPLE, ROLES, SPACES, Role, other
from .flow import (
    apply,
    awaiting,
    current_role,
    legal_actions,
    new_match,
    replay,
    replay_events,
    start,
)
from .game import GAME, WatergateGame
from .state import RULES_VERSION, Action, Event, MatchState
from .views import admin_view, events_for, open_view, view_for

__all__ = [
    "CARDS",
    "COLORS",
    "GAME",
    "PEOPLE",
    "ROLES",
    "RULES_VERSION",
    "SPACES",
    "Action",
    "Event",
    "MatchState",
    "Role",
    "Step",
    "WatergateGame",
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
