"""A bot account's event stream (contract v1.2 "Bots", issue 45: `GET /api/stream/events`):
newline-delimited JSON of what concerns the account outside its matches — challenges received
(`challenge`), cancelled by their challenger (`challenge_canceled`), declined by their target
(`challenge_declined`), accepted (`challenge_accepted`), and its matches starting
(`match_start`) and ending (`match_finish`) — with a blank line after KEEPALIVE_S of quiet.

Resumable by construction: on opening, every open challenge to the account and every match it
sits in that is under way are announced; after that, what changes. Challenges arrive as the
bell's notifications do (Fanout.notified, from any process); matches are compared with the
database at each wake and at least every POLL_S, so a match that started or ended on another
process is announced within that time. A match that both started and ended between two looks
(a quick resignation, or looks delayed by a busy server) is caught by the ends of matches that
started since the look before (less a MISSED_S margin for a commit that lagged its stamp), and
announced as a start and a finish. One event stream per token (429 too_many_streams)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
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
MISSED_S: Final = 60.0  # how far back a look seeks matches started and ended unseen


@dataclass
class Seen:
    """Where a stream goes on from: the newest notification told, the matches under way at the
    last look, the ends told of matches that started within the window, and that look's time."""

    last: int
    playing: set[str]
    at: datetime
    told: set[str] = field(default_factory=set)


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
            events, seen = await run_in_threadpool(self._opening, who.player_id)
            for event in events:
                yield dumps(event) + "\n"
            quiet = 0.0
            while True:
                try:
                    await asyncio.wait_for(wake.wait(), POLL_S)
                except TimeoutError:
                    quiet += POLL_S
                wake.clear()
                events, seen = await run_in_threadpool(self._since, who.player_id, seen)
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

    def _opening(self, player: str) -> tuple[list[dict[str, Any]], Seen]:
        """What is open now, and where the stream goes on from."""
        now = self.core.stamp()
        with self.core.db.reader() as db:
            incoming = challenge_rows.incoming(db, player, now, LISTED)
            last = notifications.newest_id(db, player)
            playing = player_rows.playing(db, player, LISTED)
            # ends from before the stream opened are not news
            window = now - timedelta(seconds=MISSED_S)
            ended = player_rows.finished_since(db, player, window, LISTED)
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
        return events, Seen(last, playing, now, {m for m, _, _ in ended})

    def _since(self, player: str, seen: Seen) -> tuple[list[dict[str, Any]], Seen]:
        now = self.core.stamp()
        with self.core.db.reader() as db:
            found = notifications.after(db, player, seen.last, LISTED)
            now_playing = player_rows.playing(db, player, LISTED)
            finished = player_rows.ends_of(db, seen.playing - now_playing)
            recent = player_rows.finished_since(
                db, player, seen.at - timedelta(seconds=MISSED_S), LISTED
            )
        events: list[dict[str, Any]] = [
            {"type": kind, "challenge": data} for _, kind, data in found if kind in CHALLENGE_KINDS
        ]
        last = max([seen.last, *(notification_id for notification_id, _, _ in found)])
        missed = sorted(e for e in recent if e[0] not in seen.playing | seen.told)
        events += [
            {"type": "match_start", "match": {"match_id": m}}
            for m in sorted(now_playing - seen.playing) + [m for m, _, _ in missed]
        ]
        events += [
            {"type": "match_finish", "match": {"match_id": m, "status": s, "winner": w}}
            for m, s, w in [*finished, *missed]
        ]
        # an end told is kept while its match is in the window, so as to be told once
        told = (seen.told | {m for m, _, _ in [*finished, *missed]}) & {m for m, _, _ in recent}
        return events, Seen(last, now_playing, now, told)
