"""The heuristic bot: samples one full state consistent with its observation (only the decks are
unknown, NR1), looks one decision ahead with every legal action, and keeps the action whose
result evaluates best for its nation (ties broken by its own seeded generator)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from ...core.game import Seat
from ...core.rng import below, seed_state
from ..flow import apply, legal_actions
from ..observation import determinize
from ..state import MatchState, player_of
from .evaluate import evaluate
from .pick import as_given

T = TypeVar("T")


class HeuristicBot:
    """Greedy one-ply player: reproducible from its seed and the decisions it is shown."""

    def __init__(self, seed: int) -> None:
        self._rng = seed_state(seed)

    def decide(self, observation: MatchState, seat: Seat, legal: Sequence[T]) -> T:
        if len(legal) == 1:
            return legal[0]
        me = player_of(seat)
        sample, self._rng = determinize(observation, self._rng)
        offered = legal_actions(sample, me)
        scores = [evaluate(apply(sample, me, a).state, me) for a in offered]
        best = max(scores)
        top = [a for a, v in zip(offered, scores, strict=True) if v >= best - 1e-9]
        self._rng, i = below(self._rng, len(top))
        return as_given(top[i], legal)
