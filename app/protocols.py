"""uvicorn's HTTP and websocket protocols, with what hostile clients need: a connection cap with
a share per address and a deadline for each request (app/http/connections.py); no cycle left per
handshake, no error line per refusal, the spectators' budget spent and flooders refused before
any websocket protocol exists; websocket messages parsed only as fast as the app reads them."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .addresses import address_key
from .budget import Budget
from .http.connections import TIMED_OUT, Door, Ticket
from .http.flooders import Penalties
from .http.shedding import ADMITTED, HELD_MAX, Shedder, is_spectator_socket
from .http.sockets import DROP_REASON

DROP_AFTER_S = 1.0  # a socket closed for flooding is dropped this long after its close frame


class HttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, minus the reference cycle an upgrade leaves behind, with the
    door of app/http/connections.py (a connection cap, each address's share of it, a deadline
    for every request to arrive) and the early refusal of spectators over their budget and of
    addresses penalised for flooding.

    The protocol holds its parser and the parser holds the protocol's callbacks. uvicorn breaks
    that cycle when a connection is lost, but not when the connection is handed to a websocket
    protocol, so every websocket handshake left a cycle only the garbage collector could free.
    Under a churn of spectator sockets (800 a second) those cycles outlived the young
    generations, full collections ran every second and each stopped the event loop for about
    170 ms: the players' p99 was those pauses. Once upgraded, the parser is never used again."""

    shedder: Shedder | None = None  # the app's spectator budget (for_app)
    door: Door | None = None  # who may connect, and the request deadline (for_app)
    penalties: Penalties | None = None  # addresses that flooded a socket (for_app)

    @classmethod
    def for_app(
        cls, shedder: Shedder | None, door: Door | None = None, penalties: Penalties | None = None
    ) -> type[HttpProtocol]:
        """The protocol class for an app whose spectator budget is `shedder` (None: no budget),
        whose connections pass `door` (None: any) and whose flooders are `penalties`."""
        attributes = {"shedder": shedder, "door": door, "penalties": penalties}
        return type(cls.__name__, (cls,), attributes)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ticket: Ticket | None = None
        self.read_timer: asyncio.TimerHandle | None = None
        self.reading = False  # a request has begun and is not all here yet

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        door = self.door
        if door is None:
            return
        admitted = door.admit(self.client[0] if self.client else None)
        if isinstance(admitted, bytes):  # refused: the file is free again at once
            transport.write(admitted)
            transport.close()
            return
        self.ticket = admitted
        self._read_by_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        self._read_done()
        if self.ticket is not None:
            self.ticket.release()
            self.ticket = None
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.reading = True
        if self.read_timer is None:  # the next request of a kept-alive connection
            self._read_by_deadline()

    def on_message_complete(self) -> None:
        self.reading = False
        self._read_done()
        super().on_message_complete()

    def _read_by_deadline(self) -> None:
        if self.door is not None and self.door.read_seconds > 0:
            self.read_timer = self.loop.call_later(self.door.read_seconds, self._read_timed_out)

    def _read_done(self) -> None:
        if self.read_timer is not None:
            self.read_timer.cancel()
            self.read_timer = None

    def _read_timed_out(self) -> None:
        """The request (or the connection's first one) did not arrive in time: answered 408
        when it had begun and nothing was answered yet, and the connection is closed."""
        self.read_timer = None
        if self.transport.is_closing():
            return
        cycle = self.cycle if self.cycle is not None and self.cycle.scope is self.scope else None
        if self.reading and (cycle is None or not cycle.response_started):
            self.transport.write(TIMED_OUT)
        self.transport.close()

    def handle_websocket_upgrade(self) -> None:
        self._read_done()  # the handshake's head is here: the websocket protocol takes over
        if self._admitted():
            super().handle_websocket_upgrade()
            upgraded = self.transport.get_protocol()
            if isinstance(upgraded, WebSocketProtocol):  # it releases the connection's ticket
                upgraded.ticket, self.ticket = self.ticket, None
        self.parser = None  # type: ignore[assignment]  # freed now, by reference counting

    def _admitted(self) -> bool:
        """Whether the upgrade goes on; a spectator over the budget, or an address penalised for
        flooding, is refused here instead."""
        penalties, client = self.penalties, self.client
        trusted = self.door is not None and client is not None and client[0] in self.door.trusted
        if penalties is not None and client is not None and not trusted:
            left = penalties.left(address_key(client[0]))
            if left:
                self._refuse_later(penalties, lambda: penalties.refusal(left))
                return False
        shedder = self.shedder
        # the raw target: the scope has no path before the upgrade (a spectator path spelled
        # with %-escapes is let through here and charged by the middleware)
        if shedder is None or not is_spectator_socket(self.url.split(b"?", 1)[0].decode("latin-1")):
            return True
        if not shedder.budget.take():
            self._refuse_later(shedder, shedder.refusal)
            return False
        # Spent here, not in the middleware: a crowd arriving in one instant all found the
        # budget not yet spent and went on to full handshakes and ASGI requests before the
        # middleware refused all but one (8,500 of 32,000 refusals in a bench.load churn). The
        # mark rides in the request's "state", which the websocket protocol copies from this
        # dict; the middleware lets a socket so marked through.
        self.app_state = {**self.app_state, ADMITTED: True}
        return True

    def _refuse_later(
        self, keeper: Shedder | Penalties, answer: Callable[[], tuple[int, bytes]]
    ) -> None:
        """The answer the middleware gives (app/http/shedding.py, app/http/flooders.py), given
        here before any websocket protocol, ASGI scope, task or middleware exists for the
        connection: a refusal then costs a timer, not a request."""
        self.transport.pause_reading()  # nothing more is read: the answer is the last word
        if keeper.held < HELD_MAX:
            keeper.held += 1
            self.loop.call_later(keeper.delay(), self._answer_refusal, keeper, answer, True)
        else:
            self._answer_refusal(keeper, answer, False)

    def _answer_refusal(
        self, keeper: Shedder | Penalties, answer: Callable[[], tuple[int, bytes]], held: bool
    ) -> None:
        if held:
            keeper.held -= 1
        if self.transport.is_closing():
            return  # the client gave up waiting
        wait, body = answer()
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
    the event loop of about 70 ms, queued for an app that closes such a socket after 20 (the
    message budget, app/http/sockets.py). Here what arrives is parsed a slice at a time (1 KiB:
    with 8 KiB, 40 flooding sockets still had 20,000 pings parsed and queued in vain), only
    while the app has no message waiting, and the transport is paused meanwhile, so such a client
    waits on TCP instead of on our CPU. Protocol pings and pongs, which never reach the app, are
    metered here with the same budget (over it: close 1008). Once the app closes a socket for
    flooding (DROP_REASON), nothing more from it is read and the connection is dropped soon after.

    It also counts a denial response (the handshake answered with an HTTP status, as the
    spectator shedding does) as a finished handshake. uvicorn does not, and logged "ASGI callable
    returned without completing handshake" at ERROR for every refusal: a flood of refused sockets
    became a flood of error lines (uvicorn pull request #3138 makes the same change)."""

    SLICE_BYTES = 1024  # parsed at a time: a few dozen small messages at most
    control_rate: float = 0.0  # protocol pings and pongs a second (for_app; 0: not metered)
    control_burst: float = 1.0

    @classmethod
    def for_app(cls, rate: float, burst: float) -> type[WebSocketProtocol]:
        """The protocol class metering pings and pongs at the app's message budget."""
        return type(cls.__name__, (cls,), {"control_rate": rate, "control_burst": burst})

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ticket: Ticket | None = None  # the connection's, from the HTTP protocol
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
        if self.ticket is not None:
            self.ticket.release()
            self.ticket = None
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
