"""Events of the resolution phase and the end: one frozen record per type, each declaring the
fields every viewer reads (`public`: all of them, NR1)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from .shared import Amounts, Fields


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
    """One of the event card's events: who led or was last in its measure (NR15, NR42)."""

    type: ClassVar[str] = "event_resolved"
    public: ClassVar[Fields] = ("card", "index", "measure", "leader", "last", "leaders")
    card: str
    index: int
    measure: str
    leader: str | None  # the sole leader, when the event has an effect for one
    last: tuple[str, ...]  # every nation it hurts, when the event has an effect for them
    leaders: tuple[str, ...]  # every nation it rewards, strongest first (two at five: NR42)


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
