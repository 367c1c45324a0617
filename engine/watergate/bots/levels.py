"""The computer's levels (contract v1.1): easy, normal and hard, each a fixed recipe over the bots
here, documented in docs/levels.md. Every recipe decides from its seat's observation alone."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, TypeVar

from ...core.rng import below, bot_state
from ..catalog import Role
from ..flow import legal_actions
from ..observation import determinize
from ..state import MatchState
from .evaluate import evaluate_joined
from .heuristic import HeuristicBot, score_actions
from .pick import as_given
from .prior import shipped_prior
from .search import Evaluation, SearchBot

T = TypeVar("T")
Clock = Callable[[], float]

LEVELS: Final = ("easy", "normal", "hard")  # weakest first
DEFAULT_LEVEL: Final = "normal"

# easy: how often it plays any legal action at random, and how far below the best a move may
# score and still be one of its picks (evaluation points; a momentum token is 11)
_BLUNDER_IN: Final = 4  # one decision in 4
_SLACK: Final = 12.0

# hard: the search of normal with more of everything the faster engine pays for
_HARD_CANDIDATES: Final = 8
_HARD_RANKING_SAMPLES: Final = 4
_HARD_WIDENING: Final = 0.5  # root candidates let in: 2 + 0.5·√iterations
# the rewards of a position's moves differ by a few hundredths (a logistic of the evaluation):
# normal's exploration weight of 0.9 spreads visits almost evenly, so the most visited move is
# nearly a coin toss among the candidates; 0.2 lets the better ones draw the visits. A longer
# play-out reaches the evaluation phase, where the round's momentum is decided, more often.
_HARD_EXPLORE: Final = 0.2
_HARD_ROLLOUT_STEPS: Final = 12
# As Nixon, the play-out's end is scored with the Editor's distance to a connection counted
# exactly (a space two threads share once), so he sees a connection coming that the two threads'
# sum puts further off: against the heuristic Editor 0.63 instead of 0.55 over 300 deals. As the
# Editor the same scoring lost (0.72 instead of 0.86 over 100), so the Editor keeps `evaluate`.
_HARD_EVALUATIONS: Final[dict[Role, Evaluation]] = {"nixon": evaluate_joined}


# The play-outs' moves are drawn from the learned move prior (bots/prior_weights.py) instead of
# uniformly: they end in positions a real game reaches, so the evaluation that scores them means
# more (as Nixon against the heuristic Editor 0.83 instead of 0.71 over the same 300 deals,
# docs/levels.md). One prior a process, its cache shared by every hard bot.
_HARD_PRIOR: Final = shipped_prior()


class EasyBot:
    """The heuristic's one-step look-ahead, played loosely: a random legal move one decision in
    four, otherwise any move within a token or so of the best."""

    def __init__(self, seed: int) -> None:
        self._rng = bot_state(seed)

    def _rand(self, n: int) -> int:
        self._rng, i = below(self._rng, n)
        return i

    def decide(self, observation: MatchState, role: Role, legal: Sequence[T]) -> T:
        if len(legal) == 1:
            return legal[0]
        offered = legal_actions(observation, role)
        if self._rand(_BLUNDER_IN) == 0:
            return as_given(legal, offered[self._rand(len(offered))])
        sample, self._rng = determinize(observation, role, self._rng)
        scores = score_actions(sample, role, offered)
        best = max(scores)
        near = [a for a, v in zip(offered, scores, strict=True) if v >= best - _SLACK]
        return as_given(legal, near[self._rand(len(near))])


def hard_bot(seed: int, budget_ms: int, clock: Clock | None, iterations: int = 4000) -> SearchBot:
    """normal's search, with its root candidates ranked over four determinisations instead of
    one, eight of them instead of five, let in by progressive widening, explored less widely,
    played out further by the learned move prior and, as Nixon, scored with the exact distance
    to a connection."""
    return SearchBot(
        seed,
        budget_ms=budget_ms,
        iterations=iterations,
        clock=clock,
        candidates=_HARD_CANDIDATES,
        ranking_samples=_HARD_RANKING_SAMPLES,
        widening=_HARD_WIDENING,
        explore=_HARD_EXPLORE,
        rollout_steps=_HARD_ROLLOUT_STEPS,
        evaluations=_HARD_EVALUATIONS,
        rollout_prior=_HARD_PRIOR,
    )


def level_bot(
    level: str, seed: int, budget_ms: int, clock: Clock | None
) -> EasyBot | HeuristicBot | SearchBot:
    """The bot of a level; KeyError for an unknown one."""
    if level == "easy":
        return EasyBot(seed)
    if level == "normal":
        # The heuristic's best move, as in Nations. The first edition's search (the `search` bot)
        # was within noise of hard over both roles (hard won 0.53 against it), so the two levels
        # felt the same; hard wins about three games in four against the heuristic (levels.md).
        return HeuristicBot(seed)
    if level == "hard":
        return hard_bot(seed, budget_ms, clock)
    raise KeyError(f"unknown level {level!r}")
