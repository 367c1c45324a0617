"""The actions a seat may send: one frozen record per action type, parsed from JSON (malformed vs
illegal, checked before legality) and written back as today's canonical JSON objects."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Final, Literal, assert_never, cast

from ..core.actions import Interner, check_shape
from ..core.game import JSONObject

ValueTarget = Literal["initiative", "momentum", "evidence", "ask", "none"]
TrackTarget = Literal["initiative", "momentum", "evidence"]


@dataclass(frozen=True, slots=True)
class PlayValue:
    """Play a card for its value (R10–R12): move a track token, ask for a colour, or nothing."""

    type: ClassVar[Literal["play_value"]] = "play_value"
    card: str
    target: ValueTarget
    handle: int | None = None  # target "evidence": the token to move
    color: str | None = None  # target "ask": the colour named (R11)


@dataclass(frozen=True, slots=True)
class PlayAction:
    """Play a card for its action part (R16)."""

    type: ClassVar[Literal["play_action"]] = "play_action"
    card: str


@dataclass(frozen=True, slots=True)
class React:
    """Answer the announcement in a reaction window with a reaction card (R17)."""

    type: ClassVar[Literal["react"]] = "react"
    card: str


@dataclass(frozen=True, slots=True)
class Pass:
    """Let a reaction window close (R18)."""

    type: ClassVar[Literal["pass"]] = "pass"


@dataclass(frozen=True, slots=True)
class ChooseToken:
    """Nixon names the face-down token of the asked colour that moves (R11)."""

    type: ClassVar[Literal["choose_token"]] = "choose_token"
    handle: int


@dataclass(frozen=True, slots=True)
class ChooseTarget:
    """Choose what a value or an effect moves: a round token, or an evidence token by handle."""

    type: ClassVar[Literal["choose_target"]] = "choose_target"
    target: TrackTarget
    handle: int | None = None


@dataclass(frozen=True, slots=True)
class ChooseSpace:
    type: ClassVar[Literal["choose_space"]] = "choose_space"
    space: str


@dataclass(frozen=True, slots=True)
class ChoosePicture:
    type: ClassVar[Literal["choose_picture"]] = "choose_picture"
    person: str


@dataclass(frozen=True, slots=True)
class ChooseCard:
    """The system works: the removed card to use again (R22)."""

    type: ClassVar[Literal["choose_card"]] = "choose_card"
    card: str


@dataclass(frozen=True, slots=True)
class Pin:
    """Pin a held evidence token to an empty space of its colour (R23)."""

    type: ClassVar[Literal["pin"]] = "pin"
    handle: int
    space: str


@dataclass(frozen=True, slots=True)
class GambitKeep:
    """Gambit's alternative: remove this conspirator from the hand instead (R20)."""

    type: ClassVar[Literal["gambit_keep"]] = "gambit_keep"
    card: str


@dataclass(frozen=True, slots=True)
class GambitRemove:
    """Let Gambit leave the game (R20, R31)."""

    type: ClassVar[Literal["gambit_remove"]] = "gambit_remove"


@dataclass(frozen=True, slots=True)
class Done:
    """Stop an "up to N" instruction here: the rest of it is not carried out (R28)."""

    type: ClassVar[Literal["done"]] = "done"


@dataclass(frozen=True, slots=True)
class Ask:
    """Ask Nixon for a face-down token of the instruction's colour (R29, as R11)."""

    type: ClassVar[Literal["ask"]] = "ask"
    color: str


Action = (
    PlayValue
    | PlayAction
    | React
    | Pass
    | ChooseToken
    | ChooseTarget
    | ChooseSpace
    | ChoosePicture
    | ChooseCard
    | Pin
    | GambitKeep
    | GambitRemove
    | Done
    | Ask
)
ACTION_TYPES: Final = (
    PlayValue,
    PlayAction,
    React,
    Pass,
    ChooseToken,
    ChooseTarget,
    ChooseSpace,
    ChoosePicture,
    ChooseCard,
    Pin,
    GambitKeep,
    GambitRemove,
    Done,
    Ask,
)

# ---- interned construction ---------------------------------------------------------------------
# The rules offer the same few thousand actions over and over (a card, a handle, a space), and a
# frozen dataclass costs several times a dict to build; so offered actions are built once and
# shared (they are immutable values). Parsing only looks them up, so client input adds nothing.
_INTERNED: Final = Interner()


# `offer(cls, *fields)`: the action `cls(*fields)`, shared with every other offer of it (the bound
# method itself: a wrapper around it cost about 10% of a random game, bench.engine)
offer: Final = _INTERNED.offer


class EvidenceMoves(dict[int, PlayValue]):
    """One card's value plays at evidence handles, each built on first use (`__missing__`), so
    `map(moves.__getitem__, handles)` extends a legal list without a Python-level loop (the rest
    of a card's offers: `offers.CardOffers`)."""

    __slots__ = ("card",)

    def __init__(self, card: str) -> None:
        super().__init__()
        self.card = card

    def __missing__(self, handle: int) -> PlayValue:
        found = self[handle] = offer(PlayValue, self.card, "evidence", handle, None)
        return found


PASS: Final = offer(Pass)
GAMBIT_REMOVE: Final = offer(GambitRemove)
DONE: Final = offer(Done)
_CLASSES: Final[dict[str, Callable[..., Action]]] = {cls.type: cls for cls in ACTION_TYPES}

# action type -> {field: (python type, required)}, in the order the JSON object lists them (and
# the order of the record's fields)
SHAPES: Final[dict[str, dict[str, tuple[type, bool]]]] = {
    "play_value": {
        "card": (str, True),
        "target": (str, True),
        "handle": (int, False),
        "color": (str, False),
    },
    "play_action": {"card": (str, True)},
    "react": {"card": (str, True)},
    "pass": {},
    "choose_token": {"handle": (int, True)},
    "choose_target": {"target": (str, True), "handle": (int, False)},
    "choose_space": {"space": (str, True)},
    "choose_picture": {"person": (str, True)},
    "choose_card": {"card": (str, True)},
    "pin": {"handle": (int, True), "space": (str, True)},
    "gambit_keep": {"card": (str, True)},
    "gambit_remove": {},
    "done": {},
    "ask": {"color": (str, True)},
}


def parse_action(obj: object) -> Action:
    """The action an object stands for if it has a known shape, else raise MalformedAction.

    A well-formed action naming something outside the vocabulary (a target no card has) is kept
    as given: it is never among the legal actions, so `apply` rejects it as illegal, as it always
    did (malformed means the shape is wrong, illegal that it is not offered now).
    """
    kind, f = check_shape(obj, SHAPES)
    fields = tuple(f.get(name) for name in SHAPES[kind])  # absent optional fields are None
    cls = _CLASSES[kind]
    found = _INTERNED.find(cls, *fields)  # the offered equal, if any: `in legal` is then identity
    return cast(Action, found if found is not None else cls(*fields))


def action_to_json(action: Action) -> JSONObject:
    """The canonical JSON object of an action: "type" first, then its fields (absent when unset)."""
    match action:
        case PlayValue(card, target, handle, color):
            out: JSONObject = {"type": "play_value", "card": card, "target": target}
            if handle is not None:
                out["handle"] = handle
            if color is not None:
                out["color"] = color
            return out
        case PlayAction(card) | React(card) | ChooseCard(card) | GambitKeep(card):
            return {"type": action.type, "card": card}
        case Pass() | GambitRemove() | Done():
            return {"type": action.type}
        case Ask(color):
            return {"type": "ask", "color": color}
        case ChooseToken(handle):
            return {"type": "choose_token", "handle": handle}
        case ChooseTarget(target, handle):
            if handle is None:
                return {"type": "choose_target", "target": target}
            return {"type": "choose_target", "target": target, "handle": handle}
        case ChooseSpace(space):
            return {"type": "choose_space", "space": space}
        case ChoosePicture(person):
            return {"type": "choose_picture", "person": person}
        case Pin(handle, space):
            return {"type": "pin", "handle": handle, "space": space}
        case _:
            assert_never(action)
