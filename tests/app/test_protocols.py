"""The server's uvicorn protocols (app/protocols.py), on a real uvicorn configured as `python -m
app` configures it: a spectator over the budget is refused by the HTTP protocol before any
websocket protocol or request exists, with the middleware's answer, and a crowd arriving in one
instant is charged there one by one; a refusal by the middleware
logs no error; and no websocket handshake leaves a reference cycle for the garbage collector
(under a churn of sockets those cycles made full collections run every second, each stopping
the event loop for a tenth of a second)."""

from __future__ import annotations

import contextlib
import gc
import json
import logging
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from app.__main__ import server_config
from app.main import create_app
from app.protocols import HttpProtocol
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
