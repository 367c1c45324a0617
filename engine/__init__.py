"""The platform's rules engines: pure, deterministic, seeded; games are reached by id through the
registry and driven only through the Game protocol of `engine.core`."""

from __future__ import annotations

from .core import (
    JSON,
    Bot,
    EngineError,
    Game,
    IllegalAction,
    JSONObject,
    MalformedAction,
    MatchOver,
    NotYourDecision,
    Outcome,
    Seat,
    Step,
    Viewer,
    replay,
)
from .registry import DEFAULT_GAME, AnyGame, game_ids, get_game

__all__ = [
    "DEFAULT_GAME",
    "JSON",
    "AnyGame",
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
    "game_ids",
    "get_game",
    "replay",
]
