"""Your seats on every device (contract v1.2, issue 42): a signed-in player who opens a match on
another browser asks for that seat with their player token and gets a seat token of its own for
this device. Guests have one device, so their seats stay in the browser that took them."""

from __future__ import annotations

from dataclasses import dataclass

from starlette.concurrency import run_in_threadpool

from ..auth import new_token, token_hash
from ..errors import ApiError, checked_id
from ..persistence import accounts as account_rows
from ..persistence import seat_keys
from .core import Core
from .matches import player_required
from .players import player_of


@dataclass(frozen=True)
class SeatKeyOut:
    role: str
    seat_token: str


def not_your_seat() -> ApiError:
    return ApiError(403, "not_your_seat", "You hold no seat in this match.")


class Devices:
    def __init__(self, core: Core) -> None:
        self.core = core

    async def seat_key(self, player_token: str | None, match_id: str) -> SeatKeyOut:
        """A new token for the seat this player holds in the match, for the asking device; the
        device's earlier key for the match stops working (one per device and match)."""
        return await run_in_threadpool(self._seat_key, player_token, checked_id(match_id))

    def _seat_key(self, player_token: str | None, match_id: str) -> SeatKeyOut:
        if not player_token:
            raise player_required()
        token = new_token()
        with self.core.db.write() as db:
            me = player_of(db, player_token)  # 401 unknown_player
            assert me is not None
            session_id = account_rows.session_id_of(db, token_hash(player_token))
            seat = seat_keys.held_seat(db, match_id, me.id)
            if seat is None or session_id is None:
                raise not_your_seat()  # also for no such match: nothing to learn by asking
            seat_keys.give_key(db, token_hash(token), match_id, seat, session_id, self.core.stamp())
        return SeatKeyOut(seat, token)
