"""The lobby across processes (contract v1.1: "fan-out and presence recover by themselves when
Redis returns"): a challenge opened on one server is pushed to lobby sockets on another, and one
opened while Redis is cut (through tests.app.tcpproxy) reaches them once it is back, with no
restart and no new change to carry it."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.app.tcpproxy import Proxy
from tests.app.test_crash import Server, Spawn, servers
from tests.app.test_resilience import eventually, readiness

DEADLINE = 20.0  # seconds: the fan-out resubscribes within 5 s of Redis coming back


@pytest.fixture
def spawn(tmp_path: Path) -> Iterator[Spawn]:
    with servers(tmp_path) as make:
        yield make


def lobby_until(ws: ClientConnection, holds: Callable[[list[dict[str, Any]]], bool]) -> None:
    """Read pushed lobby lists until one satisfies `holds`, within the deadline."""
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        try:
            message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        except TimeoutError:
            break
        assert message["type"] == "lobby", message
        if holds(message["challenges"]):
            return
    pytest.fail(f"the awaited lobby list was not pushed within {DEADLINE} s")


def challenge(http: httpx.Client, token: str) -> str:
    r = http.post("/api/matches", json={"visibility": "public"}, headers={"X-Player-Token": token})
    assert r.status_code == 201, r.text
    return str(r.json()["match_id"])


def test_the_lobby_is_pushed_across_processes_and_heals_after_a_redis_cut(
    postgres_url: str, redis_url: str, spawn: Spawn
) -> None:
    with Proxy.to_url(redis_url) as proxy:
        a: Server = spawn(postgres_url, ready=False, redis_url=proxy.url(redis_url))
        b: Server = spawn(postgres_url, ready=False, redis_url=proxy.url(redis_url))
        a.wait_ready()
        b.wait_ready()
        for server in (a, b):
            eventually("ready", lambda s=server: readiness(s.http) == 200)
        ana = a.http.post("/api/players", json={"name": "Ana"}).json()["player_token"]
        with connect(f"ws://{b.base}/ws/lobby", open_timeout=10) as on_b:
            lobby_until(on_b, lambda found: found == [])
            first = challenge(a.http, ana)
            lobby_until(on_b, lambda found: [c["match_id"] for c in found] == [first])

            proxy.cut()
            for server in (a, b):
                eventually("not ready", lambda s=server: readiness(s.http) == 503)
            second = challenge(a.http, ana)  # committed, answered; its push to B is lost
            proxy.restore()
            for server in (a, b):
                eventually("ready again", lambda s=server: readiness(s.http) == 200)
            lobby_until(on_b, lambda found: [c["match_id"] for c in found] == [first, second])
