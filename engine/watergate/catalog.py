"""The component records (cards, evidence tokens, board spaces, effect ops) and the two roles.

The data files are the single source of the printed components; `ruleset.py` reads them into these
typed records, so a printed card list can replace ours without touching code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, TypedDict

Role = Literal["editor", "nixon"]
ROLES: Final[tuple[Role, Role]] = ("editor", "nixon")
COLORS: Final = ("blue", "yellow", "green")


class Op(TypedDict, total=False):
    """One effect operation as written in the data files (implemented once each in effects.py)."""

    op: str
    token: str  # move: initiative | momentum | evidence
    steps: int
    space: int  # move_to: the track space (1-5) on the side `toward` names (default: the mover's)
    count: int
    up_to: bool  # the card says "up to `count`": the player may stop early (R28)
    color: str
    toward: str  # move: "opponent" to move towards the other side
    person: str  # pin_picture: a person id or "any"
    to: str  # flip_*: "up" | "down"
    filter: str  # flip_picture: "not_connected"
    face: str  # remove_board_evidence: face of the tokens taken
    where: str  # return_to_bag: "zero_or_editor_side"
    rule: str  # restrict: the restriction's name


Req = TypedDict("Req", {"req": str, "min": int, "except": str}, total=False)


def other(role: Role) -> Role:
    """The opponent of a role."""
    return "nixon" if role == "editor" else "editor"


def direction(role: Role) -> int:
    """+1 towards the Editor's side of the track, -1 towards Nixon's (R9)."""
    return 1 if role == "editor" else -1


@dataclass(frozen=True, slots=True)
class Card:
    """One player card: value part, action part, type and (for reaction cards) what it answers."""

    id: str
    name: str
    faction: Role
    kind: Literal["event", "conspirator", "journalist"]
    value: int
    color: str  # blue | yellow | green | joker
    requires: tuple[Req, ...]
    effects: tuple[Op, ...]
    reacts_to: tuple[str, ...]  # announcement kinds this reaction card may cancel (R17)
    on_cancel: str  # discard | remove | follow_the_money ("" for non-reaction cards)
    disposal: str  # "" or "gambit" (R20)
    provenance: str

    @property
    def is_reaction(self) -> bool:
        return bool(self.reacts_to)

    def moves_color(self, colors: tuple[str, ...]) -> bool:
        """Whether this card's value may move an evidence token of these colours (R10)."""
        return self.color == "joker" or self.color in colors


@dataclass(frozen=True, slots=True)
class TokenData:
    """One physical evidence token."""

    id: str
    colors: tuple[str, ...]
    momentum_symbol: bool
    in_bag: bool
    provenance: str


@dataclass(frozen=True, slots=True)
class Space:
    """An evidence space on the board with its colour slip."""

    id: str
    color: str
