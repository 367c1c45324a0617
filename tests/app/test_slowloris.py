"""Half-sent requests cannot take the server from everyone (issue 40, finding 9): on a real
`python -m app` whose open-file limit is 256, an attacker at 127.0.0.2 opens 300 connections
and sends each the start of a request (plain ones and websocket handshakes) but never its end.
Before, those connections stayed open for good and took every file the process could open, so
accepting failed and honest requests failed with it. Now the process holds at most a cap of
connections below its open-file limit, one address at most a quarter of them, and a request
that has not arrived within REQUEST_READ_SECONDS is answered 408 and closed.

Each attacker connection is read until the server closes it: the waits are the server's own
answers, bounded by socket timeouts, never sleeps."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.http.connections import cap_for
from tests.app.test_crash import Server, Spawn, servers

OPEN_FILES = 256  # the child's RLIMIT_NOFILE: the cap is 256 - 128 - 25 = 103, a quarter 25
READ_SECONDS = 2.0
ATTACKER, STRANGER = "127.0.0.2", "127.0.0.3"  # neither a trusted proxy (127.0.0.1 is)
HALF_SENT = (
    b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ",
    b"GET /ws/lobby HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n",
)


@pytest.fixture
def spawn(tmp_path: Path) -> Iterator[Spawn]:
    with servers(tmp_path) as make:
        yield make


def half_sent(server: Server, count: int) -> list[socket.socket]:
    """`count` connections from the attacker, each with a request begun and never finished."""
    opened = []
    for i in range(count):
        conn = socket.create_connection(
            ("127.0.0.1", server.port), timeout=10, source_address=(ATTACKER, 0)
        )
        conn.sendall(HALF_SENT[i % 2])
        opened.append(conn)
    return opened


def answer(conn: socket.socket) -> bytes:
    """Everything the server sends on `conn` until it closes it (or the timeout)."""
    chunks = []
    try:
        while chunk := conn.recv(4096):
            chunks.append(chunk)
    except ConnectionResetError:
        pass
    return b"".join(chunks)


def healthz_from(server: Server, address: str) -> int:
    transport = httpx.HTTPTransport(local_address=address)
    with httpx.Client(transport=transport, timeout=5) as client:
        return client.get(f"http://{server.base}/healthz").status_code


def test_half_sent_requests_are_timed_out_and_cannot_take_every_connection(
    spawn: Spawn, sqlite_url: str
) -> None:
    server = spawn(
        sqlite_url, open_files=OPEN_FILES, env={"REQUEST_READ_SECONDS": str(READ_SECONDS)}
    )
    attack = half_sent(server, 300)
    began = time.monotonic()
    try:
        # while all 300 are open (or refused), everyone else is served: through the proxy (a
        # trusted peer), and from another address
        assert healthz_from(server, "127.0.0.1") == 200
        assert healthz_from(server, STRANGER) == 200
        answers = [answer(conn) for conn in attack]
    finally:
        for conn in attack:
            conn.close()
    took = time.monotonic() - began
    statuses = [a.split(b" ", 2)[1] if a else b"dropped" for a in answers]
    refused, timed_out = statuses.count(b"429"), statuses.count(b"408")
    assert refused + timed_out == len(attack), sorted(set(statuses))
    assert timed_out == cap_for(OPEN_FILES, 0) // 4, "one address holds a quarter of the cap"
    assert took < READ_SECONDS + 5, "every half-sent request was closed in time"
    for body in (a.split(b"\r\n\r\n", 1)[1] for a in answers):
        assert json.loads(body)["code"] in ("too_many_connections", "request_timeout")
    assert healthz_from(server, ATTACKER) == 200, "once they are gone, the attacker is served"
    assert server.proc is not None and server.proc.poll() is None


def test_the_cap_leaves_room_below_the_open_file_limit() -> None:
    assert cap_for(1024, 0) == 1024 - 128 - 102  # the database, Redis, logs keep their files
    assert cap_for(1024, 500) == 500  # MAX_CONNECTIONS below it is taken as it is
    assert cap_for(1024, 5000) == cap_for(1024, 0)  # above it, never past the files there are
    assert cap_for(256, 0) == 103
