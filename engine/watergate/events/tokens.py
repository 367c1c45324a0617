"""Events of the research track, the bag, momentum and the evidence board: one frozen record per
event type, each declaring which fields every viewer reads (`public`) and, when it carries tokens,
who may read a face-down token's colours (`face_down`); the rest is for the admin only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from ..actions import TrackTarget
from ..catalog import Role
from .shared import Face, Fields, Sight, TokenPayload

ReturnReason = Literal["card", "neutral", "no_space"]


@dataclass(frozen=True, slots=True)
class TokensPlaced:
    """Nixon put three evidence tokens from the bag face down on space 0 (R1)."""

    type: ClassVar[Literal["tokens_placed"]] = "tokens_placed"
    public: ClassVar[Fields] = ("role",)
    face_down: ClassVar[Sight] = "nixon"  # R1: drawn and placed by Nixon, unseen by the Editor
    role: Role
    tokens: tuple[TokenPayload, ...]


@dataclass(frozen=True, slots=True)
class TokenRevealed:
    """A face-down track token was turned face up to be moved (R13)."""

    type: ClassVar[Literal["token_revealed"]] = "token_revealed"
    public: ClassVar[Fields] = ("position",)
    face_down: ClassVar[Sight] = "everyone"  # R13: it is face up from now on
    token: TokenPayload
    position: int


@dataclass(frozen=True, slots=True)
class TokenMoved:
    """A track token moved (R9); `handle` names an evidence token."""

    type: ClassVar[Literal["token_moved"]] = "token_moved"
    public: ClassVar[Fields] = ("what", "by", "toward", "steps", "from_", "to", "handle")
    what: TrackTarget
    by: Role
    toward: Role
    steps: int
    from_: int
    to: int
    handle: int | None = None


@dataclass(frozen=True, slots=True)
class MomentumGained:
    """A seat gained this round's momentum token (R9, evaluation step 3)."""

    type: ClassVar[Literal["momentum_gained"]] = "momentum_gained"
    public: ClassVar[Fields] = ("role",)
    role: Role


@dataclass(frozen=True, slots=True)
class MomentumPlaced:
    """A gained momentum token went on a space of the seat's momentum card."""

    type: ClassVar[Literal["momentum_placed"]] = "momentum_placed"
    public: ClassVar[Fields] = ("role", "space")
    role: Role
    space: int


@dataclass(frozen=True, slots=True)
class MomentumRemoved:
    """The Editor's momentum card was full: the gained token left the game."""

    type: ClassVar[Literal["momentum_removed"]] = "momentum_removed"
    public: ClassVar[Fields] = ("role",)
    role: Role


@dataclass(frozen=True, slots=True)
class MomentumReturned:
    """The momentum token ended the round on 0 and went back to the supply (R3)."""

    type: ClassVar[Literal["momentum_returned"]] = "momentum_returned"
    public: ClassVar[Fields] = ()


@dataclass(frozen=True, slots=True)
class InitiativeGained:
    """A seat gained the initiative (R9, evaluation step 2)."""

    type: ClassVar[Literal["initiative_gained"]] = "initiative_gained"
    public: ClassVar[Fields] = ("role",)
    role: Role


@dataclass(frozen=True, slots=True)
class EvidenceGained:
    """A seat gained evidence tokens from the track to pin them (R9, R25)."""

    type: ClassVar[Literal["evidence_gained"]] = "evidence_gained"
    public: ClassVar[Fields] = ("role",)
    face_down: ClassVar[Sight] = "everyone"  # R23, R24: gained tokens are pinned in the open
    role: Role
    tokens: tuple[TokenPayload, ...]


@dataclass(frozen=True, slots=True)
class EvidencePinned:
    """A gained token was pinned to an evidence space (R23, R24)."""

    type: ClassVar[Literal["evidence_pinned"]] = "evidence_pinned"
    public: ClassVar[Fields] = ("role", "space")
    face_down: ClassVar[Sight] = "everyone"  # both players may look at board tokens
    role: Role
    space: str
    token: TokenPayload


@dataclass(frozen=True, slots=True)
class TokenDrawnFromBag:
    """An effect drew a token from the bag, face up, to pin it."""

    type: ClassVar[Literal["token_drawn_from_bag"]] = "token_drawn_from_bag"
    public: ClassVar[Fields] = ("role",)
    face_down: ClassVar[Sight] = "everyone"  # drawn face up
    role: Role
    token: TokenPayload


@dataclass(frozen=True, slots=True)
class TokenReturnedToBag:
    """A token went back to the bag (a card, evaluation step 1, or no space: R23)."""

    type: ClassVar[Literal["token_returned_to_bag"]] = "token_returned_to_bag"
    public: ClassVar[Fields] = ("role", "reason")
    # Nixon knows every token; the Editor only those it has peeked at (R18: nothing more leaks)
    face_down: ClassVar[Sight] = "peeked"
    role: Role | None
    token: TokenPayload
    peeked: bool
    reason: ReturnReason


@dataclass(frozen=True, slots=True)
class PicturePinned:
    """A picture tile was pinned: the Editor's face up, Nixon's face down."""

    type: ClassVar[Literal["picture_pinned"]] = "picture_pinned"
    public: ClassVar[Fields] = ("role", "person", "face")
    role: Role
    person: str
    face: Face


@dataclass(frozen=True, slots=True)
class PictureFlipped:
    """A picture tile was turned over."""

    type: ClassVar[Literal["picture_flipped"]] = "picture_flipped"
    public: ClassVar[Fields] = ("role", "person", "face")
    role: Role
    person: str
    face: Face


@dataclass(frozen=True, slots=True)
class BoardEvidenceFlipped:
    """A pinned evidence token was turned over."""

    type: ClassVar[Literal["board_evidence_flipped"]] = "board_evidence_flipped"
    public: ClassVar[Fields] = ("role", "space")
    face_down: ClassVar[Sight] = "everyone"  # both players may look at board tokens
    role: Role
    space: str
    token: TokenPayload


@dataclass(frozen=True, slots=True)
class BoardEvidenceRemoved:
    """A pinned evidence token went back to the bag."""

    type: ClassVar[Literal["board_evidence_removed"]] = "board_evidence_removed"
    public: ClassVar[Fields] = ("role", "space")
    face_down: ClassVar[Sight] = "everyone"  # both players may look at board tokens
    role: Role
    space: str
    token: TokenPayload


@dataclass(frozen=True, slots=True)
class TrackPeeked:
    """The Editor looked at the face-down tokens on the track."""

    type: ClassVar[Literal["track_peeked"]] = "track_peeked"
    public: ClassVar[Fields] = ("role",)
    face_down: ClassVar[Sight] = "seats"  # the Editor sees what it looked at; a spectator does not
    role: Role
    tokens: tuple[TokenPayload, ...]


@dataclass(frozen=True, slots=True)
class TokensReset:
    """New initiative and momentum tokens went on space 0 (evaluation step 4)."""

    type: ClassVar[Literal["tokens_reset"]] = "tokens_reset"
    public: ClassVar[Fields] = ()
