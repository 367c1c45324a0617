"""Errors shared by every game: each rejection has a stable code and a message safe to show
the acting seat.

    EngineError                 base
    ├── MatchOver               code "match_over"
    ├── NotYourDecision         code "not_your_decision"
    ├── MalformedAction         code "malformed_action"   (cannot be parsed as any action)
    └── IllegalAction           code "illegal_action"     (well-formed, not legal now)

Messages are built only from what the acting seat can see (product.md, hidden information).
"""

from __future__ import annotations

from typing import ClassVar


class EngineError(Exception):
    """Base of all rejections raised by `apply`."""

    code: ClassVar[str] = "engine_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class MatchOver(EngineError):
    """The match has a winner; nothing more can be played."""

    code = "match_over"


class NotYourDecision(EngineError):
    """The other seat (or nobody) must decide now."""

    code = "not_your_decision"


class MalformedAction(EngineError):
    """Not any action the engine knows (wrong shape, unknown type, wrong field types)."""

    code = "malformed_action"


class IllegalAction(EngineError):
    """A well-formed action that is not among the seat's legal actions now."""

    code = "illegal_action"
