"""A static evaluation of a Nations position for the computer players; the value is one nation's
against the best of the others, in VP.

A nation is worth its score now, plus what its goods, board and workers will still bring:

- every good it holds or will produce counts for its share of the final score (1 VP per 10 of the
  resource sum, NR36, taken smoothly until the end);
- gold, stone and food also buy cards, man them, build wonders and feed the nation, but only in
  the action phases still to come: the goods it can spend (held, and produced before the last
  phase) are worth up to `SPEND` more a unit while they are few for the phases left, less and
  less as they outgrow what those phases can take (`CAPACITY` a phase), and less in the last
  `SPEND_PHASES` phases, which offer fewer chances; so a nation spends rather than hoards, and a
  good held after the last action phase is worth its final share only;
- books count at every age's scoring;
- a good that will run short at the next production costs the seed's penalty (a VP and a book a
  unit), famine included (the age's average);
- a worker is worth what it earns where it stands, and the chance to earn more elsewhere: at
  each production to come, on the nation's best card or on the age's average building (bought
  then: age I's yield 3-4 a worker, age IV's 6-7 and VP), for the stone to move it there; that
  chance counts at a discount (it takes actions to seize), and a worker in the resource area,
  which earns nothing where it stands, is worth that chance alone. What a worker costs (the
  growth's 3 food a production or 3 stability) is in the production and stability terms, so a
  growth is worth its worker's chance against its space's cost: much early with a card to man,
  little in the last rounds;
- stability (a revolt every production while below 0), strength, the wonder under construction.

In the action phase the round's resolution is played out at once, as if every nation passed now,
and the nations are valued after it: production, the war, the events, the famine and the age's
scoring are then facts, so passing is valued exactly as the actions before it (the one-step
look-ahead otherwise saw them only in the result of the pass, and kept buying rather than pass).
In the last round that leaves the final score, and a nation that has not passed also holds the
chance to put its idle workers on a card that scores before the end. A growth choice is valued
before the round is played (`evaluate_choice`): the action phase to come can still put the new
worker to work.

The weights are rules of thumb (a good is worth about a third of a VP while it buys cards)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from statistics import fmean
from typing import Final

from ..economy import production, score_sheet, stability, strength
from ..flow import apply, legal_actions
from ..resolution import resolve_round
from ..ruleset import Ruleset
from ..state import ActD, GoldenD, GrowthD, MatchState, Nation

WIN: Final = 1000.0
# What a unit of gold, stone, food is worth beyond its final share while it can be spent, and
# how many of it an action phase can put to use; a book's worth beyond its final share.
SPEND: Final = (0.25, 0.2, 0.15)
CAPACITY: Final = (6.0, 6.0, 3.0)
SPEND_PHASES: Final = 3  # with fewer action phases left, goods can be spent less fully
BOOKS: Final = 0.3
STRENGTH: Final = 0.12
STABILITY: Final = 0.1
WORKER_SHARE: Final = 0.75  # of what a worker could earn elsewhere: it still needs an action
FUTURE_SHARE: Final = 0.8  # of an age's average building: it still has to be bought

Vector = tuple[float, float, float, float]  # gold, stone, food, books


@dataclass(frozen=True, slots=True)
class Manned:
    """What one worker on a card gives: its goods a production; what it is worth while it stays
    there (its VP at the end, its strength and stability); the stone to deploy it."""

    goods: Vector
    kept: float
    score: float
    deploy: float


@dataclass(frozen=True, slots=True)
class Tables:
    """What the evaluation reads of a ruleset, computed once; rounds are 1..R (index 0 unused)."""

    cards: Mapping[str, Manned]  # every card that takes workers
    future: tuple[Manned, ...]  # [j]: the average building of round j's age
    famine: tuple[float, ...]  # [j]: the average famine of round j's age
    final: float  # a unit's share of the final score


@lru_cache(maxsize=16)
def tables(rules: Ruleset) -> Tables:
    def manned(cards: list[Manned]) -> Manned:
        goods = tuple(fmean(c.goods[r] for c in cards) for r in range(4))
        return Manned(
            (goods[0], goods[1], goods[2], goods[3]),
            fmean(c.kept for c in cards),
            fmean(c.score for c in cards),
            fmean(c.deploy for c in cards),
        )

    def of(card_id: str) -> Manned:
        y = rules.cards[card_id].per_worker
        p, c = y.produce, y.consume
        return Manned(
            (p[0] - c[0], p[1] - c[1], p[2] - c[2], p[3] - c[3]),
            y.score + STRENGTH * y.strength + STABILITY * y.stability,
            y.score,
            rules.cards[card_id].deploy,
        )

    cards = {c: of(c) for c, card in rules.cards.items() if card.takes_workers}
    famine, future = [0.0], [Manned((0.0, 0.0, 0.0, 0.0), 0.0, 0.0, 0.0)]
    for j in range(1, rules.rounds + 1):
        age = rules.age_of(j)
        famine.append(fmean(rules.events[e].famine for e in rules.age_events[age]))
        buildings = [c for c in rules.age_cards[age] if rules.cards[c].type == "building"]
        future.append(manned([cards[c] for c in buildings]))
    return Tables(cards, tuple(future), tuple(famine), 1.0 / rules.resources_per_vp)


def _dot(a: Vector, b: Vector) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]


def _workers(rules: Ruleset, n: Nation, first: int, unit: Vector, final: Vector) -> float:
    """The chance that the nation's workers earn more elsewhere than where they stand, from
    production `first` on, at a discount (it takes actions and stone to seize). Every worker on a
    card may move, in a later age, to the age's average building (bought then, at a discount),
    for that card's stone; one of them may also move now to the nation's best card. A worker in
    the resource area earns, at each production, the better of the nation's best card and the
    age's average building, less the stone to deploy it."""
    t, rounds = tables(rules), rules.rounds
    if not n.idle and not any(slot.workers for slot in n.slots):
        return 0.0
    owned = [t.cards[slot.card] for slot in n.slots]
    stone = unit[1]
    # the age's average building at each production to come (the last at the final share)
    future = [FUTURE_SHARE * _dot(t.future[j].goods, unit) for j in range(first, rounds)]
    future_last = FUTURE_SHARE * _dot(t.future[rounds].goods, final)
    future_kept = FUTURE_SHARE * t.future[rounds].kept
    move = t.future[rounds].deploy * stone
    # a card's yield a production is the same at every production before the last
    best = max([0.0, *(_dot(m.goods, unit) for m in owned)])
    best_last = max([0.0, *(_dot(m.goods, final) for m in owned)])
    elsewhere = sum(max(best, f) for f in future) + max(best_last, future_last)
    elsewhere += max([future_kept, *(m.kept for m in owned)])
    elsewhere -= min([t.future[first].deploy, *(m.deploy for m in owned)]) * stone
    gain = n.idle * max(0.0, elsewhere)
    best_move = 0.0
    for slot, m in zip(n.slots, owned, strict=True):
        if not slot.workers:
            continue
        each, last = _dot(m.goods, unit), _dot(m.goods, final)
        here = each * len(future) + last + m.kept
        later = sum(max(0.0, f - each) for f in future) + max(0.0, future_last - last)
        later = max(0.0, later + max(0.0, future_kept - m.kept) - move)
        gain += slot.workers * later
        best_move = max(best_move, elsewhere - here - later)
    return WORKER_SHARE * (gain + best_move)


def _last(s: MatchState, n: Nation) -> float:
    """In the last round's action phase, the chance to put idle workers to work before the final
    production, as many as its stone can deploy on its best card: that production's yield and the
    VP they score, at a discount."""
    t = tables(s.rules)
    book = t.final + BOOKS
    worth = (t.final, t.final, t.final, book)
    best, deploy = 0.0, 1.0
    for slot in n.slots:
        m = t.cards[slot.card]
        if m.deploy > n.stone:
            continue
        gain = _dot(m.goods, worth) + m.score - m.deploy * t.final
        if gain > best:
            best, deploy = gain, m.deploy
    return WORKER_SHARE * best * min(n.idle, n.stone // max(1.0, deploy))


def nation_value(s: MatchState, p: int) -> float:
    """Player `p`'s nation at a state before round `s.round`'s production."""
    return _nation_value(s.rules, s.round, s.nations[p])


@lru_cache(maxsize=4096)  # a look-ahead values the same nations again and again
def _nation_value(rules: Ruleset, first: int, n: Nation) -> float:
    t = tables(rules)
    rounds = rules.rounds
    productions = rounds - first + 1
    final = t.final
    sheet = score_sheet(rules, n)
    steady, might = stability(rules, n), strength(rules, n)
    # the final score's 1 VP per full 10 of the resource sum (NR36), without its steps: the sum
    # still changes before the end
    resources = n.gold + n.stone + n.food + n.books + might + steady
    value = sheet.total - sheet.resources + final * max(0, resources)
    gains, costs = production(rules, n)
    net = [gains[r] - costs[r] for r in range(4)]
    value += final * sum(net) * productions  # every production's share of the final score
    held = (n.gold, n.stone, n.food)
    famine = sum(t.famine[first:rounds])
    margin = [0.0, 0.0, 0.0]
    # what can still be spent, against what the phases left can take; the last few phases
    # offer fewer chances (one board, a few architects), so it counts less there
    chances = min(1.0, productions / SPEND_PHASES)
    for r in range(3):
        supply = held[r] + net[r] * (productions - 1) - (famine if r == 2 else 0.0)
        room = CAPACITY[r] * productions
        if supply > 0:
            margin[r] = chances * math.exp(-supply / room)
            value += chances * SPEND[r] * room * (1.0 - math.exp(-supply / room))
        else:
            margin[r] = chances
            value += chances * SPEND[r] * supply
    value += BOOKS * (n.books + net[3] * productions)
    book = final + BOOKS
    famine_now = t.famine[first]
    for r in range(3):  # a good that runs short at the next production: a VP and a book a unit
        short = -(held[r] + net[r] - (famine_now if r == 2 else 0.0))
        if short > 0:
            value -= 1.0 + book * short
    if steady < 0:  # a revolt every production until it is mended
        value -= productions * (rules.revolt_vp + book * -steady)
    else:
        value += STABILITY * steady
    value += STRENGTH * might
    if n.wonder:
        wonder = rules.cards[n.wonder]
        done = n.built / len(wonder.sections)
        value += (0.3 + 0.6 * done) * wonder.lasting.score
    unit: Vector = (
        final + SPEND[0] * margin[0],
        final + SPEND[1] * margin[1],
        final + SPEND[2] * margin[2],
        book,
    )
    return value + _workers(rules, n, first, unit, (final, final, final, book))


def played_out(s: MatchState) -> MatchState:
    """The state after this round's resolution, as if every nation passed now."""
    out = s.clone()
    out.passed = (True,) * s.players
    out.decision = None
    resolve_round(out, [])
    return out


def evaluate(s: MatchState, me: int, play_out: bool = True) -> float:
    """Higher is better for player `me`. `play_out`: in the action phase, value the state after
    the round played out at once (for choices in the action phase; a growth choice is valued
    before the round, as the action phase to come can still put a new worker to work)."""
    d = s.decision
    if isinstance(d, GoldenD):  # the buyer's option is part of the purchase (NR33)
        after = [apply(s, d.player, a).state for a in legal_actions(s, d.player)]
        best = max(after, key=lambda a: evaluate(a, d.player, play_out))
        return evaluate(best, me, play_out)
    acting: tuple[bool, ...] = (False,) * s.players
    if play_out and isinstance(d, ActD):
        acting = tuple(not p for p in s.passed)
        s = played_out(s)
    if s.winner >= 0:
        values = [
            s.scores[p] + (_last(s, n) if acting[p] and n.idle else 0.0)
            for p, n in enumerate(s.nations)
        ]
        best_other = max(v for p, v in enumerate(values) if p != me)
        return (WIN if s.winner == me else -WIN) + values[me] - best_other
    values = [nation_value(s, p) for p in range(s.players)]
    return values[me] - max(v for p, v in enumerate(values) if p != me)


def evaluate_choice(before: MatchState, after: MatchState, me: int) -> float:
    """The value for `me` of `after`, the result of a choice made at `before`: a growth choice is
    valued before the round is played, any other after it (`evaluate`)."""
    return evaluate(after, me, play_out=not isinstance(before.decision, GrowthD))
