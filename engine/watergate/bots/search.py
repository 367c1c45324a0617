"""The search bot: information-set Monte Carlo tree search (single observer) over determinisations.

Each iteration samples one full state consistent with the bot's observation only
(`observation.determinize`), walks the shared tree by UCB restricted to the actions available in
that sample (availability counts), expands one node, plays a short continuation (its moves drawn
uniformly, or from a learned move prior), scores it with the static evaluation, and backs the
result up for the player who chose at each node. The most visited root action is played. The
engine reads no clock: the caller may pass one to limit thinking time; otherwise the iteration
budget alone bounds the work.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Final, TypeVar

from ...core.rng import below, bot_state
from ..actions import Action, action_to_json
from ..catalog import Role
from ..flow import advance, current_role, legal_actions
from ..observation import determinize
from ..state import MatchState
from .evaluate import evaluate
from .heuristic import score_actions
from .pick import as_given
from .prior import UNIT, MovePrior

T = TypeVar("T")
Key = Action  # tree edges are keyed by the (hashable) action itself
_EXPLORE: Final = 0.9
_ROLLOUT_STEPS: Final = 4
_CANDIDATES: Final = 5  # root moves searched: the heuristic's best few
_SCALE: Final = 45.0  # evaluation points per unit of the logistic


def _key(action: Action) -> Key:
    return action


def _tie_break(action: Action) -> tuple[tuple[str, object], ...]:
    """Equal visits and reward: the first edition's order (the sorted JSON fields) decides."""
    return tuple(sorted(action_to_json(action).items()))


class _Node:
    __slots__ = ("avail", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[Key, _Node] = {}
        self.visits = 0
        self.reward = 0.0  # summed reward of the player who chose the move into this node
        self.avail = 0


Evaluation = Callable[[MatchState, Role], float]


def _editor_reward(s: MatchState, evaluation: Evaluation) -> float:
    """0..1 from the Editor's point of view."""
    return 1.0 / (1.0 + math.exp(-evaluation(s, "editor") / _SCALE))


class SearchBot:
    """ISMCTS with an iteration budget and, optionally, a time budget on an injected clock."""

    def __init__(
        self,
        seed: int,
        budget_ms: int = 1000,
        iterations: int = 4000,
        clock: Callable[[], float] | None = None,
        candidates: int = _CANDIDATES,
        ranking_samples: int = 1,
        widening: float = 0.0,
        explore: float = _EXPLORE,
        rollout_steps: int = _ROLLOUT_STEPS,
        evaluations: Mapping[Role, Evaluation] | None = None,
        rollout_prior: MovePrior | None = None,
    ) -> None:
        self._rng = bot_state(seed)
        self.budget = budget_ms / 1000
        self.iterations = iterations
        self.clock = clock
        # hard's recipe (docs/levels.md): the root's candidates are ranked over several
        # determinisations, and with `widening` > 0 they are let in one by one as visits grow
        # (progressive widening) instead of all `candidates` from the first iteration
        self.candidates = candidates
        self.ranking_samples = ranking_samples
        self.widening = widening
        # UCB's exploration weight and the random play-out's length; normal keeps the first
        # edition's, hard exploits more and looks further (docs/levels.md)
        self.explore = explore
        self.rollout_steps = rollout_steps
        # what a play-out's end is scored by, for the role the bot plays (`evaluate` if none)
        self.evaluations = dict(evaluations or {})
        # the play-outs' moves: drawn from a learned prior if given (hard), else uniformly
        self.rollout_prior = rollout_prior
        self._allowed: set[Key] = set()

    def _rand(self, n: int) -> int:
        self._rng, i = below(self._rng, n)
        return i

    def decide(self, observation: MatchState, role: Role, legal: Sequence[T]) -> T:
        if len(legal) == 1:
            return legal[0]
        return as_given(legal, self._search(observation, role, legal_actions(observation, role)))

    def _search(self, observation: MatchState, role: Role, legal: Sequence[Action]) -> Action:
        root = _Node()
        evaluation = self.evaluations.get(role, evaluate)
        deadline = self.clock() + self.budget if self.clock is not None else 0.0
        scores = [0.0] * len(legal)
        started = deadline - self.budget
        for k in range(self.ranking_samples):
            # more samples only in the first half of the budget: the search needs the rest
            if k > 0 and self.clock is not None and self.clock() >= started + self.budget / 2:
                break
            sample, self._rng = determinize(observation, role, self._rng)
            for i, v in enumerate(score_actions(sample, role, legal)):
                scores[i] += v
        order = sorted(range(len(legal)), key=lambda i: -scores[i])[: self.candidates]
        ranked_moves = [_key(legal[i]) for i in order]
        width = len(ranked_moves)
        for done in range(self.iterations):
            if self.clock is not None and done >= 8 and self.clock() >= deadline:
                break
            if self.widening > 0:
                width = min(len(ranked_moves), 2 + int(self.widening * math.sqrt(done)))
            if width != len(self._allowed) or done == 0:
                self._allowed = set(ranked_moves[:width])
            sample, self._rng = determinize(observation, role, self._rng)
            self._iterate(root, sample, evaluation)
        by_key = {_key(a): a for a in legal}
        ranked = sorted(
            (
                (child.visits, child.reward, _tie_break(key), key)
                for key, child in root.children.items()
                if key in by_key
            ),
            key=lambda r: r[:3],
            reverse=True,
        )
        return by_key[ranked[0][3]] if ranked else legal[self._rand(len(legal))]

    def _iterate(self, root: _Node, s: MatchState, evaluation: Evaluation) -> None:
        node, path = root, []  # path: (node, player who chose the move into it)
        while (actor := current_role(s)) is not None:
            actions = legal_actions(s, actor)
            if node is root:  # only the heuristic's best candidates are searched at the root
                actions = [a for a in actions if _key(a) in self._allowed] or actions
            untried = []
            for a in actions:
                child = node.children.get(_key(a))
                if child is None:
                    untried.append(a)
                else:
                    child.avail += 1
            if untried:
                action = untried[self._rand(len(untried))]
                child = node.children[_key(action)] = _Node()
                child.avail = 1
                advance(s, action)
                path.append((child, actor))
                break
            action = self._select(node, actions)
            node = node.children[_key(action)]
            advance(s, action)
            path.append((node, actor))
        reward = _editor_reward(self._rollout(s), evaluation)
        for visited, actor in path:
            visited.visits += 1
            visited.reward += reward if actor == "editor" else 1.0 - reward

    def _select(self, node: _Node, actions: Sequence[Action]) -> Action:
        best, best_value = actions[0], -1.0
        for a in actions:
            child = node.children[_key(a)]
            value = child.reward / child.visits + self.explore * math.sqrt(
                math.log(max(child.avail, 1)) / child.visits
            )
            if value > best_value:
                best, best_value = a, value
        return best

    def _rollout(self, s: MatchState) -> MatchState:
        for _ in range(self.rollout_steps):
            actor = current_role(s)
            if actor is None:
                break
            actions = legal_actions(s, actor)
            if self.rollout_prior is None or len(actions) == 1:
                advance(s, actions[self._rand(len(actions))])
            else:
                advance(s, self.rollout_prior.pick(s, actor, actions, self._rand(UNIT)))
        return s
