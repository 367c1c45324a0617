"""Computer opponents. Each sees only what its seat sees: its view and its legal actions."""

from __future__ import annotations

from .random_bot import RandomBot

__all__ = ["RandomBot"]
