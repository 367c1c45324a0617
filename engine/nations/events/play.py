"""Events of set-up, maintenance and the action phase: one frozen record per type, each
declaring the fields every viewer reads (`public`: all of them, NR1)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from .shared import Fields


@dataclass(frozen=True, slots=True)
class MatchStarted:
    type: ClassVar[str] = "match_started"
    public: ClassVar[Fields] = ("players", "order", "levels", "books")
    players: int
    order: tuple[str, ...]  # NR2: drawn at random
    levels: tuple[str, ...]  # by seat
    books: tuple[int, ...]  # NR18: by seat, the place in player order


@dataclass(frozen=True, slots=True)
class RoundStarted:
    type: ClassVar[str] = "round_started"
    public: ClassVar[Fields] = ("round", "age")
    round: int
    age: int


@dataclass(frozen=True, slots=True)
class ProgressCleared:
    """Maintenance step 2: rows 1 and 2 removed, row 3 slid to row 1."""

    type: ClassVar[str] = "progress_cleared"
    public: ClassVar[Fields] = ("removed", "slid")
    removed: tuple[str, ...]
    slid: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ProgressDealt:
    """Empty slots filled from the age's deck: (slot index, card), row-major (NR22)."""

    type: ClassVar[str] = "progress_dealt"
    public: ClassVar[Fields] = ("age", "cards", "left")
    age: int
    cards: tuple[tuple[int, str], ...]
    left: int  # cards still in the deck (a count: NR1)


@dataclass(frozen=True, slots=True)
class Grew:
    type: ClassVar[str] = "grew"
    public: ClassVar[Fields] = ("seat", "space", "cost", "amount")
    seat: str
    space: int  # the population-track space emptied (0 = leftmost)
    cost: Literal["food", "stability"]
    amount: int


@dataclass(frozen=True, slots=True)
class BonusTaken:
    type: ClassVar[str] = "bonus_taken"
    public: ClassVar[Fields] = ("seat", "resource", "amount")
    seat: str
    resource: str
    amount: int


@dataclass(frozen=True, slots=True)
class EventRevealed:
    type: ClassVar[str] = "event_revealed"
    public: ClassVar[Fields] = ("card", "left")
    card: str
    left: int


@dataclass(frozen=True, slots=True)
class ArchitectsPlaced:
    """Maintenance step 5 (NR5, NR25)."""

    type: ClassVar[str] = "architects_placed"
    public: ClassVar[Fields] = ("returned", "placed")
    returned: int
    placed: int


@dataclass(frozen=True, slots=True)
class CardBought:
    type: ClassVar[str] = "card_bought"
    public: ClassVar[Fields] = ("seat", "card", "row", "gold", "replaced", "returned")
    seat: str
    card: str
    row: int  # 1..3
    gold: int
    replaced: str | None  # NR8
    returned: int  # workers (or architects, for a wonder) the replaced card gave back


@dataclass(frozen=True, slots=True)
class WarDeclared:
    type: ClassVar[str] = "war_declared"
    public: ClassVar[Fields] = ("seat", "card", "strength")
    seat: str
    card: str
    strength: int  # NR10: the buyer's strength when bought


@dataclass(frozen=True, slots=True)
class Gained:
    """A once-only operation changed a nation's resources or VP (`amount` negative for a loss)."""

    type: ClassVar[str] = "gained"
    public: ClassVar[Fields] = ("seat", "resource", "amount", "source")
    seat: str
    resource: str
    amount: int
    source: str  # the card or event card


@dataclass(frozen=True, slots=True)
class BattleFought:
    type: ClassVar[str] = "battle_fought"
    public: ClassVar[Fields] = ("seat", "card", "attack")
    seat: str
    card: str
    attack: int  # NR40: the best manned military card's attack


@dataclass(frozen=True, slots=True)
class OptionChosen:
    type: ClassVar[str] = "option_chosen"
    public: ClassVar[Fields] = ("seat", "card", "option")
    seat: str
    card: str
    option: int


@dataclass(frozen=True, slots=True)
class Deployed:
    type: ClassVar[str] = "deployed"
    public: ClassVar[Fields] = ("seat", "card", "source", "stone")
    seat: str
    card: str
    source: str | None
    stone: int


@dataclass(frozen=True, slots=True)
class Undeployed:
    type: ClassVar[str] = "undeployed"
    public: ClassVar[Fields] = ("seat", "card")
    seat: str
    card: str


@dataclass(frozen=True, slots=True)
class ArchitectHired:
    type: ClassVar[str] = "architect_hired"
    public: ClassVar[Fields] = ("seat", "wonder", "section", "stone")
    seat: str
    wonder: str
    section: int  # 1-based
    stone: int


@dataclass(frozen=True, slots=True)
class WonderCompleted:
    type: ClassVar[str] = "wonder_completed"
    public: ClassVar[Fields] = ("seat", "wonder", "architects")
    seat: str
    wonder: str
    architects: int  # back to the supply


@dataclass(frozen=True, slots=True)
class Passed:
    type: ClassVar[str] = "passed"
    public: ClassVar[Fields] = ("seat",)
    seat: str
