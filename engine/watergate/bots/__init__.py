"""Computer opponents. Each is handed only its seat's observation (`engine.observation_for`) and
its legal actions — never the true state — and picks one of those actions."""

from __future__ import annotations

from typing import Protocol

from ..catalog import Role
from ..state import Action, MatchState
from .heuristic import HeuristicBot
from .random_bot import RandomBot


class Bot(Protocol):
    def decide(self, observation: MatchState, role: Role, legal: list[Action]) -> Action:
        """One of `legal`, chosen from the seat's observation only."""
        ...


__all__ = ["Bot", "HeuristicBot", "RandomBot"]
