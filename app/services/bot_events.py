"""A bot account's event stream (contract v1.2 "Bots", issue 45: `GET /api/stream/events`):
newline-delimited JSON of what concerns the account outside its matches — challenges received
(`challenge`), cancelled by their challenger (`challenge_canceled`), declined by their target
(`challenge_declined`), accepted (`challenge_accepted`), and its matches starting
(`match_start`) and ending (`match_finish`) — with a blank line after KEEPALIVE_S of quiet.

Resumable by construction: on opening, every open challenge to the account and every match it
sits in that is under way are announced; after that, what changes. Challenges arrive as the
bell's notifications do (Fanout.notified, from any process); matches are compared with the
database at each wake and at least every POLL_S, so a match that started or ended on another
process is announced within that time. One event stream per token (429 too_many_streams)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any, Final

from starlette.concurrency import run_in_threadpool

from ..errors import ApiError
from ..jsontext import dumps
from ..persistence import challenges as challenge_rows
from ..persistence import notifications
from ..persistence import players as player_rows
from .api_tokens import Caller, caller
from .core import Core

KEEPALIVE_S: Final = 5.0
POLL_S: Final = 2.0  # matches started or ended elsewhere are seen within this
CHALLENGE_KINDS: Final = (
    "challenge",
    "challenge_canceled",
    "challenge_declined",
    "challenge_accepted",
)
LISTED: Final = 100  # open challenges and matches announced on opening, at most


class BotEvents:
    def __init__(self, core: Core) -> None:
        self.core = core
        self._wakes: dict[str, set[asyncio.Event]] = {}  # player -> its open streams' wakes
        self._tokens: set[str] = set()  # token ids with a stream open here

    def notified(self, player_id: str, notification_id: int) -> None:
        """A `Fanout.notified` callback: the player's streams here look for what is new."""
        for wake in self._wakes.get(player_id, ()):
            wake.set()

    async def open(self, bearer: str | None) -> Caller:
        def run() -> Caller:
            with self.core.db.write() as db:
                return caller(db, bearer, "bot:play", self.core.stamp())

        who = await run_in_threadpool(run)
        if who.token_id in self._tokens:
            raise ApiError(429, "too_many_streams", "This token has an event stream open already.")
        self._tokens.add(who.token_id)
        return who

    async def lines(self, who: Caller) -> AsyncIterator[str]:
        wake = asyncio.Event()
        self._wakes.setdefault(who.player_id, set()).add(wake)
        try:
            events, last, playing = await run_in_threadpool(self._opening, who.player_id)
            for event in events:
                yield dumps(event) + "\n"
            quiet = 0.0
            while True:
                try:
                    await asyncio.wait_for(wake.wait(), POLL_S)
                except TimeoutError:
                    quiet += POLL_S
                wake.clear()
                events, last, playing = await run_in_threadpool(
                    self._since, who.player_id, last, playing
                )
                for event in events:
                    yield dumps(event) + "\n"
                if events:
                    quiet = 0.0
                elif quiet >= KEEPALIVE_S:
                    quiet = 0.0
                    yield "\n"
        finally:
            self._wakes[who.player_id].discard(wake)
            if not self._wakes[who.player_id]:
                del self._wakes[who.player_id]
            self._tokens.discard(who.token_id)

    def _opening(self, player: str) -> tuple[list[dict[str, Any]], int, set[str]]:
        """What is open now, and where the stream goes on from."""
        now = self.core.stamp()
        with self.core.db.reader() as db:
            incoming = challenge_rows.incoming(db, player, now, LISTED)
            last = notifications.newest_id(db, player)
            playing = player_rows.playing(db, player, LISTED)
        events = [
            {
                "type": "challenge",
                "challenge": {
                    "challenge_id": c.id,
                    "from": {"player_id": c.challenger, "name": c.challenger_name},
                    "game": c.game, "players": c.players, "clock": c.clock, "rated": c.rated,
                    "expires_at": c.expires_at.isoformat(),
                },
            }
            for c in incoming
        ]  # fmt: skip
        events += [{"type": "match_start", "match": {"match_id": m}} for m in sorted(playing)]
        return events, last, playing

    def _since(
        self, player: str, last: int, playing: set[str]
    ) -> tuple[list[dict[str, Any]], int, set[str]]:
        with self.core.db.reader() as db:
            found = notifications.after(db, player, last, LISTED)
            now_playing = player_rows.playing(db, player, LISTED)
            finished = player_rows.ends_of(db, playing - now_playing)
        events: list[dict[str, Any]] = [
            {"type": kind, "challenge": data} for _, kind, data in found if kind in CHALLENGE_KINDS
        ]
        last = max([last, *(notification_id for notification_id, _, _ in found)])
        events += [
            {"type": "match_start", "match": {"match_id": m}} for m in sorted(now_playing - playing)
        ]
        events += [
            {"type": "match_finish", "match": {"match_id": m, "status": s, "winner": w}}
            for m, s, w in finished
        ]
        return events, last, now_playing
