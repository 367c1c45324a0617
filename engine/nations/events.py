"""Nations' events (what happened, past tense), one frozen record per type. Each record declares
the fields every viewer reads (`public`); nothing in the log comes from a deck before it is dealt,
so under NR1 every field of every event is public, and the declaration keeps it checkable."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import ClassVar, Final, Literal

from ..core.game import JSON, JSONObject, Viewer

Fields = tuple[str, ...]
Amounts = tuple[int, int, int, int]  # gold, stone, food, books


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


@dataclass(frozen=True, slots=True)
class Produced:
    """Resolution step 1 for one nation: what it took and what it paid (before shortages)."""

    type: ClassVar[str] = "produced"
    public: ClassVar[Fields] = ("seat", "gained", "paid")
    seat: str
    gained: Amounts
    paid: Amounts


@dataclass(frozen=True, slots=True)
class Revolted:
    type: ClassVar[str] = "revolted"
    public: ClassVar[Fields] = ("seat", "stability", "books", "vp")
    seat: str
    stability: int
    books: int  # lost
    vp: int  # lost


@dataclass(frozen=True, slots=True)
class ShortOf:
    """A nation could not pay (production or famine): the missing units and the penalty."""

    type: ClassVar[str] = "short_of"
    public: ClassVar[Fields] = ("seat", "missing", "books", "vp", "during")
    seat: str
    missing: Amounts
    books: int
    vp: int
    during: Literal["production", "famine"]


@dataclass(frozen=True, slots=True)
class OrderSet:
    type: ClassVar[str] = "order_set"
    public: ClassVar[Fields] = ("order",)
    order: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class WarResolved:
    type: ClassVar[str] = "war_resolved"
    public: ClassVar[Fields] = ("card", "strength", "defeated")
    card: str
    strength: int
    defeated: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Defeated:
    type: ClassVar[str] = "defeated"
    public: ClassVar[Fields] = ("seat", "card", "resource", "lost", "vp")
    seat: str
    card: str
    resource: str
    lost: int  # NR32: after positive stability, at most what it had
    vp: int


@dataclass(frozen=True, slots=True)
class EventResolved:
    """One of the event card's events: who led or was tied last in its measure (NR15)."""

    type: ClassVar[str] = "event_resolved"
    public: ClassVar[Fields] = ("card", "index", "measure", "leader", "last")
    card: str
    index: int
    measure: str
    leader: str | None  # the sole leader, when the event has an effect for one
    last: tuple[str, ...]  # every nation tied last, when the event has an effect for them


@dataclass(frozen=True, slots=True)
class FaminePaid:
    type: ClassVar[str] = "famine_paid"
    public: ClassVar[Fields] = ("seat", "food")
    seat: str
    food: int


@dataclass(frozen=True, slots=True)
class AgeScored:
    type: ClassVar[str] = "age_scored"
    public: ClassVar[Fields] = ("seat", "books", "vp")
    seat: str
    books: int
    vp: int


@dataclass(frozen=True, slots=True)
class MatchEnded:
    type: ClassVar[str] = "match_ended"
    public: ClassVar[Fields] = ("scores", "winner")
    scores: tuple[tuple[str, int], ...]  # by seat
    winner: str  # NR37: ties to the earlier in player order


Event = (
    MatchStarted
    | RoundStarted
    | ProgressCleared
    | ProgressDealt
    | Grew
    | BonusTaken
    | EventRevealed
    | ArchitectsPlaced
    | CardBought
    | WarDeclared
    | Gained
    | BattleFought
    | OptionChosen
    | Deployed
    | Undeployed
    | ArchitectHired
    | WonderCompleted
    | Passed
    | Produced
    | Revolted
    | ShortOf
    | OrderSet
    | WarResolved
    | Defeated
    | EventResolved
    | FaminePaid
    | AgeScored
    | MatchEnded
)
EVENT_TYPES: Final = (
    MatchStarted,
    RoundStarted,
    ProgressCleared,
    ProgressDealt,
    Grew,
    BonusTaken,
    EventRevealed,
    ArchitectsPlaced,
    CardBought,
    WarDeclared,
    Gained,
    BattleFought,
    OptionChosen,
    Deployed,
    Undeployed,
    ArchitectHired,
    WonderCompleted,
    Passed,
    Produced,
    Revolted,
    ShortOf,
    OrderSet,
    WarResolved,
    Defeated,
    EventResolved,
    FaminePaid,
    AgeScored,
    MatchEnded,
)
_FIELDS: Final[dict[type, Fields]] = {
    cls: tuple(f.name for f in fields(cls)) for cls in EVENT_TYPES
}


def _plain(value: object) -> JSON:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    assert value is None or isinstance(value, str | int)
    return value


def event_to_json(event: Event, names: Fields | None = None) -> JSONObject:
    """The event as JSON: "type" first, then `names` (default: every field)."""
    out: JSONObject = {"type": event.type}
    for name in _FIELDS[type(event)] if names is None else names:
        out[name] = _plain(getattr(event, name))
    return out


def events_to_json(events: Sequence[Event]) -> list[JSONObject]:
    """Every field of every event: the admin console's log."""
    return [event_to_json(e) for e in events]


def events_for(events: Sequence[Event], viewer: Viewer) -> list[JSONObject]:
    """The log `viewer` reads: each event's public fields (NR1: the same for every viewer)."""
    return [event_to_json(e, e.public) for e in events]
