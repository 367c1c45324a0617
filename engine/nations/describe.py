"""`describe(state)`: a compact, stable text of the whole state (decks included) for goldens,
asserts and fingerprints; one topic a line."""

from __future__ import annotations

from typing import assert_never

from .economy import score_sheet, stability, strength
from .state import ActD, GoldenD, GrowthD, MatchState, seat_of


def _decision(s: MatchState) -> str:
    d = s.decision
    match d:
        case GrowthD(p):
            return f"growth({seat_of(p)})"
        case ActD(p):
            return f"turn({seat_of(p)})"
        case GoldenD(p, card):
            return f"golden_age({seat_of(p)} {card})"
        case None:
            return "none"
        case _:
            assert_never(d)


def describe(s: MatchState) -> str:
    rules, cols = s.rules, s.columns
    war = "-" if s.war is None else f"{s.war.card}@{s.war.strength} by {seat_of(s.war.buyer)}"
    lines = [
        f"v{s.version} round {s.round} age {s.age if s.round else 0} | decide {_decision(s)} | "
        f"order {' '.join(seat_of(p) for p in s.order)} | architects {s.architects} | "
        f"event {s.event or '-'} | war {war} (bought {s.wars_bought})",
    ]
    for r in range(rules.rows):
        row = s.board[r * cols : (r + 1) * cols]
        lines.append(f"row {r + 1}: " + " ".join(c or "." for c in row))
    for age, (deck, events) in enumerate(zip(s.decks, s.event_decks, strict=True), 1):
        lines.append(f"deck {age} (top last): {' '.join(deck) or '-'} | events {' '.join(events)}")
    for p, n in enumerate(s.nations):
        slots = " ".join(f"{sl.card}*{sl.workers}" for sl in n.slots) or "-"
        wonder = f"{n.wonder}:{n.built}" if n.wonder else "-"
        sheet = score_sheet(rules, n)
        lines.append(
            f"{seat_of(p)} {n.level} g{n.gold} s{n.stone} f{n.food} b{n.books} vp{n.vp} "
            f"idle{n.idle} grown{n.grown} str{strength(rules, n)} stab{stability(rules, n)} "
            f"{'passed ' if s.passed[p] else ''}| {slots} | colonies {' '.join(n.colonies) or '-'}"
            f" | advisor {n.advisor or '-'} | wonder {wonder} | wonders "
            f"{' '.join(n.wonders) or '-'} | score {sheet.total}"
        )
    if s.winner >= 0:
        lines.append(f"winner {seat_of(s.winner)} scores {' '.join(map(str, s.scores))}")
    return "\n".join(lines)
