"""A learned move prior: one weight per kind of move, fitted to a teacher's choices (`python -m
bench.prior`; the weights in prior_weights.py), that hard's play-outs draw their moves from."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Final

from ..actions import (
    Action,
    Ask,
    ChooseCard,
    ChoosePicture,
    ChooseSpace,
    ChooseTarget,
    GambitKeep,
    Pin,
    PlayAction,
    PlayValue,
    React,
)
from ..catalog import Role
from ..state import MatchState
from .prior_weights import WEIGHTS

_CACHE_LIMIT: Final = 20_000  # (decision, seat, action) keys remembered; a match has far fewer
UNIT: Final = 1 << 24  # a sample's resolution: a draw below this, scaled to the total weight


def signature(s: MatchState, role: Role, action: Action) -> str:
    """What the prior tells moves apart by: the seat, the kind of decision, and the card, target,
    colour, space or person the move names; never a token's handle, a name for one match only."""
    decision = type(s.decision).__name__
    head = f"{role}:{decision}:{action.type}"
    if isinstance(action, PlayValue):
        return f"{head}:{action.card}:{action.target}:{action.color or ''}"
    if isinstance(action, PlayAction | React | ChooseCard | GambitKeep):
        return f"{head}:{action.card}"
    if isinstance(action, ChooseTarget):
        return f"{head}:{action.target}"
    if isinstance(action, ChooseSpace):
        return f"{head}:{action.space}"
    if isinstance(action, ChoosePicture):
        return f"{head}:{action.person}"
    if isinstance(action, Ask):
        return f"{head}:{action.color}"
    if isinstance(action, Pin):
        return f"{head}:{action.space}"
    return head


class MovePrior:
    """Samples a move with probability proportional to exp(weight of its signature)."""

    def __init__(self, weights: Mapping[str, float]) -> None:
        self.weights = dict(weights)
        # the search asks about the same few hundred moves again and again: the exponentiated
        # weight is kept per decision kind, seat and action (a pass is one action for both seats)
        self._odds: dict[tuple[type, Role, Action], float] = {}

    def odds(self, s: MatchState, role: Role, action: Action) -> float:
        key = (type(s.decision), role, action)
        found = self._odds.get(key)
        if found is None:
            found = math.exp(self.weights.get(signature(s, role, action), 0.0))
            if len(self._odds) >= _CACHE_LIMIT:
                self._odds.clear()
            self._odds[key] = found
        return found

    def pick(self, s: MatchState, role: Role, actions: Sequence[Action], draw: int) -> Action:
        """The move that `draw` (uniform below 2**24) falls on, each move's share its odds."""
        odds = [self.odds(s, role, a) for a in actions]
        total = 0.0  # summed by hand: the compiled copy types sum() of floats as an int
        for weight in odds:
            total += weight
        point = draw * total / UNIT
        for action, weight in zip(actions, odds, strict=True):
            point -= weight
            if point < 0:
                return action
        return actions[-1]


def shipped_prior() -> MovePrior:
    """The prior shipped with the engine (bots/prior_weights.py)."""
    return MovePrior(WEIGHTS)
