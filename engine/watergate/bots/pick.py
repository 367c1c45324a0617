"""Handing a bot's choice back in the form it was offered: the typed action itself, or its JSON
object for callers that still hold the first edition's dict actions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from ..actions import Action, action_to_json

T = TypeVar("T")


def as_given(legal: Sequence[T], choice: Action) -> T:
    """The element of `legal` that is `choice` (typed or as JSON); `legal[0]` if none is."""
    as_json = None
    for offered in legal:
        if offered == choice:
            return offered
        if isinstance(offered, dict):
            as_json = as_json or action_to_json(choice)
            if offered == as_json:
                return offered
    return legal[0]
