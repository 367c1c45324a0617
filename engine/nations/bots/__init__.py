"""Nations' computer players. Each is handed only its seat's observation (`observation_for`)
and its legal actions, never the true state, and picks one of those actions. The search bot looks
one decision further than the heuristic."""

from __future__ import annotations

from .heuristic import HeuristicBot
from .random_bot import RandomBot
from .search import SearchBot

__all__ = ["HeuristicBot", "RandomBot", "SearchBot"]
