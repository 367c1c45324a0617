"""uvicorn's HTTP and websocket protocols, with what a churn of refused sockets needs: no cycle
left per handshake, no error line per refusal, and the spectators' budget spent before any
websocket protocol exists."""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .budget import Budget
from .http.shedding import ADMITTED, HELD_MAX, Shedder, is_spectator_socket
from .http.sockets import DROP_REASON

DROP_AFTER_S = 1.0  # a socket closed for flooding is dropped this long after its close frame


class HttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, minus the reference cycle an upgrade leaves behind.

    The protocol holds its parser and the parser holds the protocol's callbacks. uvicorn breaks
    that cycle when a connection is lost, but not when the connection is handed to a websocket
    protocol, so every websocket handshake left a cycle only the garbage collector could free.
    Under a churn of spectator sockets (800 a second) those cycles outlived the young
    generations, full collections ran every second and each stopped the event loop for about
    170 ms: the players' p99 was those pauses. Once upgraded, the parser is never used again."""

    shedder: Shedder | None = None  # the app's spectator budget (for_app)

    @classmethod
    def for_app(cls, shedder: Shedder | None) -> type[HttpProtocol]:
        """The protocol class for an app whose spectator budget is `shedder` (None: no budget)."""
        return type(cls.__name__, (cls,), {"shedder": shedder})

    def handle_websocket_upgrade(self) -> None:
        if self._admitted():
            super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]  # freed now, by reference counting

    def _admitted(self) -> bool:
        """Whether the upgrade goes on; a spectator over the budget is refused here instead."""
        shedder = self.shedder
        # the raw target: the scope has no path before the upgrade (a spectator path spelled
        # with %-escapes is let through here and charged by the middleware)
        if shedder is None or not is_spectator_socket(self.url.split(b"?", 1)[0].decode("latin-1")):
            return True
        if not shedder.budget.take():
            self._refuse_spectator(shedder)
            return False
        # Spent here, not in the middleware: a crowd arriving in one instant all found the
        # budget not yet spent and went on to full handshakes and ASGI requests before the
        # middleware refused all but one (8,500 of 32,000 refusals in a bench.load churn). The
        # mark rides in the request's "state", which the websocket protocol copies from this
        # dict; the middleware lets a socket so marked through.
        self.app_state = {**self.app_state, ADMITTED: True}
        return True

    def _refuse_spectator(self, shedder: Shedder) -> None:
        """The answer app/http/shedding.py gives a spectator over the budget, given here before
        any websocket protocol, ASGI scope, task or middleware exists for the connection: a
        refusal then costs a timer, not a request."""
        self.transport.pause_reading()  # nothing more is read: the answer is the last word
        if shedder.held < HELD_MAX:
            shedder.held += 1
            self.loop.call_later(shedder.delay(), self._answer_refusal, shedder, True)
        else:
            self._answer_refusal(shedder, False)

    def _answer_refusal(self, shedder: Shedder, held: bool) -> None:
        if held:
            shedder.held -= 1
        if self.transport.is_closing():
            return  # the client gave up waiting
        wait, body = shedder.refusal()
        head = (
            "HTTP/1.1 429 Too Many Requests\r\n"
            "content-type: application/json\r\n"
            f"retry-after: {wait}\r\n"
            f"content-length: {len(body)}\r\n"
            "connection: close\r\n\r\n"
        )
        self.transport.write(head.encode() + body)
        self.transport.close()


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets-sansio protocol, reading only what the app is ready for.

    uvicorn parses whatever one read returns and queues every message in it for the app: a
    client sending as fast as it can had 256 KiB parsed at a time, 12,000 pings in one stall of
    the event loop of about 70 ms, queued for an app that closes such a socket after 40 (the
    message budget, app/http/sockets.py). Here what arrives is parsed a slice at a time, only
    while the app has no message waiting, and the transport is paused meanwhile, so such a client
    waits on TCP instead of on our CPU. Protocol pings and pongs, which never reach the app, are
    metered here with the same budget (over it: close 1008). Once the app closes a socket for
    flooding (DROP_REASON), nothing more from it is read and the connection is dropped soon after.

    It also counts a denial response (the handshake answered with an HTTP status, as the
    spectator shedding does) as a finished handshake. uvicorn does not, and logged "ASGI callable
    returned without completing handshake" at ERROR for every refusal: a flood of refused sockets
    became a flood of error lines (uvicorn pull request #3138 makes the same change)."""

    SLICE_BYTES = 8192  # parsed at a time: a few hundred small messages at most
    control_rate: float = 0.0  # protocol pings and pongs a second (for_app; 0: not metered)
    control_burst: float = 1.0

    @classmethod
    def for_app(cls, rate: float, burst: float) -> type[WebSocketProtocol]:
        """The protocol class metering pings and pongs at the app's message budget."""
        return type(cls.__name__, (cls,), {"control_rate": rate, "control_burst": burst})

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.unparsed = bytearray()
        self.dropping = False
        self.parse_soon: asyncio.Handle | None = None
        rate = self.control_rate
        self.controls = Budget(rate, self.control_burst, self.loop.time) if rate else None

    def data_received(self, data: bytes) -> None:
        if self.dropping:
            return
        self.unparsed += data
        self.parse_some()

    def parse_some(self) -> None:
        """One slice of what arrived, if the app has no message waiting (or after the close, to
        find the client's reply); the rest waits, with the transport paused. While the slices
        held only control frames the next is parsed on the loop's next turn, after others'."""
        self.parse_soon = None
        if self.wants_more():
            chunk = bytes(self.unparsed[: self.SLICE_BYTES])
            del self.unparsed[: self.SLICE_BYTES]
            super().data_received(chunk)
        if self.wants_more() and self.parse_soon is None:
            self.parse_soon = self.loop.call_soon(self.parse_some)
        self.sync_reading()

    def wants_more(self) -> bool:
        """Whether something held back is to be parsed now."""
        waiting = self.queue.empty() or self.close_sent
        return bool(self.unparsed) and not self.dropping and waiting

    def sync_reading(self) -> None:
        """The transport reads only while nothing is held back (nor queued, as uvicorn wants)."""
        transport = self.transport
        if transport.is_closing():
            return
        wanted = not (self.dropping or self.unparsed or self.read_paused)
        if wanted and not transport.is_reading():
            transport.resume_reading()
        elif not wanted and transport.is_reading():
            transport.pause_reading()

    async def receive(self) -> Any:
        if self.queue.empty():
            self.parse_some()  # the app wants a message: it comes from what is held, first
        message = await super().receive()
        self.sync_reading()
        return message

    def handle_ping(self) -> None:
        if self.metered():
            super().handle_ping()

    def handle_pong(self, event: Any) -> None:
        if self.metered():
            super().handle_pong(event)

    def metered(self) -> bool:
        """Whether a ping or pong is within the budget; over it the connection fails (1008)."""
        if self.controls is None or self.controls.take():
            return True
        self.conn.fail(1008, "too many pings")
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.drop()
        return False

    def drop(self) -> None:
        """Read nothing more from this client, and close the connection soon (its close frame
        is on its way; what it still sends is not looked at)."""
        self.dropping = True
        self.unparsed.clear()
        self.sync_reading()
        if self.close_timer is not None:
            self.close_timer.cancel()
        self.close_timer = self.loop.call_later(DROP_AFTER_S, self.transport.close)

    def connection_lost(self, exc: Exception | None) -> None:
        self.unparsed.clear()
        if self.parse_soon is not None:
            self.parse_soon.cancel()
        super().connection_lost(exc)

    async def send(self, message: Any) -> None:
        await super().send(message)
        kind = message["type"]
        if kind == "websocket.http.response.body" and not message.get("more_body"):
            self.handshake_complete = True
        elif kind == "websocket.close" and message.get("reason") == DROP_REASON:
            self.drop()
