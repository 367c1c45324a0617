"""Whose turn each match is at, remembered so that a turn is noticed once however many
decisions it holds (several decisions in a row by one seat are one turn). Bounded: the oldest
matches are forgotten first. Both the turn notices (Web Push) and the bell's `your_turn` lines
watch turns with it."""

from __future__ import annotations

from typing import Final

from ..bounded import BoundedCache, Caches, itself

KEPT: Final = 10_000  # matches remembered


class TurnWatch:
    def __init__(self, name: str, kept: int = KEPT, caches: Caches | None = None) -> None:
        # match -> the seat last deciding, the least recently changed forgotten first
        self._seats: BoundedCache[str, str] = BoundedCache(
            name, kept, match_of=itself, caches=caches
        )

    def deciding(self, match_id: str) -> str | None:
        """The seat last seen deciding in the match, if remembered."""
        return self._seats.peek(match_id)

    def new_turn(self, match_id: str, seat: str | None) -> bool:
        """Record that `seat` decides now (None: nobody); whether its turn has just begun."""
        before = self._seats.pop(match_id)
        if seat is not None:
            self._seats.put(match_id, seat)
        return seat is not None and seat != before
