"""Resolution, in the seed's order: production with revolt and shortage penalties (NR12, NR34),
player order, the war (NR10, NR32), the two events (NR13, NR15, NR42), famine (NR31), the end-of-age
book scoring, and after round 8 the final score and its tie-break (NR16, NR36, NR37)."""

from __future__ import annotations

from .catalog import RESOURCES
from .economy import measure, production, score_sheet, stability, strength
from .effects import run_once, set_nation
from .events import (
    AgeScored,
    Defeated,
    Event,
    EventResolved,
    FaminePaid,
    MatchEnded,
    OrderSet,
    Produced,
    Revolted,
    ShortOf,
    WarResolved,
)
from .maintenance import begin_round
from .state import MatchState, Nation, seat_of


def resolve_round(s: MatchState, ev: list[Event]) -> None:
    """Run the whole resolution phase, then the next round's maintenance or the end."""
    for p in range(s.players):
        _produce(s, p, ev)
    _set_order(s, ev)
    _war(s, ev)
    _events(s, ev)
    for p in range(s.players):
        _famine(s, p, ev)
    if s.round in s.rules.end_of_age_rounds:
        _score_age(s, ev)
    if s.round >= s.rules.rounds:
        _finish(s, ev)  # NR16: no maintenance follows round 8
    else:
        begin_round(s, ev)


def _penalty(s: MatchState, n: Nation, missing: list[int]) -> tuple[Nation, int, int]:
    """1 book per missing unit and 1 VP per resource short, at most the cap (seed, NR29)."""
    rules = s.rules
    books = min(n.books, sum(missing) * rules.shortage_books_per_unit)
    short = sum(1 for m in missing if m)
    vp = min(rules.shortage_vp_cap, short * rules.shortage_vp_per_resource)
    return n._replace(books=n.books - books, vp=n.vp - vp), books, vp


def _produce(s: MatchState, p: int, ev: list[Event]) -> None:
    rules, n, seat = s.rules, s.nations[p], seat_of(p)
    gains, costs = production(rules, n)
    have = [n.gold, n.stone, n.food, n.books]
    missing = [0, 0, 0, 0]
    for r in range(len(RESOURCES)):
        value = have[r] + gains[r] - costs[r]  # NR12: gains before costs
        if value < 0:
            missing[r], value = -value, 0
        have[r] = value
    n = n._replace(gold=have[0], stone=have[1], food=have[2], books=have[3])
    ev.append(Produced(seat, _four(gains), _four(costs)))
    below = stability(rules, n)
    if below < 0:  # revolt (NR34: stability read at production, after the gains)
        books = min(n.books, -below * rules.revolt_books_per_point)
        n = n._replace(books=n.books - books, vp=n.vp - rules.revolt_vp)
        ev.append(Revolted(seat, below, books, rules.revolt_vp))
    if any(missing):
        n, books, vp = _penalty(s, n, missing)
        ev.append(ShortOf(seat, _four(missing), books, vp, "production"))
    set_nation(s, p, n)


def _four(values: list[int]) -> tuple[int, int, int, int]:
    return values[0], values[1], values[2], values[3]


def _set_order(s: MatchState, ev: list[Event]) -> None:
    """Higher strength first, then higher stability, then the old relative order (a stable
    sort keeps it)."""
    rules, nations = s.rules, s.nations
    keys = {p: (-strength(rules, nations[p]), -stability(rules, nations[p])) for p in s.order}
    s.order = tuple(sorted(s.order, key=keys.__getitem__))
    ev.append(OrderSet(tuple(seat_of(p) for p in s.order)))


def _war(s: MatchState, ev: list[Event]) -> None:
    war = s.war
    if war is None:
        return
    rules = s.rules
    (loss,) = rules.cards[war.card].defeat
    losers = tuple(
        p
        for p in s.order
        if p != war.buyer and strength(rules, s.nations[p]) < war.strength  # NR10
    )
    ev.append(WarResolved(war.card, war.strength, tuple(seat_of(p) for p in losers)))
    for p in losers:
        n = s.nations[p]
        reduced = max(0, loss.amount - max(0, stability(rules, n)))  # NR32
        lost = reduced if loss.resource == "vp" else min(reduced, n.amount(loss.resource))
        n = n.plus(loss.resource, -lost).plus("vp", -rules.war_defeat_vp)
        set_nation(s, p, n)
        ev.append(Defeated(seat_of(p), war.card, loss.resource, lost, rules.war_defeat_vp))
    s.war = None


def winners(values: list[int], places: int) -> list[int]:
    """NR15, NR42: the nations a positive event reaches — each holding its value alone with fewer
    than `places` nations ahead of it, strongest first (one place: the sole leader; a tie at the
    top reaches nobody, and a tie reaches no place below it)."""
    out = []
    for p in sorted(range(len(values)), key=lambda q: -values[q]):
        ahead = sum(1 for v in values if v > values[p])
        if ahead >= places or values.count(values[p]) > 1:
            break  # a tie here, or the places are used up: nobody further down gains
        out.append(p)
    return out


def losers(values: list[int], places: int) -> set[int]:
    """NR15, NR42: the nations a negative event reaches — those with fewer than `places` nations
    below them (one place: everyone tied for last; two: the last two, every nation tied with
    them included)."""
    return {p for p, v in enumerate(values) if sum(1 for w in values if w < v) < places}


def _events(s: MatchState, ev: list[Event]) -> None:
    """Each event compares its measure as it stands now (NR13): the leaders it reaches gain and
    the last ones lose, as many places as the player count says (NR15, NR42)."""
    rules = s.rules
    card = rules.events[s.event]
    for index, event in enumerate(card.events):
        values = [measure(rules, n, event.measure) for n in s.nations]
        gain = winners(values, rules.event_winners[s.players]) if event.leader else []
        hurt = losers(values, rules.event_losers[s.players]) if event.last else set()
        last = tuple(p for p in s.order if p in hurt)
        ev.append(
            EventResolved(
                card.id,
                index,
                event.measure,
                None if not gain else seat_of(gain[0]),
                tuple(seat_of(p) for p in last),
                tuple(seat_of(p) for p in gain),
            )
        )
        for p in gain:
            for op in event.leader:
                run_once(s, p, op, card.id, ev)
        for p in last:
            for op in event.last:
                run_once(s, p, op, card.id, ev)


def _famine(s: MatchState, p: int, ev: list[Event]) -> None:
    rules, n, seat = s.rules, s.nations[p], seat_of(p)
    food = rules.events[s.event].famine
    paid = min(food, n.food)
    n = n._replace(food=n.food - paid)
    ev.append(FaminePaid(seat, paid))
    if paid < food:  # NR31: as a production shortage
        n, books, vp = _penalty(s, n, [0, 0, food - paid, 0])
        ev.append(ShortOf(seat, (0, 0, food - paid, 0), books, vp, "famine"))
    set_nation(s, p, n)


def _score_age(s: MatchState, ev: list[Event]) -> None:
    books = [n.books for n in s.nations]
    for p in range(s.players):
        fewer = sum(1 for b in books if b < books[p])
        vp = fewer * s.rules.age_vp_per_nation_behind
        set_nation(s, p, s.nations[p].plus("vp", vp))
        ev.append(AgeScored(seat_of(p), books[p], vp))


def _finish(s: MatchState, ev: list[Event]) -> None:
    """NR37: the highest total wins; a tie goes to the earlier nation in player order."""
    s.scores = tuple(score_sheet(s.rules, n).total for n in s.nations)
    best = max(s.scores)
    s.winner = next(p for p in s.order if s.scores[p] == best)
    s.decision = None
    ev.append(
        MatchEnded(tuple((seat_of(p), s.scores[p]) for p in range(s.players)), seat_of(s.winner))
    )
