"""Static component data (cards, evidence tokens, board, momentum cards) read from data/*.json.

The data files are the single source of the printed components; the engine reads only these
typed records, so a printed card list can replace ours without touching code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final, Literal, TypedDict, cast

Role = Literal["editor", "nixon"]
ROLES: Final[tuple[Role, Role]] = ("editor", "nixon")
COLORS: Final = ("blue", "yellow", "green")


class Op(TypedDict, total=False):
    """One effect operation as written in the data files (implemented once each in effects.py)."""

    op: str
    token: str  # move: initiative | momentum | evidence
    steps: int
    count: int
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


def _load(name: str) -> Any:
    return json.loads(
        resources.files("engine.watergate.data").joinpath(name).read_text(encoding="utf-8")
    )


def _card(raw: dict[str, Any]) -> Card:
    reaction = raw.get("reaction") or {}
    return Card(
        id=raw["id"],
        name=raw["name"],
        faction=raw["faction"],
        kind=raw["kind"],
        value=int(raw["value"]),
        color=raw["color"],
        requires=tuple(cast(list[Req], raw["requires"])),
        effects=tuple(cast(list[Op], raw["effects"])),
        reacts_to=tuple(reaction.get("reacts_to", ())),
        on_cancel=reaction.get("on_cancel", ""),
        disposal=raw.get("disposal", ""),
        provenance=raw["provenance"],
    )


_CARDS_RAW: Final = _load("cards.json")
CARDS: Final[dict[str, Card]] = {c["id"]: _card(c) for c in _CARDS_RAW["cards"]}
CARD_IDS: Final[dict[Role, tuple[str, ...]]] = {
    role: tuple(c.id for c in CARDS.values() if c.faction == role) for role in ROLES
}

_TOKENS_RAW: Final = _load("tokens.json")
TOKENS: Final[dict[str, TokenData]] = {
    t["id"]: TokenData(
        t["id"], tuple(t["colors"]), bool(t["momentum_symbol"]), bool(t["in_bag"]), t["provenance"]
    )
    for t in _TOKENS_RAW["tokens"]
}
BAG_TOKEN_IDS: Final[tuple[str, ...]] = tuple(t.id for t in TOKENS.values() if t.in_bag)
SPARE_TOKEN_IDS: Final[tuple[str, ...]] = tuple(t.id for t in TOKENS.values() if not t.in_bag)

_BOARD_RAW: Final = _load("board.json")
SPACES: Final[tuple[Space, ...]] = tuple(Space(s["id"], s["color"]) for s in _BOARD_RAW["spaces"])
SPACE_INDEX: Final[dict[str, int]] = {s.id: i for i, s in enumerate(SPACES)}
PEOPLE: Final[tuple[str, ...]] = tuple(p["person"] for p in _BOARD_RAW["informants"])
PERSON_NAMES: Final[dict[str, str]] = {p["person"]: p["name"] for p in _BOARD_RAW["informants"]}
PERSON_INDEX: Final[dict[str, int]] = {p: i for i, p in enumerate(PEOPLE)}
_INFORMANT_SPACE: Final[dict[str, str]] = {
    p["space"]: p["person"] for p in _BOARD_RAW["informants"]
}
CENTER: Final[str] = _BOARD_RAW["center"]


def _neighbours() -> dict[str, tuple[str, ...]]:
    adj: dict[str, list[str]] = {}
    for a, b in _BOARD_RAW["edges"]:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    return {k: tuple(v) for k, v in adj.items()}


_ADJ: Final = _neighbours()
# Evidence-space indices next to the centre, next to each space, and next to each informant.
CENTER_NEIGHBOURS: Final[tuple[int, ...]] = tuple(
    SPACE_INDEX[n] for n in _ADJ[CENTER] if n in SPACE_INDEX
)
SPACE_NEIGHBOURS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(SPACE_INDEX[n] for n in _ADJ[s.id] if n in SPACE_INDEX) for s in SPACES
)
INFORMANT_NEIGHBOURS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(SPACE_INDEX[n] for n in _ADJ[space] if n in SPACE_INDEX)
    for space, _person in sorted(_INFORMANT_SPACE.items(), key=lambda kv: PERSON_INDEX[kv[1]])
)
BOARD_EDGES: Final[tuple[tuple[str, str], ...]] = tuple((a, b) for a, b in _BOARD_RAW["edges"])
INFORMANT_SPACES: Final[dict[str, str]] = {p: s for s, p in _INFORMANT_SPACE.items()}
BOARD_INFORMANTS: Final[list[dict[str, str]]] = _BOARD_RAW["informants"]
BOARD_LAYOUT: Final[dict[str, Any]] = _BOARD_RAW["layout"]  # drawing positions for clients

_MOMENTUM_RAW: Final = _load("momentum.json")
EDITOR_MOMENTUM_EFFECTS: Final[dict[int, tuple[Op, ...]]] = {
    s["space"]: tuple(cast(list[Op], s["effects"])) for s in _MOMENTUM_RAW["editor"]["spaces"]
}
MOMENTUM_SPACES: Final[int] = len(_MOMENTUM_RAW["nixon"]["spaces"])
MOMENTUM_TOKENS: Final[int] = int(_MOMENTUM_RAW["tokens"]["momentum"])

# Sources of effect lists: a card id, or "M<k>" for the Editor's momentum-card space k.
EFFECT_SOURCES: Final[dict[str, tuple[Op, ...]]] = {
    **{cid: c.effects for cid, c in CARDS.items()},
    **{f"M{k}": ops for k, ops in EDITOR_MOMENTUM_EFFECTS.items()},
}
# Reaction cards per faction, for opening windows (R18).
REACTION_CARDS: Final[dict[Role, tuple[Card, ...]]] = {
    role: tuple(c for c in CARDS.values() if c.faction == role and c.is_reaction) for role in ROLES
}
