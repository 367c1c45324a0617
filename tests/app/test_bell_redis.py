"""The bell across processes (issue 43): a notification stored by one server process (a rematch
offered there) reaches the player's bell socket on another, through Redis; a count changed on
one (lines marked read) reaches it too. Two real `python -m app` processes on one PostgreSQL
database and one Redis (tests.app.test_crash.servers)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.app.test_crash import Server, Spawn, servers
from tests.app.test_resilience import eventually, readiness

DEADLINE = 30.0  # seconds: generous, for a machine busy with other tests


@pytest.fixture
def spawn(tmp_path: Path) -> Iterator[Spawn]:
    with servers(tmp_path) as make:
        yield make


def next_frame(ws: ClientConnection, kind: str) -> dict[str, Any]:
    """The next frame of `kind`, within the deadline."""
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        try:
            frame: dict[str, Any] = json.loads(ws.recv(timeout=deadline - time.monotonic()))
        except TimeoutError:
            break
        if frame["type"] == kind:
            return frame
    pytest.fail(f"no {kind} frame within {DEADLINE} s")


def player(http: httpx.Client, name: str) -> dict[str, str]:
    made: dict[str, str] = http.post("/api/players", json={"name": name}).json()
    return made


def test_a_notification_stored_on_one_process_reaches_a_bell_on_another(
    postgres_url: str, redis_url: str, spawn: Spawn
) -> None:
    a: Server = spawn(postgres_url, ready=False, redis_url=redis_url)
    b: Server = spawn(postgres_url, ready=False, redis_url=redis_url)
    a.wait_ready()
    b.wait_ready()
    eventually("A ready", lambda: readiness(a.http) == 200)
    eventually("B ready", lambda: readiness(b.http) == 200)
    ana, bea = player(a.http, "Ana"), player(a.http, "Bea")
    live = {"role": "editor", "clock": "realtime-15"}  # a live clock: no your_turn lines
    made = a.http.post(
        "/api/matches", json=live, headers={"X-Player-Token": ana["player_token"]}
    ).json()
    code = made["invite_url"].rstrip("/").rsplit("/", 1)[-1]
    claimed = a.http.post(
        f"/api/invites/{code}/claim", headers={"X-Player-Token": bea["player_token"]}
    )
    bea_seat = claimed.json()["seat_token"]
    a.http.post(
        f"/api/matches/{made['match_id']}/resign", headers={"Authorization": f"Bearer {bea_seat}"}
    )
    with connect(f"ws://{b.base}/ws/notifications", open_timeout=10) as on_b:
        on_b.send(json.dumps({"type": "auth", "player_token": ana["player_token"]}))
        first = next_frame(on_b, "unread")
        offered = a.http.post(
            f"/api/matches/{made['match_id']}/rematch",
            headers={"Authorization": f"Bearer {bea_seat}"},
        )
        assert offered.status_code in (200, 201, 204), offered.text
        pushed = next_frame(on_b, "notification")  # stored on A, pushed by B
        assert pushed["notification"]["kind"] == "rematch"
        assert pushed["notification"]["data"]["name"] == "Bea"
        assert pushed["unread"] == first["unread"] + 1
        read = a.http.post(
            "/api/notifications/read", json={"all": True},
            headers={"X-Player-Token": ana["player_token"]},
        )  # fmt: skip
        assert read.json() == {"unread": 0}
        assert next_frame(on_b, "unread") == {"type": "unread", "unread": 0}
