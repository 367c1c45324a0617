"""The search bot: looks two decisions ahead where the heuristic looks one. On one state drawn
from its observation (only the decks are unknown, NR1) it takes its few best actions by the
evaluation, lets the next decider answer each — the other nation as the heuristic would, itself
with its best follow-up — and keeps the action whose answered result is best for its nation."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, TypeVar

from ...core.game import Seat
from ...core.rng import below, seed_state
from ..flow import apply, legal_actions
from ..observation import determinize
from ..state import MatchState, player_of
from .evaluate import evaluate, evaluate_choice
from .pick import as_given

T = TypeVar("T")
CANDIDATES: Final = 4  # own actions played out: the evaluation's best few
ROLLOUT_LIMIT: Final = 40  # decisions at most in a play-out (a round has about 18)
EPSILON: Final = 1e-9


def greedy(s: MatchState, player: int) -> tuple[MatchState, float]:
    """The state after `player`'s action that evaluates best for `player`, and that value (the
    first such action in the engine's order: the answer is reproducible)."""
    best, value = s, float("-inf")
    for a in legal_actions(s, player):
        after = apply(s, player, a).state
        v = evaluate_choice(s, after, player)
        if v > value + EPSILON:
            best, value = after, v
    return best, value


class SearchBot:
    """Two-ply: reproducible from its seed when no clock is given; with a clock it stops looking
    at further candidates once its budget is spent and plays the best found so far."""

    def __init__(
        self, seed: int, budget_ms: int = 1000, clock: Callable[[], float] | None = None
    ) -> None:
        self._rng = seed_state(seed)
        self.budget = budget_ms / 1000
        self.clock = clock

    def decide(self, observation: MatchState, seat: Seat, legal: Sequence[T]) -> T:
        if len(legal) == 1:
            return legal[0]
        started = self.clock() if self.clock else 0.0
        me = player_of(seat)
        sample, self._rng = determinize(observation, self._rng)
        ranked = sorted(
            (
                (evaluate_choice(sample, apply(sample, me, a).state, me), i, a)
                for i, a in enumerate(legal_actions(sample, me))
            ),
            key=lambda t: (-t[0], t[1]),
        )
        top = [a for _, _, a in ranked[:CANDIDATES]]
        scores: list[float] = []
        for a in top:
            if self.clock and scores and self.clock() - started > self.budget:
                break  # out of time: what has been looked at decides
            scores.append(self._answered(apply(sample, me, a).state, me))
        best = max(scores)
        tied = [a for a, v in zip(top, scores, strict=False) if v >= best - EPSILON]
        self._rng, i = below(self._rng, len(tied))
        return as_given(tied[i], legal)

    @staticmethod
    def _answered(s: MatchState, me: int) -> float:
        """The value for `me` once this round has been played out by both nations choosing as
        the heuristic does (its production, war and events are where the evaluation errs most)."""
        now = s.round
        for _ in range(ROLLOUT_LIMIT):
            d = s.decision
            if d is None or s.winner >= 0 or s.round != now:
                break
            s, _ = greedy(s, d.player)
        return evaluate(s, me)
