"""Players' names in every view (contract v1.1): both seats and a spectator, by HTTP and in every
websocket push, see `players` with both names; nothing else about a player (its token, its
token's hash, when it was made) is in any of those texts. A rename reaches the open tables of the
player's unfinished matches at once (a push, on every process through Redis); the names a push
shows come from the match's cached facts, never from a read per push."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool
from starlette.testclient import WebSocketTestSession

from app.persistence.db import driver_url

from .test_api import bearer, invite_code
from .test_players import as_player, new_player
from .test_ws import receive

MAX_MESSAGES = 40
ENTRY_KEYS = {"kind", "name", "player_id"}


def until(
    ws: WebSocketTestSession, holds: Callable[[dict[str, Any]], bool], texts: list[str]
) -> Any:
    """Read pushes (keeping their texts) until a view satisfies `holds`."""
    for _ in range(MAX_MESSAGES):
        view = receive(ws)
        texts.append(json.dumps(view))  # (the secrets looked for are ASCII: written alike)
        if view.get("type") == "view" and holds(view):
            return view
    pytest.fail(f"no pushed view held within {MAX_MESSAGES} messages")


class Table:
    """Ana (Editor) and Bob (Nixon) in one match, with the spectator key."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.ana, self.bob = new_player(client, "Ana"), new_player(client, "Bob")
        made = client.post("/api/matches", json={"role": "editor"}, headers=as_player(self.ana))
        code = invite_code(made.json())
        claimed = client.post(f"/api/invites/{code}/claim", headers=as_player(self.bob))
        self.match_id = made.json()["match_id"]
        self.seats = {"editor": made.json()["seat_token"], "nixon": claimed.json()["seat_token"]}
        path = self.http("editor").json()["spectate_path"]
        self.key = path.rsplit("key=", 1)[1]

    def http(self, seat: str | None) -> Any:
        if seat is None:
            path = f"/api/matches/{self.match_id}/spectate?key={self.key}"
            return self.client.get(path)
        return self.client.get(f"/api/matches/{self.match_id}", headers=bearer(self.seats[seat]))

    @contextmanager
    def sockets(self, client: TestClient | None = None) -> Iterator[dict[str | None, Any]]:
        """Both seats' sockets and a spectator's, each past its first view."""
        c = client or self.client
        with ExitStack() as stack:
            paths: dict[str | None, str] = {
                seat: f"/ws/matches/{self.match_id}?token={token}"
                for seat, token in self.seats.items()
            }
            paths[None] = f"/ws/watch/{self.match_id}?key={self.key}"
            yield {seat: stack.enter_context(c.websocket_connect(p)) for seat, p in paths.items()}

    def secrets(self) -> list[str]:
        """Everything about the players and seats that no view may carry."""
        tokens = [self.ana["player_token"], self.bob["player_token"], *self.seats.values()]
        return tokens + [hashlib.sha256(t.encode()).hexdigest() for t in tokens]

    def names(self, view: dict[str, Any]) -> dict[str, Any]:
        return {seat: entry["name"] for seat, entry in view["players"].items()}


def test_both_seats_and_a_spectator_see_both_names_and_nothing_else(client: TestClient) -> None:
    table = Table(client)
    texts: list[str] = []
    both = {"editor": "Ana", "nixon": "Bob"}
    ids = {"editor": table.ana["player_id"], "nixon": table.bob["player_id"]}
    for seat in ("editor", "nixon", None):
        answer = table.http(seat)
        texts.append(answer.text)
        players = answer.json()["players"]
        assert table.names(answer.json()) == both, seat
        assert {s: e["player_id"] for s, e in players.items()} == ids
        assert all(set(entry) == ENTRY_KEYS for entry in players.values()), players
    with table.sockets() as sockets:
        for seat, ws in sockets.items():
            first = until(ws, lambda v: True, texts)
            assert table.names(first) == both, seat
        # a move is pushed to all three: its frames name both players too
        move = table.http("editor").json()["legal_actions"][0]
        sockets["editor"].send_text(json.dumps({"type": "action", "action": move}))
        for seat, ws in sockets.items():
            moved = until(ws, lambda v: v["version"] == 1, texts)
            assert table.names(moved) == both, seat
    assert len(texts) >= 9
    for text_ in texts:
        for secret in table.secrets():
            assert secret not in text_
        assert "token_hash" not in text_ and "player_token" not in text_


def test_a_rename_reaches_every_open_table_at_once(client: TestClient) -> None:
    table = Table(client)
    texts: list[str] = []
    with table.sockets() as sockets:
        for ws in sockets.values():
            until(ws, lambda v: True, texts)
        renamed = client.patch(
            "/api/players/me", json={"name": "Robert"}, headers=as_player(table.bob)
        )
        assert renamed.status_code == 200
        for seat, ws in sockets.items():
            pushed = until(ws, lambda v: v["players"]["nixon"]["name"] == "Robert", texts)
            assert pushed["version"] == 0 and pushed["players"]["editor"]["name"] == "Ana", seat
    assert table.names(table.http(None).json()) == {"editor": "Ana", "nixon": "Robert"}


def test_a_rename_crosses_processes_through_redis(
    postgres_url: str, redis_url: str, make_client: Callable[..., TestClient]
) -> None:
    here = make_client(postgres_url, redis_url=redis_url)
    there = make_client(postgres_url, redis_url=redis_url)
    table = Table(here)
    texts: list[str] = []
    with table.sockets(there) as sockets:
        for ws in sockets.values():
            until(ws, lambda v: True, texts)
        # (were `there` not subscribed yet, its catch-up on subscribing would push the new name)
        renamed = here.patch(
            "/api/players/me", json={"name": "Anita"}, headers=as_player(table.ana)
        )
        assert renamed.status_code == 200
        for ws in sockets.values():
            until(ws, lambda v: v["players"]["editor"]["name"] == "Anita", texts)


def test_pushes_take_names_from_the_cached_facts_and_a_reconnect_reads_them(
    sqlite_url: str, make_client: Callable[..., TestClient]
) -> None:
    """A name changed behind the app's back (no rename call, so no push) is not read by the
    next push, which renders from the cache; a socket that opens reads the match again."""
    client = make_client(sqlite_url)
    table = Table(client)
    texts: list[str] = []
    move = table.http("editor").json()["legal_actions"][0]
    with table.sockets() as sockets:
        for ws in sockets.values():
            until(ws, lambda v: True, texts)
        engine = create_engine(driver_url(sqlite_url), poolclass=NullPool)
        with engine.begin() as conn:
            conn.execute(
                text("update players set name = 'Changed' where id = :id"),
                {"id": table.ana["player_id"]},
            )
        engine.dispose()
        sockets["editor"].send_text(json.dumps({"type": "action", "action": move}))
        for ws in sockets.values():
            pushed = until(ws, lambda v: v["version"] == 1, texts)
            assert pushed["players"]["editor"]["name"] == "Ana", "a push read the database"
    with client.websocket_connect(f"/ws/watch/{table.match_id}?key={table.key}") as ws:
        assert until(ws, lambda v: True, texts)["players"]["editor"]["name"] == "Changed"
