"""Whose turn each match is at, remembered so that a turn is noticed once however many
decisions it holds (several decisions in a row by one seat are one turn). Bounded: the oldest
matches are forgotten first. Both the turn notices (Web Push) and the bell's `your_turn` lines
watch turns with it."""

from __future__ import annotations

from collections import OrderedDict
from typing import Final

KEPT: Final = 10_000  # matches remembered


class TurnWatch:
    def __init__(self, kept: int = KEPT) -> None:
        self._seats: OrderedDict[str, str] = OrderedDict()  # match -> the seat last deciding
        self._kept = kept

    def deciding(self, match_id: str) -> str | None:
        """The seat last seen deciding in the match, if remembered."""
        return self._seats.get(match_id)

    def new_turn(self, match_id: str, seat: str | None) -> bool:
        """Record that `seat` decides now (None: nobody); whether its turn has just begun."""
        before = self._seats.pop(match_id, None)
        if seat is not None:
            self._seats[match_id] = seat
            while len(self._seats) > self._kept:
                self._seats.popitem(last=False)
        return seat is not None and seat != before
