"""The public engine: set-up (NR2, NR6, NR7, NR18, NR41), `legal_actions`, `apply` and `replay`.

A state always waits for one player's decision (growth, a turn, a golden age's option) or is
over; `apply` resolves the decision and runs everything that needs no choice — the rest of the
action phase's bookkeeping, resolution, the next maintenance — up to the next decision (NR14).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

from ..core.actions import find_offered
from ..core.errors import IllegalAction, MatchOver, NotYourDecision
from ..core.game import Step
from ..core.rng import Generator, initial_state, shuffle
from .actions import ACTION_TYPES, Action, parse_action
from .catalog import DIFFICULTIES, Difficulty
from .events import Event, MatchStarted
from .maintenance import begin_round, growth_choices, resolve_growth
from .resolution import resolve_round
from .ruleset import AGES, Ruleset
from .state import ActD, GoldenD, GrowthD, MatchState, Nation, Slot, seat_of
from .turns import act_choices, golden_choices, resolve_act, resolve_golden

DEAL_GENERATOR: Final[Generator] = "sha256-ctr"  # every deal from a secret seed (fairness)

NationsStep = Step[MatchState, Event]

_CHOICES: Final[dict[type, Callable[[MatchState, Any], list[Action]]]] = {
    GrowthD: growth_choices,
    ActD: act_choices,
    GoldenD: golden_choices,
}
_RESOLVERS: Final[dict[type, Callable[[MatchState, Any, Action, list[Event]], None]]] = {
    GrowthD: resolve_growth,
    ActD: resolve_act,
    GoldenD: resolve_golden,
}


def start(
    seed: int, rules: Ruleset, players: int = 2, levels: Sequence[Difficulty] | None = None
) -> NationsStep:
    """Set up a match (NR2: every shuffle happens here) up to the first growth decision."""
    chosen = check_options(rules, players, levels)
    s = MatchState.__new__(MatchState)
    s.rules, s.seed, s.players = rules, seed, players
    rng = initial_state(DEAL_GENERATOR, seed)
    order = list(range(players))
    rng = shuffle(rng, order)
    decks, event_decks = [], []
    for age in AGES:
        deck = list(rules.deck(age, players))
        rng = shuffle(rng, deck)
        decks.append(tuple(deck))
    for age in AGES:
        events = list(rules.age_events[age])
        rng = shuffle(rng, events)
        event_decks.append(tuple(events))
    s.rng, s.decks, s.event_decks, s.order = rng, tuple(decks), tuple(event_decks), tuple(order)
    s.nations = tuple(_nation(rules, chosen[p], order.index(p) + 1) for p in range(players))
    # NR41: the seed's starting architects are on the scoring board before the first round
    s.version, s.round, s.event, s.architects = 0, 0, "", rules.setup_architects[players]
    s.board = ("",) * (rules.rows * rules.columns[players])
    s.war, s.wars_bought, s.passed, s.growth = None, 0, (False,) * players, ()
    s.decision, s.scores, s.winner, s._legal = None, (), -1, None
    ev: list[Event] = [
        MatchStarted(
            players,
            tuple(seat_of(p) for p in order),
            chosen,
            tuple(n.books for n in s.nations),
        )
    ]
    begin_round(s, ev)
    return Step(s, tuple(ev))


def check_options(
    rules: Ruleset, players: int, levels: Sequence[Difficulty] | None
) -> tuple[Difficulty, ...]:
    """The levels of a match of `players` (NR6: Prince for all by default), else ValueError."""
    if players not in rules.player_counts:
        raise ValueError(f"Nations takes {rules.player_counts} players, not {players}")
    chosen = tuple(levels) if levels is not None else (rules.default_level,) * players
    if len(chosen) != players or any(lv not in DIFFICULTIES for lv in chosen):
        raise ValueError(f"one difficulty of {DIFFICULTIES} per player, got {chosen}")
    return chosen


def _nation(rules: Ruleset, level: Difficulty, place: int) -> Nation:
    """Side A (NR7) with the level's goods (NR6); books = the place in player order (NR18).
    NR41: the printed cards' workers are as the data says, so strength and stability start at 0."""
    gold, stone, food = rules.levels[level].start
    slots = tuple(Slot(card, rules.starting_workers[card]) for card in rules.starting_cards)
    return Nation(
        level, gold, stone, food, place, 0, rules.idle_workers, 0, slots, (), "", "", 0, ()
    )


def legal_actions(s: MatchState, player: int) -> Sequence[Action]:
    """Every action `player` may take now; empty if the decision is another's or it is over.
    Nothing here reads a deck (NR1). Do not mutate the returned list."""
    d = s.decision
    if d is None or s.winner >= 0 or d.player != player:
        return []
    cached = s._legal
    if cached is not None and cached[0] is d:
        return cached[1]
    actions = _CHOICES[type(d)](s, d)
    s._legal = (d, actions)
    return actions


def apply(s: MatchState, player: int, action: object) -> NationsStep:
    """Apply one action of `player`; never mutates `s`. Raises MatchOver, NotYourDecision,
    MalformedAction or IllegalAction, in that order of checks."""
    if s.winner >= 0:
        raise MatchOver("The match is over.")
    d = s.decision
    if d is None or d.player != player:
        raise NotYourDecision("It is not your decision now.")
    legal = legal_actions(s, player)
    act, is_legal = find_offered(legal, action, parse_action, ACTION_TYPES)
    if not is_legal:
        raise IllegalAction(
            "That action is not one of your legal actions now; choose one of those offered."
        )
    n = s.clone()
    n.decision = None
    ev: list[Event] = []
    _RESOLVERS[type(d)](n, d, act, ev)
    n.version += 1
    if n.decision is None and n.winner < 0:
        resolve_round(n, ev)  # every nation has passed
    return Step(n, tuple(ev))


def replay(
    seed: int,
    rules: Ruleset,
    actions: Iterable[tuple[int, object]],
    players: int = 2,
    levels: Sequence[Difficulty] | None = None,
) -> MatchState:
    """Rebuild a match from its seed, options and ordered (player, action) list."""
    s = start(seed, rules, players, levels).state
    for player, action in actions:
        s = apply(s, player, action).state
    return s
