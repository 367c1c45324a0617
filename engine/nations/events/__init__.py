"""Nations' events (what happened, past tense), one frozen record per type. Each record declares
the fields every viewer reads (`public`); nothing in the log comes from a deck before it is dealt,
so under NR1 every field of every event is public, and the declaration keeps it checkable."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import Final

from ...core.game import JSON, JSONObject, Viewer
from .play import (
    ArchitectHired,
    ArchitectsPlaced,
    BattleFought,
    BonusTaken,
    CardBought,
    Deployed,
    EventRevealed,
    Gained,
    Grew,
    MatchStarted,
    OptionChosen,
    Passed,
    ProgressCleared,
    ProgressDealt,
    RoundStarted,
    Undeployed,
    WarDeclared,
    WonderCompleted,
)
from .resolution import (
    AgeScored,
    Defeated,
    EventResolved,
    FaminePaid,
    MatchEnded,
    OrderSet,
    Produced,
    Revolted,
    ShortOf,
    WarResolved,
)
from .shared import Amounts, Fields

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


__all__ = [
    "EVENT_TYPES",
    "AgeScored",
    "Amounts",
    "ArchitectHired",
    "ArchitectsPlaced",
    "BattleFought",
    "BonusTaken",
    "CardBought",
    "Defeated",
    "Deployed",
    "Event",
    "EventResolved",
    "EventRevealed",
    "FaminePaid",
    "Fields",
    "Gained",
    "Grew",
    "MatchEnded",
    "MatchStarted",
    "OptionChosen",
    "OrderSet",
    "Passed",
    "Produced",
    "ProgressCleared",
    "ProgressDealt",
    "Revolted",
    "RoundStarted",
    "ShortOf",
    "Undeployed",
    "WarDeclared",
    "WarResolved",
    "WonderCompleted",
    "event_to_json",
    "events_for",
    "events_to_json",
]
