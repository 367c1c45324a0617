"""uvicorn's HTTP and websocket protocols, with what a churn of refused sockets needs: no cycle
left per handshake, no error line per refusal, and the spectators' budget spent before any
websocket protocol exists."""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .http.shedding import ADMITTED, HELD_MAX, Shedder, is_spectator_socket


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
    """uvicorn's websockets-sansio protocol, counting a denial response (the handshake answered
    with an HTTP status, as the spectator shedding does) as a finished handshake. uvicorn does
    not, and logged "ASGI callable returned without completing handshake" at ERROR for every
    refusal: a flood of refused sockets became a flood of error lines (uvicorn pull request
    #3138 makes the same change)."""

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message["type"] == "websocket.http.response.body" and not message.get("more_body"):
            self.handshake_complete = True
