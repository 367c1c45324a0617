"""The heuristic bot: for each legal action, look one step ahead on a sampled position and keep the
action whose outcome evaluates best — it fights for momentum as Nixon, builds cheap threads as the
Editor, asks for colours when Nixon's worst answer still helps, pins face-down blockers on the
Editor's best threads, and spends reactions where the cancelled play would hurt most."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from ...core.errors import EngineError
from ...core.rng import below, bot_state
from ..actions import PASS, Action
from ..catalog import Role
from ..flow import advance, apply, legal_actions
from ..observation import determinize
from ..state import AskedD, FaceDownD, MatchState, ReactD
from .evaluate import evaluate
from .pick import as_given

T = TypeVar("T")

_FOLLOW_UP_DEPTH = 2  # own sub-choices (pin where, which token) followed greedily
# The opponent's answers to a question my move put (Nixon naming which face-down token of the
# asked colour moves, R11, R29): without them an ask would be scored before anything moved.
_ANSWERS = (FaceDownD, AskedD)


def _settle(s: MatchState, me: Role, depth: int) -> float:
    """Value after `me`'s move: the opponent is assumed to pass reaction windows and to answer a
    question of mine as hurts me most; my own follow-up choices are taken greedily. `s` is the
    caller's own copy: passes are played in it."""
    for _ in range(8):
        d = s.decision
        if d is None or s.winner is not None:
            break
        if d.role != me and isinstance(d, ReactD):
            advance(s, PASS)
            continue
        if d.role == me and depth > 0:
            return max(_settle(apply(s, me, a).state, me, depth - 1) for a in legal_actions(s, me))
        if d.role != me and depth > 0 and isinstance(d, _ANSWERS):
            them = d.role
            return min(
                _settle(apply(s, them, a).state, me, depth - 1) for a in legal_actions(s, them)
            )
        break
    return evaluate(s, me)


def score_actions(s: MatchState, me: Role, legal: Sequence[Action]) -> list[float]:
    """One-step-ahead value of each legal action in the sampled position `s`."""
    scores = []
    for action in legal:
        try:
            scores.append(_settle(apply(s, me, action).state, me, _FOLLOW_UP_DEPTH))
        except EngineError:  # pragma: no cover - the sample is always consistent with `legal`
            scores.append(float("-inf"))
    return scores


class HeuristicBot:
    """Greedy one-ply player over one determinisation of what its seat can see."""

    def __init__(self, seed: int) -> None:
        self._rng = bot_state(seed)

    def decide(self, observation: MatchState, role: Role, legal: Sequence[T]) -> T:
        if len(legal) == 1:
            return legal[0]
        sample, self._rng = determinize(observation, role, self._rng)
        offered = legal_actions(sample, role)
        scores = score_actions(sample, role, offered)
        best = max(scores)
        top = [a for a, v in zip(offered, scores, strict=True) if v >= best - 1e-9]
        self._rng, i = below(self._rng, len(top))
        return as_given(legal, top[i])
