"""What every game's actions share: reading an action object against declared field shapes
(malformed is told apart from illegal before legality is checked), and interning the actions the
rules offer, so an offered action is built once and `in legal` is mostly an identity test."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, TypeVar, cast

from .errors import MalformedAction

A = TypeVar("A")
# action type -> {field: (python type, required)}, in the order the JSON object lists them
Shapes = Mapping[str, Mapping[str, tuple[type, bool]]]
_MEMO_LIMIT: Final = 1 << 16  # far above the actions of any ruleset; a guard, not a policy


def check_shape(obj: object, shapes: Shapes) -> tuple[str, dict[str, object]]:
    """The action type and fields of a well-formed action object, else MalformedAction."""
    if not isinstance(obj, dict):
        raise MalformedAction('An action must be a JSON object with a "type".')
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in shapes:
        raise MalformedAction(f"Unknown action type; expected one of {', '.join(sorted(shapes))}.")
    shape = shapes[kind]
    for key, value in obj.items():
        if key == "type":
            continue
        if key not in shape:
            raise MalformedAction(f"Unexpected field {str(key)[:40]!r} in a {kind} action.")
        want = shape[key][0]
        if type(value) is not want:  # exact: a JSON true is not the integer 1
            raise MalformedAction(f"Field {key!r} of a {kind} action must be a {want.__name__}.")
    for key, (_, required) in shape.items():
        if required and key not in obj:
            raise MalformedAction(f"A {kind} action needs the field {key!r}.")
    return kind, obj


class Interner:
    """Shared immutable action records by value: `offer(cls, *fields)` builds each one once."""

    __slots__ = ("_memo",)

    def __init__(self) -> None:
        # values typed Any so `offer` returns its record without a call to typing.cast (offer
        # runs a few hundred times a random game); each key's first item is its record's class
        self._memo: dict[tuple[object, ...], Any] = {}

    def offer(self, cls: Callable[..., A], *fields: object) -> A:
        # keyed by the class and the fields' tuple as it came: `(cls, *fields)` would build a
        # list and then a tuple at every call (a tenth of this method, compiled)
        key = (cls, fields)
        found: A | None = self._memo.get(key)
        if found is None:
            if len(self._memo) >= _MEMO_LIMIT:
                self._memo.clear()
            found = self._memo[key] = cls(*fields)
        return found

    def find(self, cls: Callable[..., object], *fields: object) -> object | None:
        """The offered action equal to `cls(*fields)`, if one was built (parsing adds nothing)."""
        return self._memo.get((cls, fields))


def find_offered(
    legal: Sequence[A], action: object, parse: Callable[[object], A], types: tuple[type, ...]
) -> tuple[A, bool]:
    """The action `action` stands for, and whether it is one of `legal`. The very object offered
    (bots in-process) is found by identity; anything else is parsed (MalformedAction) and
    compared. A plain loop: a generator under any() cost about 2% of a random Watergate game."""
    for offered in legal:
        if offered is action:
            return offered, True
    act = cast(A, action) if isinstance(action, types) else parse(action)
    return act, act in legal


T = TypeVar("T")


def as_given(legal: Sequence[T], choice: A, to_json: Callable[[A], object]) -> T:
    """The element of `legal` that is a bot's `choice`, handed back the way the caller offered
    it (typed, or as its JSON); `legal[0]` if none is."""
    as_json: object = None
    for i, offered in enumerate(legal):
        if isinstance(offered, dict):
            as_json = as_json if as_json is not None else to_json(choice)
            if offered == as_json:
                return legal[i]
        elif offered == choice:
            return legal[i]
    return legal[0]
