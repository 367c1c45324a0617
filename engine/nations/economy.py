"""What a nation's board adds up to: military strength, stability, production, the best manned
attack, the event measures, and the final score sheet. Derived every time from the cards and
workers, never stored, so they change at once with the board (the seed's "ajuste imediatamente")."""

from __future__ import annotations

from typing import NamedTuple, assert_never

from .catalog import Measure, ScoreWhat, Yield
from .ruleset import Ruleset
from .state import Nation


def _in_force(rules: Ruleset, n: Nation) -> list[tuple[Yield, int]]:
    """Every in-force yield of the nation with how many times it counts."""
    cards = rules.cards
    out = [(cards[s.card].per_worker, s.workers) for s in n.slots if s.workers]
    out += [(cards[c].lasting, 1) for c in n.colonies]
    out += [(cards[c].lasting, 1) for c in n.wonders]
    if n.advisor:
        out.append((cards[n.advisor].lasting, 1))
    return out


def strength(rules: Ruleset, n: Nation) -> int:
    return sum(y.strength * k for y, k in _in_force(rules, n))


def population_costs(rules: Ruleset, n: Nation) -> tuple[int, int]:
    """(food at every production, stability lost) of the spaces emptied on the population track."""
    food = stability = 0
    for cost, amount in rules.population_track[: n.grown]:
        if cost == "food":
            food += amount
        else:
            stability += amount
    return food, stability


def stability(rules: Ruleset, n: Nation) -> int:
    return sum(y.stability * k for y, k in _in_force(rules, n)) - population_costs(rules, n)[1]


def production(rules: Ruleset, n: Nation) -> tuple[list[int], list[int]]:
    """(gains, costs) of gold, stone, food, books at production; the growth's food is a cost."""
    gains, costs = [0, 0, 0, 0], [0, 0, 0, 0]
    for y, k in _in_force(rules, n):
        for r in range(4):
            gains[r] += y.produce[r] * k
            costs[r] += y.consume[r] * k
    costs[2] += population_costs(rules, n)[0]
    return gains, costs


def best_attack(rules: Ruleset, n: Nation) -> int:
    """NR40: the highest attack of a military card with at least one worker (0 without one)."""
    cards = rules.cards
    return max(
        (cards[s.card].attack for s in n.slots if s.workers and cards[s.card].type == "military"),
        default=0,
    )


def count(rules: Ruleset, n: Nation, what: ScoreWhat) -> int:
    match what:
        case "colony":
            return len(n.colonies)
        case "wonder":
            return len(n.wonders)
        case "building" | "military":
            return sum(1 for s in n.slots if rules.cards[s.card].type == what)
        case _:
            assert_never(what)


def measure(rules: Ruleset, n: Nation, m: Measure) -> int:
    """The value an event compares (NR35)."""
    match m:
        case "strength":
            return strength(rules, n)
        case "stability":
            return stability(rules, n)
        case "books":
            return n.books
        case "gold":
            return n.gold
        case "food":
            return n.food
        case "stone":
            return n.stone
        case "buildings":
            return count(rules, n, "building")
        case "colonies":
            return len(n.colonies)
        case "wonders":
            return len(n.wonders)
        case _:
            assert_never(m)


class ScoreSheet(NamedTuple):
    """The final score's categories (seed: Fim de Jogo e Pontuação)."""

    tokens: int
    colonies: int
    wonders: int
    cards: int  # buildings and military: VP per worker times workers
    resources: int  # NR36: 1 per full 10 of the resource sum, 0 below 10
    total: int


def score_sheet(rules: Ruleset, n: Nation) -> ScoreSheet:
    cards = rules.cards

    def owned_score(card_id: str) -> int:
        y = cards[card_id].lasting
        return y.score + sum(p.amount * count(rules, n, p.what) for p in y.score_per)

    colonies = sum(owned_score(c) for c in n.colonies)
    wonders = sum(owned_score(c) for c in n.wonders)
    on_cards = sum(cards[s.card].per_worker.score * s.workers for s in n.slots)
    total_resources = n.gold + n.food + n.stone + n.books + strength(rules, n) + stability(rules, n)
    resources = max(0, total_resources // rules.resources_per_vp)
    total = n.vp + colonies + wonders + on_cards + resources
    return ScoreSheet(n.vp, colonies, wonders, on_cards, resources, total)
