"""The actions a Nations seat may send: one frozen record per action type, parsed from JSON
(malformed before illegal) and written back as canonical JSON objects (NR14: every choice)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Final, Literal, assert_never, cast

from ..core.actions import Interner, check_shape
from ..core.game import JSONObject
from .catalog import Goods


@dataclass(frozen=True, slots=True)
class Grow:
    """Growth: take the next worker from the population track."""

    type: ClassVar[Literal["grow"]] = "grow"


@dataclass(frozen=True, slots=True)
class Bonus:
    """Growth: take the difficulty's bonus of one good instead."""

    type: ClassVar[Literal["bonus"]] = "bonus"
    resource: Goods


@dataclass(frozen=True, slots=True)
class Buy:
    """Buy a progress card from the board; `replace` names the card it overbuilds (NR8, NR23)."""

    type: ClassVar[Literal["buy"]] = "buy"
    card: str
    replace: str | None = None


@dataclass(frozen=True, slots=True)
class Deploy:
    """Put a worker on a building or military card, from the resource area (`source` None) or
    from another card (NR39)."""

    type: ClassVar[Literal["deploy"]] = "deploy"
    card: str
    source: str | None = None


@dataclass(frozen=True, slots=True)
class Undeploy:
    """Take a worker off a card back to the resource area: free, not an action (NR11)."""

    type: ClassVar[Literal["undeploy"]] = "undeploy"
    card: str


@dataclass(frozen=True, slots=True)
class Hire:
    """Hire an architect onto the wonder under construction's leftmost free section."""

    type: ClassVar[Literal["hire"]] = "hire"


@dataclass(frozen=True, slots=True)
class Pass:
    type: ClassVar[Literal["pass"]] = "pass"


@dataclass(frozen=True, slots=True)
class Choose:
    """A golden age's option, by its index on the card (NR33)."""

    type: ClassVar[Literal["choose"]] = "choose"
    option: int


Action = Grow | Bonus | Buy | Deploy | Undeploy | Hire | Pass | Choose
ACTION_TYPES: Final = (Grow, Bonus, Buy, Deploy, Undeploy, Hire, Pass, Choose)

SHAPES: Final[dict[str, dict[str, tuple[type, bool]]]] = {
    "grow": {},
    "bonus": {"resource": (str, True)},
    "buy": {"card": (str, True), "replace": (str, False)},
    "deploy": {"card": (str, True), "source": (str, False)},
    "undeploy": {"card": (str, True)},
    "hire": {},
    "pass": {},
    "choose": {"option": (int, True)},
}
_CLASSES: Final[dict[str, Callable[..., Action]]] = {cls.type: cls for cls in ACTION_TYPES}

_INTERNED: Final = Interner()


# `offer(cls, *fields)`: the action `cls(*fields)`, shared with every other offer of it (the bound
# method itself: a wrapper around it cost about 10% of a random game, bench.engine)
offer: Final = _INTERNED.offer


GROW: Final = offer(Grow)
HIRE: Final = offer(Hire)
PASS: Final = offer(Pass)


def parse_action(obj: object) -> Action:
    """The action an object stands for if it has a known shape, else MalformedAction. A
    well-formed action naming something that does not exist is kept: it is illegal, not
    malformed, and `apply` rejects it as such."""
    kind, f = check_shape(obj, SHAPES)
    fields = tuple(f.get(name) for name in SHAPES[kind])
    cls = _CLASSES[kind]
    found = _INTERNED.find(cls, *fields)
    return cast(Action, found if found is not None else cls(*fields))


def action_to_json(action: Action) -> JSONObject:
    """The canonical JSON object: "type" first, then the fields that are set."""
    match action:
        case Grow() | Hire() | Pass():
            return {"type": action.type}
        case Bonus(resource):
            return {"type": "bonus", "resource": resource}
        case Buy(card, replace):
            if replace is None:
                return {"type": "buy", "card": card}
            return {"type": "buy", "card": card, "replace": replace}
        case Deploy(card, source):
            if source is None:
                return {"type": "deploy", "card": card}
            return {"type": "deploy", "card": card, "source": source}
        case Undeploy(card):
            return {"type": "undeploy", "card": card}
        case Choose(option):
            return {"type": "choose", "option": option}
        case _:
            assert_never(action)
