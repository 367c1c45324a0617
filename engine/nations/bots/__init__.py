"""Nations' computer players. Each is handed only its seat's observation (`observation_for`)
and its legal actions, never the true state, and picks one of those actions. A search bot is
still to come (a later session); the heuristic is the strongest for now."""

from __future__ import annotations

from .heuristic import HeuristicBot
from .random_bot import RandomBot

__all__ = ["HeuristicBot", "RandomBot"]
