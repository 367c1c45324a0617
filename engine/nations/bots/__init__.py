"""Nations' computer players. Each is handed only its seat's observation (`observation_for`)
and its legal actions, never the true state, and picks one of those actions."""

from __future__ import annotations

from .random_bot import RandomBot

__all__ = ["RandomBot"]
