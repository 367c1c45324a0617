"""This process's sockets, per match. A room per match renders each viewer's frame once per
change and hands it to every socket of that viewer; each socket's sender sends only the newest
frame it was handed, so pushes are ordered and coalesced and an unchanged view is not resent.
A socket that opens reuses its viewer's newest frame, and the live sockets are capped per seat,
per spectator link (and its share per client address) and per match (on this process), so
opening sockets cannot multiply work.
Each room also times, for the metrics, every action's push to the other seat's sockets here."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import uuid
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from engine.core.game import Viewer

from ..addresses import client_key
from ..errors import ApiError
from ..logs import REQUEST_ID
from ..metrics import Metrics
from ..outages import OUTAGES, unavailable
from .frames import Frame

log = logging.getLogger("watergate.push")

# (match id, the viewers wanted, the newest version announced) -> a frame per viewer, or None
# when the match no longer exists
Render = Callable[[str, set[Viewer], int], Awaitable[dict[Viewer, Frame] | None]]
Sendable = Frame | str  # a view, or a ready message (an error)
GONE = '{"type":"error","code":"not_found","message":"No such match."}'
CLOSE_GONE = 4404
CLOSE_FAILED = 1011  # our side broke: the client reconnects and gets a full view
# How old a viewer's frame may be and still be handed to a socket that just opened. A frame is
# re-rendered on every change anyway; only its clocks' "remaining_ms" age, and a client runs its
# clocks from when a frame arrives, so this much is within what the network adds already.
FRAME_REUSE_S = 0.25
RENDER_RETRY_S, RENDER_RETRY_MAX_S = 0.5, 5.0  # a failed render is tried again, backing off
# Actions whose push is still to be timed, per room: far more than a room ever has waiting (its
# frames are rendered once per change), and a bound should a render keep failing.
MAX_ARRIVALS = 64
MAX_POSTS = 32  # chat lines waiting for one socket's sender


@dataclass(frozen=True, slots=True)
class Caps:
    """Live sockets allowed on this process (each process counts only its own sockets)."""

    per_seat: int = 4
    per_spectator_key: int = 20  # a match has one spectator link: its spectators' sockets
    per_match: int = 200
    # of a spectator link's, from one client address: one address cannot take them all (a seat's
    # sockets need its secret token, so only the spectators' share is per address)
    spectators_per_address: int = 10


def too_many(what: str) -> ApiError:
    return ApiError(429, "too_many_sockets", f"Too many open sockets {what}; close one first.")


class Connection:
    """One seat's (or a spectator's) socket and its sender task."""

    def __init__(self, ws: WebSocket, match_id: str, viewer: Viewer, tails: bool = False) -> None:
        self.ws, self.match_id, self.viewer = ws, match_id, viewer
        self.address = client_key(ws.scope)  # who it is, as the caps' shares count it
        self.tails = tails  # the client asked for log tails (?log=tail): v1.1
        self.id = uuid.uuid4().hex
        self.last: Sendable = ""  # the newest thing sent
        self._latest: Sendable = ""
        # messages beside the views (chat lines), sent in order; bounded: a socket that cannot
        # keep up loses the oldest (the next view carries the chat history anyway)
        self._posts: deque[str] = deque(maxlen=MAX_POSTS)
        self._log_sent = 0  # log entries this socket has had
        self._close: int | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._sender())

    def offer(self, item: Sendable, close: int | None = None) -> None:
        """The newest frame for this socket (and, with `close`, then close it with that code; a
        close once asked for stays asked for, whatever frame comes after it)."""
        self._latest = item
        self._close = self._close if close is None else close
        self._wake.set()

    def post(self, text: str) -> None:
        """A message to send besides the newest view, after those posted before it."""
        self._posts.append(text)
        self._wake.set()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def send_text(self, text: str) -> None:
        if self.ws.application_state == WebSocketState.CONNECTED:
            await self.ws.send_text(text)

    async def _sender(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                latest = self._latest
                if _key(latest) != _key(self.last):
                    self.last = latest
                    await self.send_text(self._text(latest))
                while self._posts:
                    await self.send_text(self._posts.popleft())
                if self._close is not None:
                    await self.ws.close(code=self._close)
                    return
            except WebSocketDisconnect:
                return  # the client left; the endpoint cleans up
            except Exception:  # the endpoint cleans up once the socket is closed
                log.exception("push to %s/%s failed", self.match_id, self.viewer)
                # closed, not left open and silent: the client reconnects and gets a full view
                with contextlib.suppress(Exception):
                    await self.ws.close(code=CLOSE_FAILED)
                return

    def _text(self, item: Sendable) -> str:
        """What goes on the wire: with tails, only the log entries not sent yet."""
        if isinstance(item, str):
            return item
        text = item.text(self._log_sent if self.tails else None)
        self._log_sent = len(item.log)
        return text


def _key(item: Sendable) -> object:
    """Equal for two things that would show the client the same (an unchanged view is not
    resent)."""
    return item if isinstance(item, str) else (item.head, len(item.log))


class Room:
    """The sockets of one match in this process, and the task that renders their frames."""

    def __init__(self, match_id: str, render: Render, metrics: Metrics) -> None:
        self.match_id, self.render, self.metrics = match_id, render, metrics
        self.conns: set[Connection] = set()
        self.count: Counter[Viewer] = Counter()  # live sockets per viewer
        self.watching: Counter[str] = Counter()  # live spectator sockets per client address
        self.fresh: set[Connection] = set()  # sockets still waiting for their first frame
        self.dirty = False  # every socket needs a new frame
        self.wanted = 0  # the newest version announced for this match
        self.frames: dict[Viewer, tuple[float, Frame]] = {}  # newest frame per viewer, and when
        # version -> (the seat that moved, when its action arrived: epoch seconds), until the
        # frames of that version are handed to the other seats' sockets
        self.arrivals: dict[int, tuple[str, float]] = {}
        self.woken: float | None = None  # when the oldest change not yet picked up came
        self._wake = asyncio.Event()
        self._task = asyncio.create_task(self._run())
        self.failures = 0  # renders failed in a row (the database away): retried with backoff
        self._retry: asyncio.TimerHandle | None = None

    def add(self, conn: Connection) -> None:
        self.conns.add(conn)
        self.count[conn.viewer] += 1
        if conn.viewer is None:
            self.watching[conn.address] += 1
        if conn.viewer is not None and self.count[conn.viewer] == 1:
            self.frames.clear()  # the kept frames show this seat away (its announcement follows)
        self.fresh.add(conn)
        self._wake.set()

    def discard(self, conn: Connection) -> None:
        if conn in self.conns:
            self.conns.discard(conn)
            self.count[conn.viewer] -= 1
            if conn.viewer is None:
                self.watching[conn.address] -= 1
                if not self.watching[conn.address]:
                    del self.watching[conn.address]
            if not self.count[conn.viewer]:
                del self.count[conn.viewer]
                if conn.viewer is not None:
                    self.frames.clear()  # the kept frames show this seat online
        self.fresh.discard(conn)

    def wake(
        self, version: int = 0, mover: str | None = None, arrived: float | None = None
    ) -> None:
        self.wanted = max(self.wanted, version)
        if mover is not None and arrived is not None and len(self.arrivals) < MAX_ARRIVALS:
            self.arrivals[version] = (mover, arrived)
        if not self.dirty:
            self.woken = time.monotonic()
        self.dirty = True
        self._wake.set()

    def gone(self) -> None:
        self.frames.clear()  # a socket that opens now renders, finds no match, and is closed
        for conn in self.conns:
            conn.offer(GONE, close=CLOSE_GONE)

    async def stop(self) -> None:
        if self._retry is not None:
            self._retry.cancel()
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task

    async def _run(self) -> None:
        REQUEST_ID.set(None)  # the room outlives the socket whose request made it
        while True:
            await self._wake.wait()
            self._wake.clear()
            if self.dirty:  # something changed: every frame kept is stale
                targets, self.dirty = set(self.conns), False
                self.frames.clear()
                if self.woken is not None:  # how long the change waited for this task
                    self.metrics.fanned_out("local", time.monotonic() - self.woken)
                    self.woken = None
            else:  # only new sockets: they share their viewer's newest frame if it is recent
                targets = set(self.fresh)
            self.fresh.clear()
            if targets:
                await self._push(targets)

    async def _push(self, targets: set[Connection]) -> None:
        now, upto = time.monotonic(), self.wanted
        ready = {v: text for v, (at, text) in self.frames.items() if now - at <= FRAME_REUSE_S}
        missing = {c.viewer for c in targets} - ready.keys()
        if missing:
            try:
                frames = await self.render(self.match_id, missing, self.wanted)
            except ApiError as err:
                for conn in targets:
                    conn.offer(json.dumps({"type": "error", **err.body()}))
                return
            except Exception as err:
                self._retry_later(err, targets)
                return
            self.failures = 0
            if frames is None:
                for conn in targets:
                    conn.offer(GONE, close=CLOSE_GONE)
                return
            # a change announced during the render marks the room dirty, which drops these
            # frames before any socket that opens later could reuse them
            self.frames.update((v, (now, text)) for v, text in frames.items())
            ready.update(frames)
        for conn in targets:
            conn.offer(ready[conn.viewer])
        if self.arrivals:
            self._timed(targets, upto)

    def _timed(self, targets: set[Connection], upto: int) -> None:
        """The actions up to version `upto` have their frames handed over: each one's latency,
        when a seat other than its mover has a socket here (the mover's own push is no news)."""
        now = time.time()  # the arrival may have been stamped by another process
        for version in [v for v in self.arrivals if v <= upto]:
            mover, arrived = self.arrivals.pop(version)
            if any(c.viewer is not None and c.viewer != mover for c in targets):
                self.metrics.pushed(now - arrived)

    def _retry_later(self, err: Exception, targets: set[Connection]) -> None:
        """A render failed (the database away, mostly): the sockets are told once, and the
        render is tried again, later and later, until it succeeds, so no socket is left on an
        old view once the database is back, even if nothing changes meanwhile."""
        if not self.failures:
            if isinstance(err, OUTAGES):
                log.warning("rendering %s failed (%s); retrying", self.match_id, type(err).__name__)
                for conn in targets:
                    conn.offer(json.dumps({"type": "error", **unavailable().body()}))
            else:
                log.exception("rendering %s failed; retrying", self.match_id)
        self.failures += 1
        self.dirty = True  # every socket is due a new frame when it works again
        delay = min(RENDER_RETRY_MAX_S, RENDER_RETRY_S * 2 ** (self.failures - 1))
        if self._retry is not None:
            self._retry.cancel()  # a change failed meanwhile too: one retry pending, not two
        self._retry = asyncio.get_running_loop().call_later(delay, self._wake.set)


class Hub:
    """This process's rooms."""

    def __init__(self, metrics: Metrics, caps: Caps | None = None) -> None:
        self._rooms: dict[str, Room] = {}
        self.metrics = metrics
        self.caps = caps or Caps()
        self.render: Render | None = None  # set by the app once the renderer exists

    def add(self, conn: Connection) -> int:
        """Start serving the socket; how many sockets its viewer now has in this process.
        Over a cap it is refused (ApiError 429) before anything starts. Checking and adding
        with no await between them keeps the count exact."""
        assert self.render is not None
        room = self._rooms.get(conn.match_id)
        if room is not None and len(room.conns) >= self.caps.per_match:
            raise too_many("on this match")
        mine = room.count[conn.viewer] if room is not None else 0
        if conn.viewer is None and mine >= self.caps.per_spectator_key:
            raise too_many("for this spectator link")
        theirs = room.watching[conn.address] if room is not None else 0
        if conn.viewer is None and theirs >= self.caps.spectators_per_address:
            raise too_many("for this spectator link from your address")
        if conn.viewer is not None and mine >= self.caps.per_seat:
            raise too_many("for this seat")
        if room is None:
            room = self._rooms[conn.match_id] = Room(conn.match_id, self.render, self.metrics)
        conn.start()
        room.add(conn)
        return room.count[conn.viewer]

    async def remove(self, conn: Connection) -> int:
        """Stop serving the socket; how many sockets its viewer still has in this process."""
        left = 0
        room = self._rooms.get(conn.match_id)
        if room is not None:
            room.discard(conn)
            left = room.count[conn.viewer]
            if not room.conns:
                del self._rooms[conn.match_id]
                await room.stop()
        await conn.stop()
        return left

    def wake(
        self,
        match_id: str,
        version: int = 0,
        mover: str | None = None,
        arrived: float | None = None,
    ) -> None:
        """The match changed (to `version`; by `mover`'s action, which arrived at `arrived`)."""
        room = self._rooms.get(match_id)
        if room is not None:
            room.wake(version, mover, arrived)

    def post(self, match_id: str, text: str, to: Callable[[Viewer], bool] | None = None) -> None:
        """A message for every socket of the match here, seats and spectators (a chat line);
        with `to`, only the sockets of the viewers it accepts."""
        room = self._rooms.get(match_id)
        if room is not None:
            for conn in room.conns:
                if to is None or to(conn.viewer):
                    conn.post(text)

    def gone(self, match_id: str) -> None:
        room = self._rooms.get(match_id)
        if room is not None:
            room.gone()

    def serves(self, match_id: str) -> bool:
        """Whether a socket is open on this match here (its room follows every change)."""
        return match_id in self._rooms

    def local_seats(self, match_id: str) -> set[str]:
        """Seats of this match with a socket open on this process."""
        room = self._rooms.get(match_id)
        return {v for v in room.count if v is not None} if room else set()

    def viewers(self, match_id: str) -> set[Viewer]:
        """Who watches this match on this process: seats, and None for spectators."""
        room = self._rooms.get(match_id)
        return {c.viewer for c in room.conns} if room else set()

    def match_count(self) -> int:
        """Matches with a live socket on this process."""
        return len(self._rooms)

    def socket_count(self, kind: str) -> int:
        """Live sockets on this process of one kind: "seat" or "spectator"."""
        spectators = sum(room.count[None] for room in self._rooms.values())
        if kind == "spectator":
            return spectators
        return sum(len(room.conns) for room in self._rooms.values()) - spectators

    def connections(self) -> list[Connection]:
        return [c for room in self._rooms.values() for c in room.conns]

    async def close(self) -> None:
        for room in list(self._rooms.values()):
            await room.stop()
