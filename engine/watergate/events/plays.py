"""Events of the round and turn sequence, of playing and answering cards, and of the match's end:
one frozen record per event type, each declaring which of its fields every viewer reads
(`public`); what it does not name is for the admin only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from ..actions import ValueTarget
from ..catalog import Role
from .shared import Fields

PlayMode = Literal["action", "value", "reaction"]
PlaySource = Literal["hand", "deck"]
WinReason = Literal["connection", "fifth_momentum", "empty_supply"]


@dataclass(frozen=True, slots=True)
class MatchStarted:
    """The match was set up (R5: decks shuffled, the Editor has the initiative)."""

    type: ClassVar[Literal["match_started"]] = "match_started"
    public: ClassVar[Fields] = ()


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """A new round began; `initiative` starts it (R5)."""

    type: ClassVar[Literal["round_started"]] = "round_started"
    public: ClassVar[Fields] = ("round", "initiative")
    round: int
    initiative: Role


@dataclass(frozen=True, slots=True)
class CardsDrawn:
    """A seat drew its hand for the round (R5, R7)."""

    type: ClassVar[Literal["cards_drawn"]] = "cards_drawn"
    public: ClassVar[Fields] = ("role", "count")
    seat_only: ClassVar[Fields] = ("cards",)  # which cards: the drawing seat only
    role: Role
    count: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DeckReshuffled:
    """An empty deck was refilled from its discard pile and shuffled (R7)."""

    type: ClassVar[Literal["deck_reshuffled"]] = "deck_reshuffled"
    public: ClassVar[Fields] = ("role", "count")  # the new order: the admin only (R7, §3.1)
    role: Role
    count: int
    order: tuple[str, ...]  # top of the deck last


@dataclass(frozen=True, slots=True)
class TopCardDrawn:
    """A seat drew its deck's top card to play it (R19)."""

    type: ClassVar[Literal["top_card_drawn"]] = "top_card_drawn"
    public: ClassVar[Fields] = ("role",)  # R19: the card is seen by the other seat once played
    role: Role


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """A card was played: for its value, its action, or as a reaction (R8, R10, R16, R17)."""

    type: ClassVar[Literal["card_played"]] = "card_played"
    public: ClassVar[Fields] = (
        "role",
        "card",
        "mode",
        "source",
        "target",
        "handle",
        "color",
        "against",
    )
    role: Role
    card: str
    mode: PlayMode
    source: PlaySource
    target: ValueTarget | None = None
    handle: int | None = None
    color: str | None = None
    against: str | None = None


@dataclass(frozen=True, slots=True)
class RestrictionAdded:
    """A rule restricts the Editor for the rest of the round (R21)."""

    type: ClassVar[Literal["restriction_added"]] = "restriction_added"
    public: ClassVar[Fields] = ("role", "rule")
    role: Role
    rule: str


@dataclass(frozen=True, slots=True)
class NothingMoved:
    """A value moved nothing (R12)."""

    type: ClassVar[Literal["nothing_moved"]] = "nothing_moved"
    public: ClassVar[Fields] = ("role",)
    role: Role


@dataclass(frozen=True, slots=True)
class InstructionStopped:
    """A player stopped an "up to N" instruction of `source` (a card id) early (R28)."""

    type: ClassVar[Literal["instruction_stopped"]] = "instruction_stopped"
    public: ClassVar[Fields] = ("role", "source")
    role: Role
    source: str


@dataclass(frozen=True, slots=True)
class InstructionSkipped:
    """One instruction of `source` (a card id, or a momentum space "M<k>"/"NM<k>") had nothing
    to do and was skipped whole (R14): `reason` says why, `what` names its subject (the round
    token, the person, the colour or the restriction; None when the reason says it all). Every
    reason is worked out from what both seats see, or from what the skip itself shows anyway
    (engine/watergate/skips.py)."""

    type: ClassVar[Literal["instruction_skipped"]] = "instruction_skipped"
    public: ClassVar[Fields] = ("role", "source", "reason", "what")
    role: Role
    source: str
    reason: str
    what: str | None = None


@dataclass(frozen=True, slots=True)
class FaceDownAsked:
    """The Editor asked Nixon for a face-down token of a colour (R11)."""

    type: ClassVar[Literal["face_down_asked"]] = "face_down_asked"
    public: ClassVar[Fields] = ("role", "color")
    role: Role
    color: str


@dataclass(frozen=True, slots=True)
class FaceDownDenied:
    """Nixon had no face-down token of the asked colour (R11)."""

    type: ClassVar[Literal["face_down_denied"]] = "face_down_denied"
    public: ClassVar[Fields] = ("role", "color")
    role: Role
    color: str


@dataclass(frozen=True, slots=True)
class ReactionPassed:
    """A seat let a reaction window close (R18)."""

    type: ClassVar[Literal["reaction_passed"]] = "reaction_passed"
    public: ClassVar[Fields] = ("role",)
    role: Role


@dataclass(frozen=True, slots=True)
class OnlyChoice:
    """The seat's next action was its only choice, and everyone could count it, so the server
    took it without a click (issue 42; engine/watergate/forced.py). Written by the platform's
    play (the `Forcing` protocol), never by `apply`: a stored match's log stays as it was."""

    type: ClassVar[Literal["only_choice"]] = "only_choice"
    public: ClassVar[Fields] = ("role",)
    role: Role


@dataclass(frozen=True, slots=True)
class PlayCancelled:
    """A reaction cancelled an announced play (R17)."""

    type: ClassVar[Literal["play_cancelled"]] = "play_cancelled"
    public: ClassVar[Fields] = ("role", "card", "by")
    role: Role
    card: str
    by: str


@dataclass(frozen=True, slots=True)
class CardRemoved:
    """A cancelled card left the game (R17)."""

    type: ClassVar[Literal["card_removed"]] = "card_removed"
    public: ClassVar[Fields] = ("role", "card")
    role: Role
    card: str


@dataclass(frozen=True, slots=True)
class CardDiscarded:
    """A cancelled card went to its owner's discard pile unused (R17)."""

    type: ClassVar[Literal["card_discarded"]] = "card_discarded"
    public: ClassVar[Fields] = ("role", "card")
    role: Role
    card: str


@dataclass(frozen=True, slots=True)
class GambitKept:
    """Nixon removed a conspirator from his hand to discard Gambit (R20)."""

    type: ClassVar[Literal["gambit_kept"]] = "gambit_kept"
    public: ClassVar[Fields] = ("role", "card", "removed")
    role: Role
    card: str
    removed: str


@dataclass(frozen=True, slots=True)
class CardReplayed:
    """The system works used a removed card's action again (R22)."""

    type: ClassVar[Literal["card_replayed"]] = "card_replayed"
    public: ClassVar[Fields] = ("role", "card")
    role: Role
    card: str


@dataclass(frozen=True, slots=True)
class EvaluationStarted:
    """Both hands were empty: the evaluation phase began (R6)."""

    type: ClassVar[Literal["evaluation_started"]] = "evaluation_started"
    public: ClassVar[Fields] = ("round",)
    round: int


@dataclass(frozen=True, slots=True)
class MatchWon:
    """The match ended (R26, R27)."""

    type: ClassVar[Literal["match_won"]] = "match_won"
    public: ClassVar[Fields] = ("role", "reason")
    role: Role
    reason: WinReason
