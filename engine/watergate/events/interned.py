"""The commonest events, built once per distinct value (as offered actions are: actions.py).

A random game emits about 330 events, half of them card_played and token_moved; a frozen dataclass
of seven or eight fields costs several times a dict to build, and the same few thousand values
recur (a card played at a handle, a token moved between two spaces). Records are immutable values,
so equal ones may be one object; the engine benchmark keeps its pace this way.
"""

from __future__ import annotations

from typing import Final

from ...core.actions import Interner
from ..actions import TrackTarget, ValueTarget
from ..catalog import Role
from .plays import CardPlayed, PlayMode, PlaySource
from .tokens import TokenMoved

_MEMO_LIMIT: Final = 1 << 15  # per kind: a guard on memory, not a policy; past it they are built
_PLAYED: Final[dict[tuple[object, ...], CardPlayed]] = {}
_MOVED: Final[dict[tuple[object, ...], TokenMoved]] = {}


def card_played(
    role: Role,
    card: str,
    mode: PlayMode,
    source: PlaySource,
    target: ValueTarget | None = None,
    handle: int | None = None,
    color: str | None = None,
    against: str | None = None,
) -> CardPlayed:
    """`CardPlayed(...)`, shared with any equal one built before."""
    key = (role, card, mode, source, target, handle, color, against)
    found = _PLAYED.get(key)
    if found is None:
        found = CardPlayed(role, card, mode, source, target, handle, color, against)
        if len(_PLAYED) < _MEMO_LIMIT:
            _PLAYED[key] = found
    return found


def token_moved(
    what: TrackTarget, by: Role, toward: Role, steps: int, start: int, end: int, handle: int | None
) -> TokenMoved:
    """`TokenMoved(...)`, shared with any equal one built before."""
    key = (what, by, toward, steps, start, end, handle)
    found = _MOVED.get(key)
    if found is None:
        found = TokenMoved(what, by, toward, steps, start, end, handle)
        if len(_MOVED) < _MEMO_LIMIT:
            _MOVED[key] = found
    return found


# `shared(cls, *fields)`: the event `cls(*fields)`, one object per value, for the events of few
# values (a role, a round, a token as shown): a frozen dataclass costs several times a dict
# lookup to build, and these make up about a third of a random game's events
shared: Final = Interner().offer
