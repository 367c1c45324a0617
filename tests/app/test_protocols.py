"""The server's uvicorn protocols (app/protocols.py), on a real uvicorn configured as `python -m
app` configures it: a spectator over the budget is refused by the HTTP protocol before any
websocket protocol or request exists, with the middleware's answer; a refusal by the middleware
logs no error; and no websocket handshake leaves a reference cycle for the garbage collector
(under a churn of sockets those cycles made full collections run every second, each stopping
the event loop for a tenth of a second)."""

from __future__ import annotations

import contextlib
import gc
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
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
def served(sqlite_url: str, early: bool = True) -> Iterator[str]:
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
    with running(config):
        yield f"ws://127.0.0.1:{config.port}"


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
    with served(sqlite_url) as base:
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


def test_a_refusal_by_the_middleware_is_a_429_and_logs_no_error(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with served(sqlite_url, early=False) as base:
        spend_the_budget(base)
        with caplog.at_level(logging.INFO):
            for _ in range(3):
                assert refused_status(base + NO_SUCH_MATCH) == 429
    assert any("WebSocket /ws/watch/" in r.getMessage() for r in caplog.records)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == []


def test_websocket_handshakes_leave_no_reference_cycles(sqlite_url: str) -> None:
    with served(sqlite_url, early=False) as base:  # each refusal is a websocket handshake
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
