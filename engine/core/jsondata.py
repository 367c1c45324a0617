"""Typed reading of plain JSON data documents: each helper checks one value's type where it is
read, so a game's data loader needs no `Any` and a malformed file fails with the field's name."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from .game import JSON, JSONObject

T = TypeVar("T", bound=str)


def as_object(value: JSON, what: str) -> JSONObject:
    if not isinstance(value, dict):
        raise ValueError(f"{what} must be an object")
    return value


def as_list(value: JSON, what: str) -> list[JSON]:
    if not isinstance(value, list):
        raise ValueError(f"{what} must be a list")
    return value


def as_str(value: JSON, what: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{what} must be a string")
    return value


def as_int(value: JSON, what: str) -> int:
    if type(value) is not int:  # exact: a JSON true is not the integer 1
        raise ValueError(f"{what} must be an integer")
    return value


def as_choice(value: JSON, choices: Sequence[T], what: str) -> T:
    """`value` if it is one of `choices` (a Literal's values), else ValueError."""
    for choice in choices:
        if value == choice:
            return choice
    raise ValueError(f"{what} must be one of {', '.join(choices)}")
