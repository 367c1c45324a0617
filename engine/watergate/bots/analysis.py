"""Post-game analysis (contract v1.1): a decision's chance to win, judged from its observation."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from typing import Final, NamedTuple

from ...core.errors import EngineError
from ...core.rng import below, bot_state
from ..actions import Action
from ..catalog import Role
from ..flow import apply, current_role, legal_actions
from ..observation import determinize, observation_for
from ..state import MatchState
from .evaluate import evaluate
from .levels import hard_bot
from .search import _SCALE

# fixed work per decision, so a match's analysis takes the same time on any load and the same
# numbers on any machine: the hard search on an iteration budget (no clock), and a few play-outs
SEARCH_ITERATIONS: Final = 160
SAMPLES: Final = 12  # determinisations of the observation, shared by both actions judged
PLAYOUT_STEPS: Final = 8


class Judgement(NamedTuple):
    before: float  # the mover's chance with the search's preferred action
    after: float  # its chance with the action it played
    best: Action


def decision_seed(secret: int, version: int) -> int:
    """The sampler's seed for one decision: a one-way hash of a server secret, so the numbers
    shown tell nothing about it."""
    digest = hashlib.sha256(f"analysis/{secret}/{version}".encode()).digest()
    return int.from_bytes(digest[:8]) >> 1


def _chance(s: MatchState, me: Role) -> float:
    return 1.0 / (1.0 + math.exp(-evaluate(s, me) / _SCALE))


def _playout(s: MatchState, rng: int) -> MatchState:
    for _ in range(PLAYOUT_STEPS):
        actor = current_role(s)
        if actor is None:
            break
        actions = legal_actions(s, actor)
        rng, i = below(rng, len(actions))
        s = apply(s, actor, actions[i]).state
    return s


def judge(observation: MatchState, role: Role, played: Action, seed: int) -> Judgement:
    """Both actions judged on the same samples and play-outs (common random numbers), so the
    difference between before and after is the choice's, not the dice's. Only `observation` is
    read: states that differ in what `role` cannot see are judged alike."""
    searcher = hard_bot(seed, budget_ms=0, clock=None, iterations=SEARCH_ITERATIONS)
    best = searcher.decide(observation, role, legal_actions(observation, role))
    judged = [best] if played == best else [best, played]
    totals, counts = [0.0, 0.0], [0, 0]
    rng = bot_state(seed ^ 0x5A5A5A5A)
    for _ in range(SAMPLES):
        sample, rng = determinize(observation, role, rng)
        rng, playout_seed = below(rng, 1 << 62)
        for k, action in enumerate(judged):
            try:
                after = apply(sample, role, action).state
            except EngineError:  # not legal in this sample (should not happen: own choices)
                continue
            totals[k] += _chance(_playout(after, bot_state(playout_seed)), role)
            counts[k] += 1
    values = [t / c if c else 0.5 for t, c in zip(totals, counts, strict=True)]
    before = values[0]
    return Judgement(before, values[-1] if len(judged) == 2 else before, best)


def analyse(
    start: MatchState, actions: Sequence[tuple[int, Role, Action]], secret: int
) -> list[tuple[int, Role, Judgement]]:
    """Every real decision of a match (one with more than one legal action), judged from its
    mover's observation; `actions` are (seq, role, typed action) in order."""
    s, judged = start, []
    for seq, role, action in actions:
        legal = legal_actions(s, role)
        if len(legal) > 1:
            seed = decision_seed(secret, s.version)
            judged.append((seq, role, judge(observation_for(s, role), role, action, seed)))
        s = apply(s, role, action).state
    return judged
