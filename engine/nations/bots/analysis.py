"""Post-game analysis of a Nations match (contract v1.1, for the tables of issue 39): each real
decision of a seat judged from its observation (NR1: only the decks are unknown), the seat's
estimated chance to win with the evaluation's best action (`before`) and with the action played
(`after`).

Every legal action is valued by the evaluation the computer plays by (`evaluate_choice`: the
round played out at once, the lead over the best other nation in victory points) on a few
determinisations of the decks shared by all actions (common random numbers), so the difference
between two actions is theirs, not the shuffle's. Fixed work, no clock: the same numbers on any
machine, a few seconds for a match of four (`python -m bench.analysis --game nations`)."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from typing import Final, NamedTuple

from ...core.rng import seed_state
from ..actions import Action
from ..flow import apply, legal_actions
from ..observation import determinize, observation_for
from ..state import MatchState
from .evaluate import evaluate_choice

SAMPLES: Final = 3  # determinisations of the decks per decision
# how an evaluation (the lead over the best other nation, in victory points; a decided game
# ±1000, capped here) becomes a chance to win at a table of N: logistic(offset + lead / scale),
# fitted per seat count by `python -m bench.analysis --game nations --players N --fit`
FITTED: Final = {2: (40.0, 0.0), 3: (23.0, -0.5), 4: (31.0, -0.8), 5: (39.0, -1.1)}
CAP: Final = 60.0  # a lead beyond this many points says no more


class Judgement(NamedTuple):
    before: float
    after: float
    best: Action


def decision_seed(secret: int, version: int) -> int:
    """A one-way hash of the match's secret seed: the numbers shown tell nothing about it."""
    digest = hashlib.sha256(f"nations-analysis/{secret}/{version}".encode()).digest()
    return int.from_bytes(digest[:8]) >> 1


def fitted(players: int) -> tuple[float, float]:
    """(scale, offset) of a table of `players`."""
    return FITTED[players]


def chance(value: float, scale: float, offset: float) -> float:
    """An evaluation (lead in points, or a decided game's ±1000) as a chance to win."""
    return 1.0 / (1.0 + math.exp(-(offset + max(-CAP, min(CAP, value)) / scale)))


def judge(observation: MatchState, player: int, played: Action, seed: int) -> Judgement:
    """`played` and the best action by the evaluation, valued on the same samples. Only
    `observation` is read (states that differ in the decks' order are judged alike)."""
    offered = legal_actions(observation, player)
    scale, offset = fitted(observation.players)
    totals = [0.0] * len(offered)
    rng = seed_state(seed)
    for _ in range(SAMPLES):
        sample, rng = determinize(observation, rng)
        for k, action in enumerate(offered):
            after = apply(sample, player, action).state
            totals[k] += chance(evaluate_choice(sample, after, player), scale, offset)
    best = max(range(len(offered)), key=lambda k: (totals[k], -k))  # ties: the engine's first
    mine = offered.index(played)
    return Judgement(totals[best] / SAMPLES, totals[mine] / SAMPLES, offered[best])


def lead(state: MatchState, player: int, action: Action, seed: int) -> float:
    """The evaluation of `action` for `player` on one determinisation of the decks (the raw
    figure the chance is fitted to)."""
    sample, _ = determinize(observation_for(state), seed_state(seed))
    return evaluate_choice(sample, apply(sample, player, action).state, player)


def analyse(
    start: MatchState, actions: Sequence[tuple[int, int, Action]], secret: int
) -> list[tuple[int, int, Judgement]]:
    """Every real decision of a match (more than one legal action), judged from its mover's
    observation; `actions` are (seq, player, typed action) in order."""
    s, judged = start, []
    for seq, player, action in actions:
        if len(legal_actions(s, player)) > 1:
            seed = decision_seed(secret, s.version)
            judged.append((seq, player, judge(observation_for(s), player, action, seed)))
        s = apply(s, player, action).state
    return judged
