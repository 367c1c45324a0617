"""The random bot: picks uniformly among the legal actions with its own seeded generator."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

from ...core.rng import below, seed_state
from ..catalog import Role
from ..state import JSON, MatchState

T = TypeVar("T")


class RandomBot:
    """Reproducible: the same seed and the same decisions give the same choices."""

    def __init__(self, seed: int) -> None:
        self._rng = seed_state(seed)

    def choose(self, view: Mapping[str, JSON], legal: Sequence[T]) -> T:
        """Pick one of `legal` (the seat's legal actions); `view` is unused by this bot."""
        if not legal:
            raise ValueError("no legal action to choose from")
        self._rng, i = below(self._rng, len(legal))
        return legal[i]

    def decide(self, observation: MatchState, role: Role, legal: Sequence[T]) -> T:
        """The Bot protocol: the observation is not needed to choose at random."""
        return self.choose({}, legal)
