"""Handing a bot's choice back as it was offered (typed actions, or their JSON)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from ...core import actions
from ..actions import Action, action_to_json

T = TypeVar("T")


def as_given(choice: Action, legal: Sequence[T]) -> T:
    return actions.as_given(legal, choice, action_to_json)
