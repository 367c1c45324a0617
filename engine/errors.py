"""Watergate's engine errors are the shared tree of `engine.core.errors` (kept importable here)."""

from __future__ import annotations

from .core.errors import EngineError, IllegalAction, MalformedAction, MatchOver, NotYourDecision

__all__ = ["EngineError", "IllegalAction", "MalformedAction", "MatchOver", "NotYourDecision"]
