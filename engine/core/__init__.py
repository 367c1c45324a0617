"""What every game shares: the Game protocol, seats, steps and outcomes, and the error tree."""

from __future__ import annotations

from .errors import EngineError, IllegalAction, MalformedAction, MatchOver, NotYourDecision
from .game import JSON, Bot, Game, JSONObject, Outcome, Seat, Step, Viewer, replay

__all__ = [
    "JSON",
    "Bot",
    "EngineError",
    "Game",
    "IllegalAction",
    "JSONObject",
    "MalformedAction",
    "MatchOver",
    "NotYourDecision",
    "Outcome",
    "Seat",
    "Step",
    "Viewer",
    "replay",
]
