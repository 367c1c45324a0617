"""This process's tournament sockets (WS /ws/tournaments/{id}), by tournament: when a tournament
changes anywhere (`Fanout.tournament_changed`, across processes through Redis) its sockets here
are sent the page again. Page pushes are coalesced: a tournament renders at most once per
COALESCE_S however many games end meanwhile, and the public part is serialised once for all
its viewers; each signed-in viewer's socket adds only its own line (your game, your place).
A pairing does not wait for that: its notification (`Fanout.notified`, on every process)
sends the paired player's sockets here their own line at once, a few dozen bytes
(bench.tournament at 500 players: whole pages to every socket on every change were 31 KiB
each, the server's CPU, and seconds of pairing latency); the players notified together (an
arena's pass tells all its games at its end) are read in one go. A socket's first frame is
the page as last rendered when it is fresh (a crowd arriving at a start costs one render, not
one each). Capped per process and per client address."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketState

from ..addresses import client_key
from ..logs import REQUEST_ID
from .hub import too_many

log = logging.getLogger("watergate.tournament_room")
COALESCE_S = 2.0
FRESH_S = 1.0  # a page rendered this recently is a new socket's first frame
Lines = dict[str, dict[str, Any]]
# tournament id -> (its public page, every entrant's own line by player id)
Render = Callable[[str], Awaitable[tuple[dict[str, Any], Lines]]]
# (tournament id, player ids) -> those entrants' own lines by player id
RenderOwn = Callable[[str, list[str]], Awaitable[Lines]]


class TournamentSocket:
    def __init__(self, ws: WebSocket, tournament_id: str, player_id: str | None) -> None:
        self.ws, self.tournament_id, self.player_id = ws, tournament_id, player_id
        self.address = client_key(ws.scope)
        self.lock = asyncio.Lock()

    async def send_text(self, text: str) -> None:
        async with self.lock:
            if self.ws.application_state == WebSocketState.CONNECTED:
                await self.ws.send_text(text)


def frame(page: dict[str, Any], mine: dict[str, Any] | None) -> str:
    return with_you(public_part(page), mine)


def public_part(page: dict[str, Any]) -> str:
    """The page's frame without its closing brace: serialised once per push, however many
    sockets it goes to (a 500-player page is tens of KiB; each socket adds only its line)."""
    return json.dumps({"type": "tournament", **page}, separators=(",", ":"))[:-1]


def with_you(public: str, mine: dict[str, Any] | None) -> str:
    return f'{public},"you":{json.dumps(mine, separators=(",", ":"))}}}'


class TournamentRoom:
    def __init__(self, cap: int, per_address: int) -> None:
        self.cap, self.per_address = cap, per_address
        self.by_tournament: dict[str, set[TournamentSocket]] = {}
        self.by_address: Counter[str] = Counter()
        self.count = 0
        self.render: Render | None = None
        self.render_own: RenderOwn | None = None
        self._due: dict[str, asyncio.Task[None]] = {}
        self._last: dict[str, tuple[float, dict[str, Any], Lines]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        # players just notified, by tournament, whose own lines are still to be sent
        self._owed: dict[str, set[str]] = {}
        self._owing: asyncio.Task[None] | None = None
        # changes that came while their tournament's push was already being rendered or sent:
        # one more push follows it (else a pairing committed meanwhile would wait for the next)
        self._again: set[str] = set()

    def add(self, conn: TournamentSocket) -> None:
        if self.count >= self.cap:
            raise too_many("for tournaments")
        if self.by_address[conn.address] >= self.per_address:
            raise too_many("for tournaments from your address")
        self.by_tournament.setdefault(conn.tournament_id, set()).add(conn)
        self.by_address[conn.address] += 1
        self.count += 1

    def remove(self, conn: TournamentSocket) -> bool:
        """Forget the socket; whether its player has no other socket on it here."""
        mine = self.by_tournament.get(conn.tournament_id)
        if mine is None or conn not in mine:
            return False
        mine.discard(conn)
        if not mine:
            del self.by_tournament[conn.tournament_id]
            self._last.pop(conn.tournament_id, None)
        self.by_address[conn.address] -= 1
        if not self.by_address[conn.address]:
            del self.by_address[conn.address]
        self.count -= 1
        return not any(c.player_id == conn.player_id for c in mine)

    async def current(self, tournament_id: str) -> tuple[dict[str, Any], Lines]:
        """The page and lines for a new socket's first frame: the last render if fresh."""
        kept = self._last.get(tournament_id)
        if kept is not None and time.monotonic() - kept[0] < FRESH_S:
            return kept[1], kept[2]
        assert self.render is not None
        page, lines = await self.render(tournament_id)
        self._last[tournament_id] = (time.monotonic(), page, lines)
        return page, lines

    def notified(self, player_id: str, notification_id: int) -> None:
        """A `Fanout.notified` callback: a player with a tournament socket here may just have
        been paired; their sockets are sent their own line at once (a notification of another
        kind costs a small read, only for players with a tournament page open here). The
        players notified while a read is under way are read together next: an arena's pass
        tells all its games at its end, and a read (a thread call) each held up the moves."""
        tids = {
            tid for tid, conns in self.by_tournament.items() for conn in conns
            if conn.player_id == player_id
        }  # fmt: skip
        for tid in tids:
            self._owed.setdefault(tid, set()).add(player_id)
        if tids and (self._owing is None or self._owing.done()):
            self._owing = asyncio.create_task(self._tell())
            self._tasks.add(self._owing)
            self._owing.add_done_callback(self._tasks.discard)

    async def _tell(self) -> None:
        REQUEST_ID.set(None)
        assert self.render_own is not None
        while self._owed:
            owed, self._owed = self._owed, {}
            for tid, players in owed.items():
                try:
                    lines = await self.render_own(tid, sorted(players))
                except Exception as err:  # the database away: the next page push tells it
                    log.warning("rendering entrants' lines failed (%s)", type(err).__name__)
                    continue
                for conn in list(self.by_tournament.get(tid, ())):
                    line = lines.get(conn.player_id) if conn.player_id in players else None
                    if line is not None:
                        text = json.dumps({"type": "you", "you": line}, separators=(",", ":"))
                        with contextlib.suppress(Exception):  # a socket closing meanwhile
                            await conn.send_text(text)

    def changed(self, tournament_id: str) -> None:
        """A `Fanout.tournament_changed` callback: render soon, once, if anyone watches here."""
        if tournament_id not in self.by_tournament:
            return
        if tournament_id in self._due:
            self._again.add(tournament_id)
            return
        task = asyncio.create_task(self._deliver(tournament_id))
        self._due[tournament_id] = task
        task.add_done_callback(lambda _: self._delivered(tournament_id))

    def _delivered(self, tournament_id: str) -> None:
        self._due.pop(tournament_id, None)
        if tournament_id in self._again:
            self._again.discard(tournament_id)
            self.changed(tournament_id)

    async def _deliver(self, tournament_id: str) -> None:
        REQUEST_ID.set(None)
        await asyncio.sleep(COALESCE_S)  # gather the changes of the next moment into one push
        self._again.discard(tournament_id)  # what came until now is in this render
        assert self.render is not None
        try:
            page, lines = await self.render(tournament_id)
        except Exception as err:  # the database away: the next change or reload shows it
            log.warning("rendering a tournament failed (%s)", type(err).__name__)
            return
        self._last[tournament_id] = (time.monotonic(), page, lines)
        public = public_part(page)
        anyone = with_you(public, None)
        for conn in list(self.by_tournament.get(tournament_id, ())):
            mine = lines.get(conn.player_id) if conn.player_id else None
            with contextlib.suppress(Exception):  # a socket closing meanwhile
                await conn.send_text(anyone if mine is None else with_you(public, mine))

    async def close(self) -> None:
        self._again.clear()
        for task in [*self._due.values(), *self._tasks]:
            task.cancel()
        await asyncio.gather(*self._due.values(), *self._tasks, return_exceptions=True)
