"""The match state: every nation's board, the progress board, the decks, the round, the war and
whose decision it is.

Every container the state holds is immutable (tuples of NamedTuples), so `clone` is a shallow copy
and `apply` replaces what changes; the Ruleset (`rules`) is shared, never copied. Players are
indices 0..n-1 inside the engine and seats "p1".."pn" outside it.
"""

from __future__ import annotations

from typing import Final, NamedTuple, assert_never

from .actions import Action
from .catalog import Difficulty, Gainable
from .ruleset import Ruleset

RULES_VERSION: Final = "3"  # the current edition (data/editions.json; ruleset.rules_versions)
SEATS: Final = ("p1", "p2", "p3", "p4", "p5")


def seat_of(player: int) -> str:
    return SEATS[player]


def player_of(seat: str) -> int:
    """The player index of a seat name; KeyError for a name that is no seat."""
    if seat not in SEATS:
        raise KeyError(f"unknown seat {seat!r}")
    return SEATS.index(seat)


class Slot(NamedTuple):
    """A building or military card on a player board and the workers on it."""

    card: str
    workers: int


class Nation(NamedTuple):
    """One player's nation. Strength and stability are not stored: they are what the board adds
    up to (economy.py), so they change at once with every card and worker."""

    level: Difficulty
    gold: int
    stone: int
    food: int
    books: int  # NR29: one count; the 50-book tokens are how a view shows it
    vp: int  # NR30: may go below 0
    idle: int  # workers in the resource area
    grown: int  # spaces emptied on the population track, left to right
    slots: tuple[Slot, ...]  # building/military cards in board order, no gaps (NR23)
    colonies: tuple[str, ...]
    advisor: str  # "" when none
    wonder: str  # the wonder under construction, "" when none
    built: int  # sections of `wonder` built, one architect on each
    wonders: tuple[str, ...]  # completed wonders

    def amount(self, resource: Gainable) -> int:
        match resource:
            case "gold":
                return self.gold
            case "stone":
                return self.stone
            case "food":
                return self.food
            case "books":
                return self.books
            case "vp":
                return self.vp
            case _:
                assert_never(resource)

    def plus(self, resource: Gainable, amount: int) -> Nation:
        """This nation with `amount` more (or less) of one resource, unchecked."""
        match resource:
            case "gold":
                return self._replace(gold=self.gold + amount)
            case "stone":
                return self._replace(stone=self.stone + amount)
            case "food":
                return self._replace(food=self.food + amount)
            case "books":
                return self._replace(books=self.books + amount)
            case "vp":
                return self._replace(vp=self.vp + amount)
            case _:
                assert_never(resource)

    def workers_on(self, card: str) -> int:
        for slot in self.slots:
            if slot.card == card:
                return slot.workers
        return 0


class War(NamedTuple):
    """The war bought this round (NR10): its card, its buyer and the strength it was bought at."""

    card: str
    buyer: int
    strength: int


# ---- decisions: what the one deciding player must choose now ---------------------------------


class GrowthD(NamedTuple):
    """Maintenance step 3: grow or take a bonus (in reverse player order)."""

    player: int


class ActD(NamedTuple):
    """An action-phase turn: buy, deploy, hire or pass, after any free undeploying (NR11)."""

    player: int


class GoldenD(NamedTuple):
    """The option of a golden age just bought (NR33)."""

    player: int
    card: str


Decision = GrowthD | ActD | GoldenD


class MatchState:
    """A Nations match. Mutable inside the engine only; `apply` works on a clone."""

    __slots__ = (
        "_legal",
        "architects",
        "board",
        "decision",
        "decks",
        "event",
        "event_decks",
        "growth",
        "nations",
        "order",
        "passed",
        "players",
        "rng",
        "round",
        "rules",
        "scores",
        "seed",
        "version",
        "war",
        "wars_bought",
        "winner",
    )

    rules: Ruleset
    seed: int
    rng: int
    version: int
    players: int
    round: int  # 1..8
    order: tuple[int, ...]  # player order, first to last
    nations: tuple[Nation, ...]  # by player index
    board: tuple[str, ...]  # rows * columns slots, row-major, "" empty
    decks: tuple[tuple[str, ...], ...]  # progress deck of each age (index 0 = age I), top last
    event_decks: tuple[tuple[str, ...], ...]
    event: str  # the historical event of this round, "" before the first reveal
    architects: int  # on the scoring board
    war: War | None
    wars_bought: int  # this round (NR10: at most one)
    passed: tuple[bool, ...]  # by player index, this action phase
    growth: tuple[int, ...]  # players still to choose growth, next first
    decision: Decision | None
    scores: tuple[int, ...]  # the final scores, () until the end
    winner: int  # -1 until the end
    _legal: tuple[Decision, list[Action]] | None  # legal actions of `decision`, once computed

    def clone(self) -> MatchState:
        """A copy to change: every field holds immutable values, so a shallow copy is enough
        (each field written out: a loop over STATE_FIELDS cost a tenth of `apply`)."""
        c = MatchState.__new__(MatchState)
        c.rules, c.seed, c.rng, c.version = self.rules, self.seed, self.rng, self.version
        c.players, c.round, c.order, c.nations = self.players, self.round, self.order, self.nations
        c.board, c.decks, c.event_decks = self.board, self.decks, self.event_decks
        c.event, c.architects, c.war, c.wars_bought = (
            self.event,
            self.architects,
            self.war,
            self.wars_bought,
        )
        c.passed, c.growth, c.decision = self.passed, self.growth, self.decision
        c.scores, c.winner, c._legal = self.scores, self.winner, None
        return c

    @property
    def columns(self) -> int:
        return self.rules.columns[self.players]

    @property
    def age(self) -> int:
        return self.rules.age_of(self.round)

    @property
    def over(self) -> bool:
        return self.winner >= 0


# The fields that make a state (the JSON round trip writes these; rules and the cache are not).
STATE_FIELDS: Final = (
    "seed",
    "rng",
    "version",
    "players",
    "round",
    "order",
    "nations",
    "board",
    "decks",
    "event_decks",
    "event",
    "architects",
    "war",
    "wars_bought",
    "passed",
    "growth",
    "decision",
    "scores",
    "winner",
)
