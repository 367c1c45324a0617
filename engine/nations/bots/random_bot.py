"""The random bot: picks uniformly among the legal actions with its own seeded generator."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from ...core.game import Seat
from ...core.rng import below, seed_state
from ..state import MatchState

T = TypeVar("T")


class RandomBot:
    """Reproducible: the same seed and the same decisions give the same choices."""

    def __init__(self, seed: int) -> None:
        self._rng = seed_state(seed)

    def decide(self, observation: MatchState, seat: Seat, legal: Sequence[T]) -> T:
        """The Bot protocol: the observation is not needed to choose at random."""
        if not legal:
            raise ValueError("no legal action to choose from")
        self._rng, i = below(self._rng, len(legal))
        return legal[i]
