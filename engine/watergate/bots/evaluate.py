"""A static evaluation of a position for the computer opponents: how close each side is to its win.

The Editor needs two informants joined to Nixon; `editor_need` counts the evidence spaces still to
fill (plus pictures still to pin) on the two cheapest threads, `joined_need` the same counting a
space the two threads share once (hard's play-outs use it). Nixon needs momentum: tokens on his
card, the momentum token's place on the track, and the shrinking supply. The weights are rules of
thumb, tuned by simulation (docs/balance.md).
"""

from __future__ import annotations

from collections import deque
from typing import Final

from ..catalog import Role
from ..state import MatchState

WIN: Final = 1000.0
_BLOCKED: Final = 99
_NEED_CAP: Final = 2 * 12  # what a need is cut to: both threads as long as they come


def _space_costs(s: MatchState) -> list[int]:
    """0 for a face-up token, 1 for an empty space, blocked for a face-down token."""
    return [1 if b is None else 0 if b.up else _BLOCKED for b in s.board]


def _distances(
    cost: list[int], neighbours: tuple[tuple[int, ...], ...], start: tuple[int, ...]
) -> list[int]:
    """For each space, the cheapest chain of spaces from one of `start` to it, both ends counted
    (blocked, at least, where none is open)."""
    # Entering a space costs 0 or 1, so a breadth-first walk that takes free steps first (0-1
    # BFS) settles each space once: the play-outs call this for every evaluation.
    dist = [_BLOCKED] * len(cost)
    todo: deque[int] = deque()
    for i in start:
        if cost[i] < dist[i]:
            dist[i] = cost[i]
            todo.append(i)
    while todo:
        i = todo.popleft()
        here = dist[i]
        for j in neighbours[i]:
            step = cost[j]
            if step < _BLOCKED and here + step < dist[j]:
                dist[j] = here + step
                if step:
                    todo.append(j)
                else:
                    todo.appendleft(j)
    return dist


def thread_needs(s: MatchState) -> list[int]:
    """For each informant: spaces (and picture) still missing on its cheapest thread to Nixon."""
    rules = s.rules
    return _needs(s, _distances(_space_costs(s), rules.space_neighbours, rules.center_neighbours))


def _needs(s: MatchState, from_nixon: list[int]) -> list[int]:
    """thread_needs, from the spaces' distances to Nixon (blocked, at least, for a face-down
    picture or an informant no open chain reaches)."""
    needs = []
    for k, around in enumerate(s.rules.informant_neighbours):
        picture = s.pictures[k]
        if picture == "down":
            needs.append(_BLOCKED)
            continue
        road = min(from_nixon[i] for i in around)
        needs.append(road + (1 if picture is None else 0))
    return needs


def editor_need(s: MatchState) -> int:
    """What the Editor still lacks on the two cheapest threads (0 means connected: a win); a
    space both threads use is counted twice."""
    a, b = sorted(thread_needs(s))[:2]
    return min(a + b, _NEED_CAP)


def joined_need(s: MatchState) -> int:
    """What the Editor still lacks to join two informants to Nixon, each missing space and
    picture counted once: the cheapest tree from Nixon to two informants, whose two threads may
    run together up to the space where they part (0 means connected: a win)."""
    rules = s.rules
    cost = _space_costs(s)
    neighbours = rules.space_neighbours
    from_nixon = _distances(cost, neighbours, rules.center_neighbours)
    # (own thread's need, picture missing, index) of the informants a thread can still reach
    informants = [
        (need, 1 if s.pictures[k] is None else 0, k)
        for k, need in enumerate(_needs(s, from_nixon))
        if need < _BLOCKED
    ]
    if len(informants) < 2:
        return _NEED_CAP
    informants.sort()
    best = informants[0][0] + informants[1][0]  # two threads that meet only at Nixon
    open_spaces = [v for v in range(len(cost)) if cost[v] < _BLOCKED]
    from_informant: dict[int, list[int]] = {}
    for a, (need_a, picture_a, k_a) in enumerate(informants):
        if need_a >= best:  # a tree through this informant costs at least its own thread
            break
        for need_b, picture_b, k_b in informants[a + 1 :]:
            if need_b >= best:
                break
            for k in (k_a, k_b):
                if k not in from_informant:
                    around = rules.informant_neighbours[k]
                    from_informant[k] = _distances(cost, neighbours, around)
            da, db = from_informant[k_a], from_informant[k_b]
            pictures = picture_a + picture_b
            for v in open_spaces:  # the threads part at v: each space of the tree counted once
                total = from_nixon[v] + da[v] + db[v] - 2 * cost[v] + pictures
                if total < best:
                    best = total
    return min(best, _NEED_CAP)


def evaluate(s: MatchState, me: Role) -> float:
    """Higher is better for `me`; the Editor's distance to a connection is `editor_need`."""
    if s.winner is not None:
        return WIN if s.winner == me else -WIN
    return _score(s, editor_need(s), me)


def evaluate_joined(s: MatchState, me: Role) -> float:
    """`evaluate` with the Editor's distance counted exactly (`joined_need`): hard's play-outs
    (docs/levels.md)."""
    if s.winner is not None:
        return WIN if s.winner == me else -WIN
    return _score(s, joined_need(s), me)


def _score(s: MatchState, need: int, me: Role) -> float:
    score = 0.0  # from the Editor's point of view
    score -= 11.0 * s.momentum["nixon"]
    score += 3.0 * min(s.momentum["editor"], s.rules.momentum_sizes["editor"])
    if s.track_momentum is not None:
        score += 2.2 * s.track_momentum
    if s.track_initiative is not None:
        score += 0.6 * s.track_initiative
    for t in s.track:
        if t.pos > 0:
            score += 2.5 + 0.15 * t.pos
        elif t.pos < 0:
            score -= 1.5 - 0.1 * t.pos
    score += 2.5 * (len(s.holding["editor"]) - len(s.holding["nixon"]))
    score -= 6.0 * need
    score -= 2.0 * (s.rules.momentum_sizes["nixon"] + 3 - s.momentum_supply)
    return score if me == "editor" else -score
