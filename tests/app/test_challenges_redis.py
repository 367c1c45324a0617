"""A direct challenge across processes (contract v1.2 "People"): made on one server, it reaches
the target's lobby socket on another at once (the `Notified` change crosses Redis), and the
decline made there reaches the challenger's lobby socket on the first."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from tests.app.test_crash import Server, Spawn, servers
from tests.app.test_resilience import eventually, readiness

DEADLINE = 20.0


@pytest.fixture
def spawn(tmp_path: Path) -> Iterator[Spawn]:
    with servers(tmp_path) as make:
        yield make


def notified(ws: ClientConnection) -> dict[str, Any]:
    """The next `notified` message on a lobby socket (lobby lists pass by), within the deadline."""
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if message["type"] == "notified":
            return dict(message)
    pytest.fail(f"no notification was told within {DEADLINE} s")


def test_a_challenge_and_its_answer_cross_processes(
    postgres_url: str, redis_url: str, spawn: Spawn
) -> None:
    a: Server = spawn(postgres_url, ready=False, redis_url=redis_url)
    b: Server = spawn(postgres_url, ready=False, redis_url=redis_url)
    a.wait_ready()
    b.wait_ready()
    for server in (a, b):
        eventually("ready", lambda s=server: readiness(s.http) == 200)
    ana = a.http.post("/api/players", json={"name": "Ana"}).json()
    bo = b.http.post("/api/players", json={"name": "Bo"}).json()
    with (
        connect(f"ws://{b.base}/ws/lobby", open_timeout=10) as on_b,
        connect(f"ws://{a.base}/ws/lobby", open_timeout=10) as on_a,
    ):
        on_b.send(json.dumps({"type": "auth", "player_token": bo["player_token"]}))
        on_a.send(json.dumps({"type": "auth", "player_token": ana["player_token"]}))
        for ws in (on_a, on_b):  # each auth is handled (the pong comes after it)
            ws.send(json.dumps({"type": "ping"}))
            while json.loads(ws.recv(timeout=DEADLINE))["type"] != "pong":
                pass
        made = a.http.post(
            "/api/challenges",
            json={"to": bo["player_id"]},
            headers={"X-Player-Token": ana["player_token"]},
        )
        assert made.status_code == 201, made.text
        notified(on_b)
        found = b.http.get("/api/challenges", headers={"X-Player-Token": bo["player_token"]})
        [incoming] = found.json()["incoming"]
        declined = b.http.post(
            f"/api/challenges/{incoming['challenge_id']}/decline",
            json={"reason": "later"},
            headers={"X-Player-Token": bo["player_token"]},
        )
        assert declined.status_code == 204, declined.text
        notified(on_a)
