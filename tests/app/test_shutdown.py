"""Sockets that end on the server's side: SIGTERM closes every socket 1001 "going away" (clients
reconnect to another process) and the process exits 0 within seconds, in every setup; a socket
whose sender failed is closed 1011, so its client reconnects instead of waiting on silence.

Real servers: `python -m app` in a subprocess, or uvicorn in a thread for the sender test."""

from __future__ import annotations

import json
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from app.main import create_app
from app.services.context import AppContext
from tests.app.conftest import make_settings
from tests.app.test_crash import Spawn, free_port, receive_view, servers
from tests.app.test_persistence import Duel

EXIT_WITHIN = 5.0  # seconds from SIGTERM to the process's end


@pytest.fixture
def spawn(tmp_path: Path) -> Iterator[Spawn]:
    with servers(tmp_path) as make:
        yield make


def closed_with(ws: ClientConnection) -> int:
    """The close code the server ends the socket with (frames before it are skipped)."""
    try:
        while True:
            ws.recv(timeout=EXIT_WITHIN)
    except ConnectionClosed as closed:
        assert closed.rcvd is not None, "the server dropped the socket without a close frame"
        return closed.rcvd.code
    except TimeoutError:
        pytest.fail(f"the socket was not closed within {EXIT_WITHIN} s")


@pytest.mark.parametrize("setup", ["sqlite", "postgres+redis"])
def test_sigterm_closes_sockets_going_away_and_exits_0_within_seconds(
    setup: str, spawn: Spawn, request: pytest.FixtureRequest
) -> None:
    if setup == "sqlite":
        server = spawn(request.getfixturevalue("sqlite_url"))
    else:
        postgres, redis = (request.getfixturevalue(f) for f in ("postgres_url", "redis_url"))
        server = spawn(postgres, redis_url=redis)
    duel = Duel.start(server.http)
    with server.socket(duel.match_id, duel.tokens["editor"]) as ws:
        first = receive_view(ws, lambda v: v["version"] == 0)
        move = {"type": "action", "action": first["legal_actions"][0], "expected_version": 0}
        ws.send(json.dumps(move))
        receive_view(ws, lambda v: v["version"] == 1)
        assert server.proc is not None
        started = time.monotonic()
        server.proc.send_signal(signal.SIGTERM)
        assert closed_with(ws) == 1001  # going away: reconnect (to another process)
        try:
            status = server.proc.wait(timeout=EXIT_WITHIN)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running {EXIT_WITHIN} s after SIGTERM:\n{server.log_tail()}")
    assert status == 0, server.log_tail()
    assert time.monotonic() - started < EXIT_WITHIN
    assert "Traceback" not in server.log_tail()


@contextmanager
def running(config: uvicorn.Config) -> Iterator[uvicorn.Server]:
    """uvicorn serving `config` in a thread of this process (so the test reaches the app's own
    objects), stopped at the end."""
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield server
    finally:
        server.should_exit = True
        thread.join(timeout=20)


@contextmanager
def served_in_thread(app: FastAPI) -> Iterator[tuple[str, uvicorn.Server]]:
    """uvicorn serving `app` on a free port in a thread of this process, stopped at the end."""
    port = free_port()
    # log_config=None, as `python -m app` starts it: uvicorn's loggers left to propagate, not
    # given handlers of their own that later tests' log capture would not see
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", log_config=None)
    with running(config) as server:
        yield f"127.0.0.1:{port}", server


def test_a_socket_whose_sender_fails_is_closed_1011_and_can_reconnect(sqlite_url: str) -> None:
    app = create_app(make_settings(sqlite_url))
    with served_in_thread(app) as (base, server), httpx.Client(base_url=f"http://{base}") as http:
        duel = Duel.start(http)
        url = f"ws://{base}/ws/matches/{duel.match_id}?token={duel.tokens['editor']}"
        with connect(url, open_timeout=10) as ws:
            receive_view(ws, lambda v: v["version"] == 0)
            ctx: AppContext = app.state.ctx
            [conn] = ctx.hub.connections()
            # a frame that cannot be sent (no UTF-8 for a lone surrogate) breaks the sender
            server.servers[0].get_loop().call_soon_threadsafe(conn.offer, "\ud800")
            assert closed_with(ws) == 1011
        with connect(url, open_timeout=10) as again:  # the client reconnects: a full view
            assert receive_view(again, lambda v: True)["version"] == 0
