"""The server's uvicorn protocols (app/protocols.py), on a real uvicorn configured as `python -m
app` configures it: a spectator over the budget is refused by the HTTP protocol before any
websocket protocol or request exists, with the middleware's answer, and a crowd arriving in one
instant is charged there one by one; a refusal by the middleware
logs no error; and no websocket handshake leaves a reference cycle for the garbage collector
(under a churn of sockets those cycles made full collections run every second, each stopping
the event loop for a tenth of a second)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gc
import json
import logging
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from websockets.client import ClientProtocol
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.frames import Close, Frame, Opcode
from websockets.http11 import Response
from websockets.sync.client import connect
from websockets.uri import parse_uri

from app.__main__ import server_config
from app.main import create_app
from app.protocols import DROP_AFTER_S, HttpProtocol
from app.protocols import WebSocketProtocol as WsProtocol
from tests.app.conftest import make_settings
from tests.app.test_crash import free_port
from tests.app.test_shutdown import running

NO_SUCH_MATCH = "/ws/watch/" + "0" * 24 + "?key=" + "k" * 22


@contextmanager
def served(sqlite_url: str, early: bool = True) -> Iterator[tuple[str, uvicorn.Server]]:
    """The app behind uvicorn with our server config, in a thread; spectators' budget is one
    socket (then one per 100 s) and a refusal is answered at once. `early=False`: the HTTP
    protocol does not refuse, so the middleware does."""
    settings = make_settings(
        sqlite_url, spectator_sockets_per_second=0.01, spectator_refusal_delay_ms=0
    )
    config = server_config(create_app(settings), settings)
    config.port = free_port()
    if not early:
        config.http = HttpProtocol.for_app(None)
    with running(config) as server:
        yield f"ws://127.0.0.1:{config.port}", server


def spend_the_budget(base: str) -> None:
    """The budget's one socket: let through (it is told there is no such match)."""
    with contextlib.suppress(ConnectionClosed), connect(base + NO_SUCH_MATCH) as ws:
        assert '"error"' in str(ws.recv(timeout=10))


def refusal(url: str) -> InvalidStatus:
    """How a handshake was refused."""
    with pytest.raises(InvalidStatus) as refused, connect(url, open_timeout=10):
        pass
    return refused.value


def refused_status(url: str) -> int:
    """The HTTP status a handshake was refused with."""
    return refusal(url).response.status_code


def test_a_spectator_over_the_budget_is_refused_before_any_request_exists(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with served(sqlite_url) as (base, _):
        spend_the_budget(base)
        with caplog.at_level(logging.INFO):
            refused = refusal(base + NO_SUCH_MATCH).response
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    assert json.loads(refused.body or b"")["code"] == "overloaded"
    # no websocket protocol ever saw it: it would have logged the handshake and its status, as
    # it did the budget's one socket ("[accepted]")
    handshakes = [
        r.getMessage() for r in caplog.records if "WebSocket /ws/watch/" in r.getMessage()
    ]
    assert len(handshakes) == 1 and handshakes[0].endswith("[accepted]")


def upgrade_request(port: int) -> bytes:
    """A websocket handshake for a spectator of no such match, as raw HTTP."""
    return (
        f"GET {NO_SUCH_MATCH} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


def test_a_crowd_of_spectators_arriving_at_once_is_charged_before_any_handshake(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Eight spectators' connections are open and have begun their requests; the rest of all
    eight requests arrives while the server's event loop is held, so it reads them in one go:
    the budget's one socket is let through and seven are refused by the HTTP protocol. When the
    protocol only looked at the budget, all eight found it unspent and went on to websocket
    handshakes, which the middleware then refused."""
    with served(sqlite_url) as (base, server), caplog.at_level(logging.INFO):
        port = int(base.rsplit(":", 1)[1])
        request = upgrade_request(port)
        crowd = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(8)]
        held, holding = threading.Event(), threading.Event()
        loop = server.servers[0].get_loop()

        def hold_once_all_are_open() -> None:
            if held.is_set():  # the test has given up
                return
            if len(server.server_state.connections) < len(crowd):
                loop.call_soon(hold_once_all_are_open)  # the loop takes them in first
                return
            holding.set()
            held.wait(timeout=20)

        try:
            for client in crowd:
                client.sendall(request[:4])  # "GET ": each is accepted and being read
            loop.call_soon_threadsafe(hold_once_all_are_open)
            assert holding.wait(timeout=20), "the server did not take the connections"
            for client in crowd:
                client.sendall(request[4:])
            held.set()
            statuses = sorted(client.recv(4096).split(b" ", 2)[1] for client in crowd)
        finally:
            held.set()
            for client in crowd:
                client.close()
    assert statuses == [b"101"] + [b"429"] * 7
    handshakes = [
        r.getMessage() for r in caplog.records if "WebSocket /ws/watch/" in r.getMessage()
    ]
    assert len(handshakes) == 1 and handshakes[0].endswith("[accepted]")


def test_a_refusal_by_the_middleware_is_a_429_and_logs_no_error(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with served(sqlite_url, early=False) as (base, _):
        spend_the_budget(base)
        with caplog.at_level(logging.INFO):
            for _ in range(3):
                assert refused_status(base + NO_SUCH_MATCH) == 429
    assert any("WebSocket /ws/watch/" in r.getMessage() for r in caplog.records)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == []


def test_websocket_handshakes_leave_no_reference_cycles(sqlite_url: str) -> None:
    with served(sqlite_url, early=False) as (base, _):  # each refusal is a websocket handshake
        spend_the_budget(base)
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)  # what the collector finds is kept for us to look at
        try:
            for _ in range(5):
                refused_status(base + NO_SUCH_MATCH)
            gc.collect()
            # type(), not isinstance(): a dead weak proxy among the garbage raises on the latter
            left = [o for o in gc.garbage if issubclass(type(o), HttpToolsProtocol)]
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
    assert left == []


# ---- reading a websocket only as fast as the app asks (issue 40, finding 1) --------------------


class RawClient:
    """A websocket client on a plain socket (websockets' sans-I/O client makes the bytes), so a
    test can send a flood in one go, without reading, as an attacker does."""

    def __init__(self, port: int, path: str, source: str = "127.0.0.1") -> None:
        self.sock = socket.create_connection(
            ("127.0.0.1", port), timeout=10, source_address=(source, 0)
        )
        self.proto = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}{path}"))
        self.pending: deque[Any] = deque()
        self.proto.send_request(self.proto.connect())
        self.flush()
        while not isinstance(event := self.next_event(), Response):
            pass
        assert event.status_code == 101, event.status_code

    def flush(self) -> None:
        self.sock.sendall(b"".join(self.proto.data_to_send()))

    def frames(self, text: str, count: int) -> bytes:
        """`count` text messages, as the bytes they are on the wire."""
        for _ in range(count):
            self.proto.send_text(text.encode())
        return b"".join(self.proto.data_to_send())

    def next_event(self) -> Any:
        """The next thing the server sent (a frame), or None once it closed the connection."""
        while not self.pending:
            data = self.sock.recv(65536)
            if not data:
                return None
            self.proto.receive_data(data)
            self.pending.extend(self.proto.events_received())
        return self.pending.popleft()

    def close(self) -> None:
        self.sock.close()


@contextmanager
def served_app(app: Any, **settings: object) -> Iterator[tuple[int, uvicorn.Server]]:
    """`app` behind uvicorn with our server config (our protocols), in a thread."""
    config = server_config(create_app(make_settings("sqlite://", **settings)), make_settings(""))
    config.app, config.port = app, free_port()
    config.lifespan = "off"
    with running(config) as server:
        yield config.port, server


def on_loop(server: uvicorn.Server, read: Callable[[], Any]) -> Any:
    """`read()` run on the server's event loop (its objects are the loop's alone)."""
    loop = server.servers[0].get_loop()
    done: concurrent.futures.Future[Any] = concurrent.futures.Future()
    loop.call_soon_threadsafe(lambda: done.set_result(read()))
    return done.result(timeout=10)


def test_the_websocket_protocol_parses_only_what_the_app_is_ready_for() -> None:
    """A client sends 3,000 messages at once while the app reads none: one slice of them is
    parsed, the rest waits unread, with the transport paused (uvicorn's own protocol parsed and
    queued all 3,000, at once). Once the app reads, every message arrives, in order."""
    gate: asyncio.Event | None = None
    received: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        nonlocal gate
        assert scope["type"] == "websocket"
        gate = asyncio.Event()
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": "ready"})
        await gate.wait()
        while (message := await receive())["type"] == "websocket.receive":
            received.append(message["text"])
            if len(received) == 3000:
                await send({"type": "websocket.send", "text": "all"})

    with served_app(app) as (port, server):
        client = RawClient(port, "/ws/anything")
        try:
            assert client.next_event().data == b"ready"
            flood = client.frames('{"n": 0000}', 3000)
            client.sock.sendall(flood)

            def state() -> tuple[int, int, bool]:
                (ws,) = [c for c in server.server_state.connections if isinstance(c, WsProtocol)]
                return ws.queue.qsize(), len(ws.unparsed), ws.transport.is_reading()

            # the server has read what it will read before the app asks: one slice parsed, the
            # rest held (or still in the kernel: the transport is paused)
            queued, held, reading = on_loop(server, state)
            assert 0 < queued <= WsProtocol.SLICE_BYTES // 17, queued
            assert held > 0 and not reading
            on_loop(server, lambda: gate.set() if gate else None)
            assert client.next_event().data == b"all"
        finally:
            client.close()
    assert received == ['{"n": 0000}'] * 3000


def test_a_socket_closed_for_flooding_is_dropped_though_its_client_goes_on_sending(
    sqlite_url: str,
) -> None:
    """The app closes a flooding lobby socket 4429 (its budget: 5 messages); the protocol then
    reads nothing more from it and drops the connection a second later, though the client keeps
    sending. uvicorn's own protocol went on reading and parsing whatever it sent for 10 s."""
    settings = make_settings(sqlite_url, ws_messages_per_second=1, ws_message_burst=5)
    config = server_config(create_app(settings), settings)
    config.port = free_port()
    with running(config):
        client = RawClient(config.port, "/ws/lobby")
        try:
            ping = client.frames('{"type": "ping"}', 2000)
            client.sock.sendall(ping)
            texts = []
            while isinstance(event := client.next_event(), Frame) and event.opcode == Opcode.TEXT:
                texts.append(json.loads(event.data))
            kinds = [t["type"] for t in texts if t["type"] != "lobby"]  # the list comes aside
            assert kinds == ["pong"] * 5 + ["error"] and texts[-1]["code"] == "rate_limited"
            assert isinstance(event, Frame) and event.opcode == Opcode.CLOSE
            assert Close.parse(event.data).code == 4429
            closed_at, deadline = time.monotonic(), time.monotonic() + 5
            with pytest.raises(OSError):  # reset by the server: nothing it sent is read
                while time.monotonic() < deadline:
                    client.sock.sendall(ping)
            assert time.monotonic() - closed_at < DROP_AFTER_S + 2
        finally:
            client.close()


def test_an_address_that_flooded_is_refused_before_any_websocket_exists(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """127.0.0.2 floods a lobby socket and is closed 4429; its next handshake is answered 429
    rate_limited by the HTTP protocol (no websocket protocol logs it), while a proxy's (the
    trusted 127.0.0.1) still opens sockets for the clients behind it."""
    settings = make_settings(sqlite_url, ws_messages_per_second=1, ws_message_burst=2)
    app = create_app(settings)
    app.state.penalties.delay_s = 0.0  # the refusal is answered at once
    config = server_config(app, settings)
    config.port = free_port()
    with running(config):
        flooder = RawClient(config.port, "/ws/lobby", source="127.0.0.2")
        try:
            flooder.sock.sendall(flooder.frames('{"type": "ping"}', 10))
            while (event := flooder.next_event()) is not None and event.opcode != Opcode.CLOSE:
                pass
            assert event is not None and Close.parse(event.data).code == 4429
        finally:
            flooder.close()
        base = f"ws://127.0.0.1:{config.port}"
        caplog.clear()  # the flooder's own handshake was logged
        with caplog.at_level(logging.INFO):
            with pytest.raises(InvalidStatus) as refused:
                connect(base + "/ws/lobby", open_timeout=10, source_address=("127.0.0.2", 0))
            with connect(base + "/ws/lobby", open_timeout=10) as proxied:
                assert json.loads(proxied.recv(timeout=10))["type"] == "lobby"
    answer = refused.value.response
    assert answer.status_code == 429 and int(answer.headers["retry-after"]) >= 1
    assert json.loads(answer.body or b"")["code"] == "rate_limited"
    handshakes = [r.getMessage() for r in caplog.records if "WebSocket /ws/lobby" in r.getMessage()]
    assert len(handshakes) == 1 and "127.0.0.1" in handshakes[0]


def test_a_huge_frame_is_refused_at_its_header(sqlite_url: str) -> None:
    """A frame announcing a gigabyte is refused as soon as its header is read (close 1009), so
    a huge message costs neither memory nor parsing: the payload is never waited for."""
    settings = make_settings(sqlite_url)
    config = server_config(create_app(settings), settings)
    config.port = free_port()
    with running(config):
        client = RawClient(config.port, "/ws/lobby")
        try:
            mask = b"\x00\x00\x00\x00"
            client.sock.sendall(b"\x81\xff" + (1 << 30).to_bytes(8, "big") + mask + b"{")
            while (event := client.next_event()) is not None and event.opcode != Opcode.CLOSE:
                pass
            assert event is not None and Close.parse(event.data).code == 1009
        finally:
            client.close()
    assert settings.max_ws_frame_bytes == 64 * 1024
