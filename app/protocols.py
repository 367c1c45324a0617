"""uvicorn's HTTP and websocket protocols, with two fixes a churn of refused sockets needs."""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class HttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, minus the reference cycle an upgrade leaves behind.

    The protocol holds its parser and the parser holds the protocol's callbacks. uvicorn breaks
    that cycle when a connection is lost, but not when the connection is handed to a websocket
    protocol, so every websocket handshake left a cycle only the garbage collector could free.
    Under a churn of spectator sockets (800 a second) those cycles outlived the young
    generations, full collections ran every second and each stopped the event loop for about
    170 ms: the players' p99 was those pauses. Once upgraded, the parser is never used again."""

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]  # freed now, by reference counting


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
