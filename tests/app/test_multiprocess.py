"""Scale (product.md): several processes serve the same matches when REDIS_URL is set. Views fan
out through Redis, and the database lets only one process accept a move at a version.

Two real servers (`python -m app`) share one PostgreSQL database and one Redis."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.watergate.bots import RandomBot
from tests.app.test_crash import Server, Spawn, receive_view, servers
from tests.app.test_persistence import ROLES, Duel, admin_detail, race


@pytest.fixture
def spawn(tmp_path: Path) -> Iterator[Spawn]:
    with servers(tmp_path) as make:
        yield make


def two_servers(spawn: Spawn, postgres_url: str, redis_url: str) -> tuple[Server, Server]:
    """Processes A and B, started at once."""
    a = spawn(postgres_url, ready=False, redis_url=redis_url)
    b = spawn(postgres_url, ready=False, redis_url=redis_url)
    a.wait_ready()
    b.wait_ready()
    return a, b


def without_type(message: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in message.items() if k != "type"}


def assert_stored_once_each(server: Server, duel: Duel, version: int) -> None:
    seqs = [a["seq"] for a in admin_detail(server.http, duel.match_id)["actions"]]
    assert seqs == list(range(1, version + 1)), "a gap or a duplicate in the stored actions"


def test_pushes_cross_processes_and_play_alternates_to_the_end(
    postgres_url: str, redis_url: str, spawn: Spawn
) -> None:
    a, b = two_servers(spawn, postgres_url, redis_url)
    duel = Duel.start(a.http, b.http)  # created on A, claimed on B
    home = {"editor": a, "nixon": b}
    away = {"editor": b, "nixon": a}
    bot = RandomBot(77)
    with (
        a.socket(duel.match_id, duel.tokens["editor"]) as editor_ws,
        b.socket(duel.match_id, duel.tokens["nixon"]) as nixon_ws,
    ):
        sockets = {"editor": editor_ws, "nixon": nixon_ws}
        for role in ROLES:
            first = receive_view(sockets[role], lambda v: True)
            assert (first["role"], first["status"], first["version"]) == (role, "active", 0)

        actors = []
        for step in range(16):  # each seat acts on its own process, by HTTP or by socket
            role, view = duel.decision() or pytest.fail("the match ended early")
            action = bot.choose(view["state"], view["legal_actions"])
            if step % 2:
                message = {"type": "action", "action": action, "expected_version": view["version"]}
                sockets[role].send(json.dumps(message))
            else:
                assert duel.submit(role, action, view["version"]).status_code == 200
            actors.append(role)
            version = view["version"] + 1  # or more: an only choice the server took (issue 42)
            for seat in ROLES:  # both sockets get the new view, whichever process they are on
                pushed = receive_view(sockets[seat], lambda v, n=version: v["version"] >= n)
                assert without_type(pushed) == duel.view(seat, via=away[seat].http)
        assert set(actors) == set(ROLES), "moves of both seats crossed the processes"
        assert_stored_once_each(b, duel, duel.view("editor")["version"])

        servers, played = [a, b], 16
        while (found := duel.decision(via=servers[played % 2].http)) is not None:
            role, view = found  # to the end, each action through the other process than before
            action = bot.choose(view["state"], view["legal_actions"])
            r = duel.submit(role, action, view["version"], via=servers[played % 2].http)
            assert r.status_code == 200, r.text
            played = r.json()["version"]  # the server's only choices after it too (issue 42)
            assert played < 1000, "the match did not end"

        finals = {
            seat: receive_view(sockets[seat], lambda v: v["status"] == "finished") for seat in ROLES
        }
    assert finals["editor"]["winner"] in ROLES
    for seat in ROLES:
        assert finals[seat]["version"] == played
        # the sockets are closed now, so only presence may have changed since the last push
        now = duel.view(seat, via=home[seat].http)
        assert now["presence"] == {
            r: {"online": False, "last_seen": now["presence"][r]["last_seen"]} for r in ROLES
        }
        assert without_type(finals[seat]) | {"presence": None} == now | {"presence": None}
    assert_stored_once_each(a, duel, played)


def test_the_same_version_sent_to_two_processes_is_accepted_once(
    postgres_url: str, redis_url: str, spawn: Spawn
) -> None:
    a, b = two_servers(spawn, postgres_url, redis_url)
    duel = Duel.start(a.http, b.http)
    for attempt in range(10):
        role, view = duel.decision(via=a.http) or pytest.fail("the match ended early")
        legal = view["legal_actions"]
        picks = [legal[0], legal[-1]]  # possibly two different moves for the same decision
        statuses = race(duel, role, picks, view["version"], vias=[a.http, b.http])
        assert sorted(statuses) == [200, 409], f"attempt {attempt}: {statuses}"

        # the one accepted is stored at the next seq; the server's only choices may follow it
        detail = admin_detail(b.http, duel.match_id)
        stored = len(detail["actions"])
        assert stored > view["version"]
        assert [x["seq"] for x in detail["actions"]] == list(range(1, stored + 1))
        assert detail["actions"][view["version"]]["action"] == picks[statuses.index(200)]
        assert duel.view(role, via=a.http) == duel.view(role, via=b.http)


def test_chat_said_on_both_processes_reaches_every_view_whole_and_in_order(
    postgres_url: str, redis_url: str, spawn: Spawn
) -> None:
    """Ten lines said in turn through A and B, each seat on its own process: both seats' views,
    read through either process, hold all ten in the order they were stored, by id (issue 40,
    finding 12: views showed 6-9 of them)."""
    a, b = two_servers(spawn, postgres_url, redis_url)
    duel = Duel.start(a.http, b.http)
    with (
        a.socket(duel.match_id, duel.tokens["editor"]) as editor_ws,
        b.socket(duel.match_id, duel.tokens["nixon"]) as nixon_ws,
    ):
        sockets = {"editor": editor_ws, "nixon": nixon_ws}
        for role in ROLES:
            receive_view(sockets[role], lambda v: True)
        for n in range(10):
            role = ROLES[n % 2]
            sockets[role].send(json.dumps({"type": "chat", "text": f"line {n}"}))
        for role in ROLES:  # both sockets hear all ten, whichever process each was said on
            heard = 0
            while heard < 10:
                message = json.loads(sockets[role].recv(timeout=10))
                heard += message.get("type") == "chat"
    for role in ROLES:
        for server in (a, b):
            seen = duel.view(role, via=server.http)["chat"]
            texts = sorted(line["text"] for line in seen)
            assert texts == [f"line {n}" for n in range(10)], (role, server.base)
            assert [line["id"] for line in seen] == sorted(line["id"] for line in seen)
