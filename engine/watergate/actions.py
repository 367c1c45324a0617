"""The shapes of actions a seat may send, checked before legality (malformed vs illegal)."""

from __future__ import annotations

from typing import Final

from ..core.errors import MalformedAction
from .state import Action

# action type -> {field: (python type, required)}
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
}


def parse_action(obj: object) -> Action:
    """Return obj as an Action if it has a known shape, else raise MalformedAction."""
    if not isinstance(obj, dict):
        raise MalformedAction('An action must be a JSON object with a "type".')
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in SHAPES:
        raise MalformedAction(f"Unknown action type; expected one of {', '.join(sorted(SHAPES))}.")
    shape = SHAPES[kind]
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
    return obj
