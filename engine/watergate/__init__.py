"""Watergate (the Editor against the Nixon Administration) as a game of the platform.

`GAME` is what the registry holds. The other names are Watergate's own rules surface, for its
tests and bots; the platform reaches the game only through `GAME`'s protocol methods.
"""

from __future__ import annotations

from ..core.game import Step
from .catalog import COLORS, ROLES, Role, other
from .events import Event
from .flow import apply, awaiting, current_role
from .game import GAME, WatergateGame
from .ruleset import Ruleset, load_ruleset, ruleset_from_data
from .standard import (
    CARDS,
    PEOPLE,
    RULESET,
    SPACES,
    TOKENS,
    Action,
    legal_actions,
    new_match,
    replay,
    replay_events,
    start,
)
from .state import MatchState
from .versions import RULES_VERSION
from .views import admin_view, events_for, open_view, view_for

__all__ = [
    "CARDS",
    "COLORS",
    "GAME",
    "PEOPLE",
    "ROLES",
    "RULESET",
    "RULES_VERSION",
    "SPACES",
    "TOKENS",
    "Action",
    "Event",
    "MatchState",
    "Role",
    "Ruleset",
    "Step",
    "WatergateGame",
    "admin_view",
    "apply",
    "awaiting",
    "current_role",
    "events_for",
    "legal_actions",
    "load_ruleset",
    "new_match",
    "open_view",
    "other",
    "replay",
    "replay_events",
    "ruleset_from_data",
    "start",
    "view_for",
]
