"""A block hides chat lines both ways (issue 43, contract v1.2 "People"): once either player
blocked the other, neither gets the other's lines, live or in the view's history (lines said
before the block too), while a third seat and spectators still do; across two processes
sharing Redis as well. The match itself goes on."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import ClientConnection, connect

from app.main import create_app
from app.persistence import blocks

from .conftest import make_settings
from .test_chat import duel, next_chat, say, view_of
from .test_clocks import START, FakeClock
from .test_crash import Spawn, servers
from .test_lifecycle import seat_socket, spectate_key, wait_for
from .test_players import new_player
from .test_resilience import eventually, readiness


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def client(any_db_url: str, fake: FakeClock) -> Iterator[TestClient]:
    settings = make_settings(any_db_url, sweep_seconds=1e6)
    with TestClient(create_app(settings, clock=fake)) as c:
        yield c


def block(client: TestClient, blocker: str, blocked: str) -> None:
    with client.app.state.ctx.db.write() as db:  # type: ignore[attr-defined]
        blocks.block(db, blocker, blocked, datetime.now(UTC))


def texts(view: dict[str, Any]) -> list[str]:
    return [line["text"] for line in view["chat"]]


def test_a_block_hides_lines_both_ways_live_and_in_history(
    client: TestClient, fake: FakeClock
) -> None:
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    match_id, tokens = duel(client, ana, bea)
    key = spectate_key(client, match_id, tokens["editor"])
    with (
        seat_socket(client, match_id, tokens["editor"]) as ed,
        seat_socket(client, match_id, tokens["nixon"]) as nx,
        client.websocket_connect(f"/ws/watch/{match_id}?key={key}") as spec,
    ):
        for ws in (ed, nx, spec):
            wait_for(ws, lambda v: v["status"] == "active", "the match is on")
        say(ed, "before the block")
        for ws in (ed, nx, spec):
            assert next_chat(ws)["text"] == "before the block"
        fake.advance(3)
        block(client, bea["player_id"], ana["player_id"])  # Bea blocks Ana
        say(ed, "from Ana after")
        assert next_chat(ed)["text"] == "from Ana after"
        assert next_chat(spec)["text"] == "from Ana after"
        fake.advance(3)
        say(nx, "from Bea after")
        assert next_chat(nx)["text"] == "from Bea after"  # Ana never gets it: next is her own
        assert next_chat(spec)["text"] == "from Bea after"
        fake.advance(3)
        say(ed, "Ana again")
        assert next_chat(ed)["text"] == "Ana again"
    assert texts(view_of(client, match_id, tokens["editor"])) == [
        "before the block",
        "from Ana after",
        "Ana again",
    ]
    assert texts(view_of(client, match_id, tokens["nixon"])) == ["from Bea after"]
    watched = client.get(f"/api/matches/{match_id}/spectate", params={"key": key}).json()
    assert texts(watched) == ["before the block", "from Ana after", "from Bea after", "Ana again"]


def _chat(ws: ClientConnection, deadline: float) -> dict[str, Any] | None:
    """The next chat frame on a real socket (views skipped), or None by the deadline."""
    while time.monotonic() < deadline:
        try:
            message = json.loads(ws.recv(timeout=max(0.05, deadline - time.monotonic())))
        except TimeoutError:
            return None
        if message["type"] != "view":
            return dict(message)
    return None


def test_a_block_hides_lines_across_processes(
    postgres_url: str, redis_url: str, tmp_path: Path
) -> None:
    with servers(tmp_path) as spawn:
        _across(postgres_url, redis_url, spawn)


def _across(postgres_url: str, redis_url: str, spawn: Spawn) -> None:
    a = spawn(postgres_url, ready=False, redis_url=redis_url)
    b = spawn(postgres_url, ready=False, redis_url=redis_url)
    for server in (a, b):
        server.wait_ready()
        eventually("ready", lambda s=server: readiness(s.http) == 200)
    ana = a.http.post("/api/players", json={"name": "Ana"}).json()
    bea = a.http.post("/api/players", json={"name": "Bea"}).json()
    made = a.http.post(
        "/api/matches", json={"role": "editor"}, headers={"X-Player-Token": ana["player_token"]}
    ).json()
    code = made["invite_url"].rsplit("/invite/", 1)[1]
    claimed = a.http.post(
        f"/api/invites/{code}/claim", headers={"X-Player-Token": bea["player_token"]}
    )
    assert claimed.status_code == 200, claimed.text
    match_id, seats = made["match_id"], {"ana": made["seat_token"]}
    seats["bea"] = claimed.json()["seat_token"]
    report = b.http.post(  # Bea reports Ana's abuse on B: that blocks Ana for her
        "/api/reports", json={"player_id": ana["player_id"], "reason": "abuse"},
        headers={"X-Player-Token": bea["player_token"]},
    )  # fmt: skip
    assert report.status_code == 201, report.text
    path = a.http.get(
        f"/api/matches/{match_id}", headers={"Authorization": f"Bearer {seats['ana']}"}
    ).json()["spectate_path"]
    with (
        a.socket(match_id, seats["ana"]) as on_a,
        b.socket(match_id, seats["bea"]) as bea_b,
        connect(f"ws://{b.base}/ws/watch/{match_id}?key={path.rsplit('key=', 1)[1]}") as spec_b,
    ):
        for ws in (on_a, bea_b, spec_b):  # each socket's first view: it has joined its room
            assert json.loads(ws.recv(timeout=10))["type"] == "view"
        on_a.send(json.dumps({"type": "chat", "text": "hello from Ana"}))
        got = _chat(spec_b, time.monotonic() + 10)
        assert got is not None and got["text"] == "hello from Ana"  # a spectator on B gets it
        bea_b.send(json.dumps({"type": "chat", "text": "Bea speaks"}))
        # Bea's next chat frame is her own line: Ana's never reached her
        assert (_chat(bea_b, time.monotonic() + 10) or {}).get("text") == "Bea speaks"
        assert (_chat(spec_b, time.monotonic() + 10) or {}).get("text") == "Bea speaks"
        on_a.send(json.dumps({"type": "chat", "text": "Ana again"}))
        # Ana's next chat frame is her own next line: Bea's never reached her
        assert (_chat(on_a, time.monotonic() + 10) or {}).get("text") == "hello from Ana"
        assert (_chat(on_a, time.monotonic() + 10) or {}).get("text") == "Ana again"
    for server, token, seen in (
        (a, seats["ana"], ["hello from Ana", "Ana again"]),
        (b, seats["bea"], ["Bea speaks"]),
        (a, seats["bea"], ["Bea speaks"]),
    ):
        view = server.http.get(
            f"/api/matches/{match_id}", headers={"Authorization": f"Bearer {token}"}
        ).json()
        assert texts(view) == seen
