"""The log: the union of Watergate's event records, each viewer's projection of them (whitelists
declared on the records) and the admin's full JSON of every field."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from typing import Final, assert_never

from ...core.game import JSON, JSONObject, Viewer
from .plays import (
    CardDiscarded,
    CardPlayed,
    CardRemoved,
    CardReplayed,
    CardsDrawn,
    DeckReshuffled,
    EvaluationStarted,
    FaceDownAsked,
    FaceDownDenied,
    GambitKept,
    InstructionSkipped,
    InstructionStopped,
    MatchStarted,
    MatchWon,
    NothingMoved,
    OnlyChoice,
    PlayCancelled,
    ReactionPassed,
    RestrictionAdded,
    RoundStarted,
    TopCardDrawn,
)
from .shared import TokenPayload, sees_face_down
from .tokens import (
    BoardEvidenceFlipped,
    BoardEvidenceRemoved,
    EvidenceGained,
    EvidencePinned,
    InitiativeGained,
    MomentumGained,
    MomentumPlaced,
    MomentumRemoved,
    MomentumReturned,
    PictureFlipped,
    PicturePinned,
    TokenDrawnFromBag,
    TokenMoved,
    TokenReturnedToBag,
    TokenRevealed,
    TokensPlaced,
    TokensReset,
    TrackPeeked,
)

Event = (
    MatchStarted
    | RoundStarted
    | CardsDrawn
    | DeckReshuffled
    | TokensPlaced
    | TopCardDrawn
    | CardPlayed
    | TokenRevealed
    | TokenMoved
    | MomentumGained
    | MomentumPlaced
    | MomentumRemoved
    | MomentumReturned
    | InitiativeGained
    | EvidenceGained
    | EvidencePinned
    | TokenDrawnFromBag
    | TokenReturnedToBag
    | PicturePinned
    | PictureFlipped
    | BoardEvidenceFlipped
    | BoardEvidenceRemoved
    | TrackPeeked
    | RestrictionAdded
    | NothingMoved
    | InstructionStopped
    | InstructionSkipped
    | FaceDownAsked
    | FaceDownDenied
    | ReactionPassed
    | OnlyChoice
    | PlayCancelled
    | CardRemoved
    | CardDiscarded
    | GambitKept
    | CardReplayed
    | EvaluationStarted
    | TokensReset
    | MatchWon
)
EVENT_TYPES: Final[tuple[type[Event], ...]] = (
    MatchStarted,
    RoundStarted,
    CardsDrawn,
    DeckReshuffled,
    TokensPlaced,
    TopCardDrawn,
    CardPlayed,
    TokenRevealed,
    TokenMoved,
    MomentumGained,
    MomentumPlaced,
    MomentumRemoved,
    MomentumReturned,
    InitiativeGained,
    EvidenceGained,
    EvidencePinned,
    TokenDrawnFromBag,
    TokenReturnedToBag,
    PicturePinned,
    PictureFlipped,
    BoardEvidenceFlipped,
    BoardEvidenceRemoved,
    TrackPeeked,
    RestrictionAdded,
    NothingMoved,
    InstructionStopped,
    InstructionSkipped,
    FaceDownAsked,
    FaceDownDenied,
    ReactionPassed,
    OnlyChoice,
    PlayCancelled,
    CardRemoved,
    CardDiscarded,
    GambitKept,
    CardReplayed,
    EvaluationStarted,
    TokensReset,
    MatchWon,
)

# Per record type: (attribute, JSON key, left out when None) for its public fields and for all of
# them. A field defaulting to None is optional: today's log leaves such keys out when unset.
_Key = tuple[str, str, bool]


def _keys(cls: type[Event], names: Iterable[str]) -> tuple[_Key, ...]:
    optional = {f.name for f in fields(cls) if f.default is None}
    return tuple((n, n.rstrip("_"), n in optional) for n in names)  # from_ is written "from"


_PUBLIC: Final = {cls: _keys(cls, cls.public) for cls in EVENT_TYPES}
_ALL: Final = {cls: _keys(cls, (f.name for f in fields(cls))) for cls in EVENT_TYPES}


def _token_for(p: TokenPayload, colours_seen: bool) -> JSONObject:
    out: JSONObject = {"handle": p.handle, "face": p.face}
    if colours_seen or p.face == "up":
        out["colors"] = list(p.colors)
        out["momentum_symbol"] = p.momentum_symbol
    return out


def event_for(event: Event, viewer: Viewer) -> JSONObject:
    """One event as `viewer` may read it: its public fields, then what its record grants the
    viewer (a seat's own cards, the colours of tokens it may see). Never a token's data id."""
    out: JSONObject = {"type": event.type}
    for name, key, optional in _PUBLIC[type(event)]:
        value: JSON = getattr(event, name)  # public fields are plain values
        if value is not None or not optional:
            out[key] = value
    match event:
        case CardsDrawn():
            if viewer == event.role:
                for name in event.seat_only:
                    out[name] = _to_json(getattr(event, name))
        case TokensPlaced() | EvidenceGained() | TrackPeeked():
            sees = sees_face_down(event.face_down, viewer, False)
            out["tokens"] = [_token_for(p, sees) for p in event.tokens]
        case TokenReturnedToBag():
            sees = sees_face_down(event.face_down, viewer, event.peeked)
            out["token"] = _token_for(event.token, sees)
        case (
            TokenRevealed()
            | EvidencePinned()
            | TokenDrawnFromBag()
            | BoardEvidenceFlipped()
            | BoardEvidenceRemoved()
        ):
            out["token"] = _token_for(event.token, sees_face_down(event.face_down, viewer, False))
        case (
            MatchStarted()
            | RoundStarted()
            | DeckReshuffled()
            | TopCardDrawn()
            | CardPlayed()
            | TokenMoved()
            | MomentumGained()
            | MomentumPlaced()
            | MomentumRemoved()
            | MomentumReturned()
            | InitiativeGained()
            | PicturePinned()
            | PictureFlipped()
            | RestrictionAdded()
            | NothingMoved()
            | InstructionStopped()
            | InstructionSkipped()
            | FaceDownAsked()
            | FaceDownDenied()
            | ReactionPassed()
            | OnlyChoice()
            | PlayCancelled()
            | CardRemoved()
            | CardDiscarded()
            | GambitKept()
            | CardReplayed()
            | EvaluationStarted()
            | TokensReset()
            | MatchWon()
        ):
            pass  # nothing beyond the public fields
        case _:
            assert_never(event)
    return out


def events_for(events: Iterable[Event], viewer: Viewer) -> list[JSONObject]:
    """The log entries `viewer` may read, in order (structured: type plus parameters)."""
    return [event_for(e, viewer) for e in events]


def _to_json(value: object) -> JSON:
    if isinstance(value, TokenPayload):
        return {
            "handle": value.handle,
            "id": value.id,
            "colors": list(value.colors),
            "momentum_symbol": value.momentum_symbol,
            "face": value.face,
        }
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    if value is None or isinstance(value, str | int):
        return value
    raise TypeError(f"not a log value: {value!r}")


def event_to_json(event: Event) -> JSONObject:
    """Every field of an event, nothing hidden: the admin console's log only."""
    out: JSONObject = {"type": event.type}
    for name, key, optional in _ALL[type(event)]:
        value = getattr(event, name)
        if value is not None or not optional:
            out[key] = _to_json(value)
    return out


def events_to_json(events: Iterable[Event]) -> list[JSONObject]:
    """The whole log with every field (the admin's), in order."""
    return [event_to_json(e) for e in events]
