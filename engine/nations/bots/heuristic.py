"""The heuristic bot: samples one full state consistent with its observation (only the decks are
unknown, NR1), looks one decision ahead with every legal action, and keeps the action whose
result evaluates best for its nation (ties broken by its own seeded generator)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from ...core.game import Seat
from ...core.rng import below, seed_state
from ..actions import Action
from ..flow import apply, legal_actions
from ..observation import determinize
from ..state import MatchState, player_of
from .evaluate import evaluate_choice
from .pick import as_given

T = TypeVar("T")


def look_ahead(
    observation: MatchState, seat: Seat, rng: int
) -> tuple[Sequence[Action], list[float], int]:
    """Every legal action of the seat on one arrangement of the decks drawn from `rng`, with the
    evaluation of its result for the seat's nation; and the generator's next state."""
    me = player_of(seat)
    sample, rng = determinize(observation, rng)
    offered = legal_actions(sample, me)
    return offered, [evaluate_choice(sample, apply(sample, me, a).state, me) for a in offered], rng


class HeuristicBot:
    """Greedy one-ply player: reproducible from its seed and the decisions it is shown."""

    def __init__(self, seed: int) -> None:
        self._rng = seed_state(seed)

    def decide(self, observation: MatchState, seat: Seat, legal: Sequence[T]) -> T:
        if len(legal) == 1:
            return legal[0]
        offered, scores, self._rng = look_ahead(observation, seat, self._rng)
        best = max(scores)
        top = [a for a, v in zip(offered, scores, strict=True) if v >= best - 1e-9]
        self._rng, i = below(self._rng, len(top))
        return as_given(top[i], legal)
