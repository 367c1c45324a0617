"""A static evaluation of a position for the computer opponents: how close each side is to its win.

The Editor needs two informants joined to Nixon; `editor_need` counts the evidence spaces still to
fill (plus pictures still to pin) on the two cheapest threads. Nixon needs momentum: tokens on his
card, the momentum token's place on the track, and the shrinking supply. The weights are rules of
thumb, tuned by simulation (docs/balance.md).
"""

from __future__ import annotations

from typing import Final

from ..catalog import Role
from ..state import MatchState

WIN: Final = 1000.0
_BLOCKED: Final = 99


def _space_costs(s: MatchState) -> list[int]:
    """0 for a face-up token, 1 for an empty space, blocked for a face-down token."""
    return [1 if b is None else 0 if b.up else _BLOCKED for b in s.board]


def thread_needs(s: MatchState) -> list[int]:
    """For each informant: spaces (and picture) still missing on its cheapest thread to Nixon."""
    cost = _space_costs(s)
    rules = s.rules
    neighbours = rules.space_neighbours
    n = len(rules.spaces)
    # Dijkstra-like relaxation from the centre over a tiny graph (21 spaces): repeated sweeps.
    dist = [_BLOCKED] * n
    for i in rules.center_neighbours:
        dist[i] = cost[i]
    changed = True
    while changed:
        changed = False
        for i in range(n):
            if cost[i] >= _BLOCKED:
                continue
            best = dist[i]
            for j in neighbours[i]:
                cand = dist[j] + cost[i]
                if cand < best:
                    best = cand
            if best < dist[i]:
                dist[i] = best
                changed = True
    needs = []
    for k, around in enumerate(rules.informant_neighbours):
        picture = s.pictures[k]
        if picture == "down":
            needs.append(_BLOCKED)
            continue
        road = min(dist[i] for i in around)
        needs.append(road + (1 if picture is None else 0))
    return needs


def editor_need(s: MatchState) -> int:
    """What the Editor still lacks on the two cheapest threads (0 means connected: a win)."""
    a, b = sorted(thread_needs(s))[:2]
    return min(a + b, 2 * 12)


def evaluate(s: MatchState, me: Role) -> float:
    """Higher is better for `me`."""
    if s.winner is not None:
        return WIN if s.winner == me else -WIN
    score = 0.0  # from the Editor's point of view
    score -= 11.0 * s.momentum["nixon"]
    spaces = s.rules.momentum_spaces
    score += 3.0 * min(s.momentum["editor"], spaces)
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
    score -= 6.0 * editor_need(s)
    score -= 2.0 * (spaces + 3 - s.momentum_supply)
    return score if me == "editor" else -score
