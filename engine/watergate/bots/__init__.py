"""Computer opponents. Each is handed only its seat's observation (`engine.observation_for`) and
its legal actions — never the true state — and picks one of those actions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from ..catalog import Role
from ..state import MatchState
from .heuristic import HeuristicBot
from .random_bot import RandomBot

T = TypeVar("T")


class Bot(Protocol):
    def decide(self, observation: MatchState, role: Role, legal: Sequence[T]) -> T:
        """One of `legal` (typed actions, or their JSON), chosen from the seat's observation."""
        ...


__all__ = ["Bot", "HeuristicBot", "RandomBot"]
