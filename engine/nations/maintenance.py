"""Maintenance: the round marker, the progress board sliding and refilling (NR3, NR22), growth in
reverse player order (NR14), the historical event, and the architects (NR5, NR25, NR41)."""

from __future__ import annotations

from .actions import GROW, Action, Bonus, Grow, offer
from .catalog import GOODS
from .effects import set_nation
from .events import (
    ArchitectsPlaced,
    BonusTaken,
    Event,
    EventRevealed,
    Grew,
    ProgressCleared,
    ProgressDealt,
    RoundStarted,
)
from .state import ActD, GrowthD, MatchState, seat_of


def begin_round(s: MatchState, ev: list[Event]) -> None:
    """Maintenance steps 1–2, then the first growth decision (step 3)."""
    s.round += 1
    ev.append(RoundStarted(s.round, s.age))
    _refresh_board(s, ev)
    s.growth = tuple(reversed(s.order))
    s.decision = GrowthD(s.growth[0])


def _refresh_board(s: MatchState, ev: list[Event]) -> None:
    """Rows 1 and 2 leave the game, row 3 slides to row 1, then every empty slot fills from the
    age's deck, row-major (NR22); at a new age the slid cards stay (NR3). The decks are sized so
    that the deck never runs out (NR38)."""
    board = s.board
    if s.round > 1:
        cut = s.rules.rows_removed * s.columns
        removed = tuple(c for c in board[:cut] if c)
        slid = board[cut:]
        ev.append(ProgressCleared(removed, tuple(c for c in slid if c)))
        board = (*slid, *([""] * cut))
    age = s.age
    deck = list(s.decks[age - 1])
    filled, dealt = list(board), []
    for i, card in enumerate(filled):
        if not card and deck:  # a deck that runs out leaves slots empty (NR22)
            filled[i] = deck.pop()
            dealt.append((i, filled[i]))
    s.board = tuple(filled)
    s.decks = (*s.decks[: age - 1], tuple(deck), *s.decks[age:])
    ev.append(ProgressDealt(age, tuple(dealt), len(deck)))


def growth_choices(s: MatchState, d: GrowthD) -> list[Action]:
    """Grow while the population track has workers; each good's bonus always (NR14)."""
    n = s.nations[d.player]
    out: list[Action] = [GROW] if n.grown < len(s.rules.population_track) else []
    out += [offer(Bonus, good) for good in ("food", "stone", "gold")]
    return out


def resolve_growth(s: MatchState, d: GrowthD, action: Action, ev: list[Event]) -> None:
    p, rules = d.player, s.rules
    n, seat = s.nations[p], seat_of(p)
    match action:
        case Grow():
            cost, amount = rules.population_track[n.grown]
            ev.append(Grew(seat, n.grown, cost, amount))
            set_nation(s, p, n._replace(grown=n.grown + 1, idle=n.idle + 1))
        case Bonus(good):
            amount = rules.levels[n.level].bonus[GOODS.index(good)]
            ev.append(BonusTaken(seat, good, amount))
            set_nation(s, p, n.plus(good, amount))
        case _:
            raise AssertionError(f"{action} is not a growth action")
    s.growth = s.growth[1:]
    if s.growth:
        s.decision = GrowthD(s.growth[0])
        return
    _reveal_event(s, ev)
    _place_architects(s, ev)
    start_actions(s)


def _reveal_event(s: MatchState, ev: list[Event]) -> None:
    age = s.age
    deck = list(s.event_decks[age - 1])
    s.event = deck.pop()
    s.event_decks = (*s.event_decks[: age - 1], tuple(deck), *s.event_decks[age:])
    ev.append(EventRevealed(s.event, len(deck)))


def architects_for(s: MatchState) -> int:
    """The architects of this round: in round 1 the set-up's (NR41); later the event card's
    number, plus one for each player beyond two (NR5)."""
    rules = s.rules
    if s.round == 1 and rules.setup_architects[s.players]:  # (rules version 1 placed none)
        return rules.setup_architects[s.players]
    return rules.events[s.event].architects + rules.round_architects_added[s.players]


def _place_architects(s: MatchState, ev: list[Event]) -> None:
    """Step 5. NR41: in round 1 the set-up's architects are not "left over" from a round but
    placed for this one, so they stay (none returned); from round 2 on, the ones not hired go back
    (NR25: the supply is unlimited) and the round's number is placed."""
    returned = 0 if s.round == 1 else s.architects
    s.architects = architects_for(s)
    ev.append(ArchitectsPlaced(returned, s.architects))


def start_actions(s: MatchState) -> None:
    s.passed = (False,) * s.players
    s.wars_bought = 0
    s.decision = ActD(s.order[0])
