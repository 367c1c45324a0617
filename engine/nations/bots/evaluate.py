"""A static evaluation of a Nations position for the computer players: each nation's score now
plus what its board will still produce, its strength and stability, and the war in the war space;
the value is one nation's against the best of the others. The weights are rules of thumb (a
resource is worth about a third of a VP: 10 of them make 1 VP at the end, and they buy cards)."""

from __future__ import annotations

from typing import Final

from ..economy import production, score_sheet, stability, strength
from ..state import MatchState, Nation

WIN: Final = 1000.0
# What a unit of gold, stone, food, books is worth, in VP, while the match goes on.
VALUE: Final = (0.35, 0.3, 0.25, 0.4)
IDLE_WORKER: Final = 0.2  # a worker in the resource area, per production still to come
STRENGTH: Final = 0.12
STABILITY: Final = 0.1


def productions_left(s: MatchState) -> int:
    """How many productions are still to come (this round's included while it is played)."""
    return 0 if s.winner >= 0 else s.rules.rounds - s.round + 1


def nation_value(s: MatchState, n: Nation) -> float:
    rules, left = s.rules, productions_left(s)
    value = float(score_sheet(rules, n).total)
    gains, costs = production(rules, n)
    held = (n.gold, n.stone, n.food, n.books)
    for r in range(4):
        value += VALUE[r] * (held[r] + left * (gains[r] - costs[r]))
        short = costs[r] - gains[r] - held[r]
        if short > 0:  # the next production runs short: a book a unit and a VP
            value -= 1.0 + VALUE[3] * short
    steady = stability(rules, n)
    if steady < 0:  # a revolt every production until it is mended
        value -= left * (1.0 + VALUE[3] * -steady)
    else:
        value += STABILITY * steady
    value += STRENGTH * strength(rules, n) + IDLE_WORKER * left * n.idle * 0.5
    if n.wonder:
        wonder = rules.cards[n.wonder]
        done = n.built / len(wonder.sections)
        value += (0.3 + 0.6 * done) * wonder.lasting.score
    return value


def _war(s: MatchState, me: int) -> float:
    """The war bought this round, as it will resolve if strengths stay as they are (NR10)."""
    war = s.war
    if war is None:
        return 0.0
    (loss,) = s.rules.cards[war.card].defeat
    worth = 0.0
    for p, n in enumerate(s.nations):
        if p == war.buyer or strength(s.rules, n) >= war.strength:
            continue
        hurt = 1.0 + 0.3 * max(0, loss.amount - max(0, stability(s.rules, n)))
        worth += -hurt if p == me else hurt / max(1, s.players - 1)
    return worth if war.buyer == me else min(0.0, worth)


def evaluate(s: MatchState, me: int) -> float:
    """Higher is better for player `me`."""
    if s.winner >= 0:
        best_other = max(v for p, v in enumerate(s.scores) if p != me)
        return (WIN if s.winner == me else -WIN) + s.scores[me] - best_other
    values = [nation_value(s, n) for n in s.nations]
    return values[me] - max(v for p, v in enumerate(values) if p != me) + _war(s, me)
