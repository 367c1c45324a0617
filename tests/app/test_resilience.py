"""Degradation and self-healing (contract v1.1, hostile clients: readiness, degradation). Redis or
the database is cut under running servers through a TCP proxy (tests.app.tcpproxy) and restored:
committed actions are still answered, views never fail, an outage is 503 `unavailable` (never a
500), /readyz says so, and everything works again afterwards without a restart.

Waiting is polling for a condition with a deadline, or blocking receives with a deadline."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlalchemy.pool import NullPool
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from app.persistence.db import driver_url
from app.push.changes import MatchChanged
from engine.watergate.bots import RandomBot
from tests.app.tcpproxy import Proxy
from tests.app.test_crash import Server, Spawn, receive_view, servers
from tests.app.test_persistence import Duel, bearer
from tests.app.test_ws import receive, view_at

DEADLINE = 20.0  # seconds: the supervisor's backoff is capped at 5 s for the fan-out


@pytest.fixture
def spawn(tmp_path: Path) -> Iterator[Spawn]:
    with servers(tmp_path) as make:
        yield make


def eventually(what: str, check: Callable[[], bool]) -> None:
    """Poll `check` until it holds; fail naming `what` after the deadline."""
    deadline = time.monotonic() + DEADLINE
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"not within {DEADLINE} s: {what}")
        time.sleep(0.05)


def readiness(client: httpx.Client) -> int:
    return client.get("/readyz").status_code


def assert_unavailable(r: httpx.Response) -> None:
    """503 with the stable JSON error, and a hint when to try again."""
    assert r.status_code == 503, r.text
    assert r.headers["content-type"] == "application/json"
    assert r.json()["code"] == "unavailable" and r.json()["message"]
    assert int(r.headers["retry-after"]) > 0


def move(duel: Duel, bot: RandomBot, via: httpx.Client) -> int:
    """One legal move by whichever seat decides, through `via`; the new version."""
    role, view = duel.decision(via=via) or pytest.fail("the match ended early")
    r = duel.submit(role, bot.choose(view["state"], view["legal_actions"]), view["version"], via)
    assert r.status_code == 200, r.text
    return int(r.json()["version"])


def test_a_redis_outage_mid_match_loses_no_push_and_heals_without_restart(
    postgres_url: str, redis_url: str, spawn: Spawn
) -> None:
    with Proxy.to_url(redis_url) as proxy:
        a: Server = spawn(postgres_url, ready=False, redis_url=proxy.url(redis_url))
        b: Server = spawn(postgres_url, ready=False, redis_url=proxy.url(redis_url))
        a.wait_ready()
        b.wait_ready()
        for server in (a, b):
            eventually("ready before the outage", lambda s=server: readiness(s.http) == 200)
        duel, bot = Duel.start(a.http, b.http), RandomBot(23)
        with (
            a.socket(duel.match_id, duel.tokens["editor"]) as on_a,
            b.socket(duel.match_id, duel.tokens["nixon"]) as on_b,
        ):
            receive_view(on_a, lambda v: v["version"] == 0)
            receive_view(on_b, lambda v: v["version"] == 0)
            version = move(duel, bot, via=a.http)
            receive_view(on_b, lambda v: v["version"] == version)  # pushes cross processes

            proxy.cut()
            for server in (a, b):
                eventually("not ready during the outage", lambda s=server: readiness(s.http) == 503)
                assert_unavailable(server.http.get("/readyz"))
                assert server.http.get("/healthz").status_code == 200  # alive all the same
            for _ in range(3):  # committed actions are answered, and pushed on their process
                version = move(duel, bot, via=a.http)
                receive_view(on_a, lambda v, n=version: v["version"] == n)
            for server in (a, b):  # every process serves views from the database
                for role in ("editor", "nixon"):
                    assert duel.view(role, via=server.http)["version"] == version
            # presence without Redis: each process still knows its own sockets
            assert duel.view("nixon", via=b.http)["presence"]["nixon"]["online"] is True
            with a.socket(duel.match_id, duel.tokens["editor"]) as late:  # sockets open as well
                receive_view(late, lambda v: v["version"] == version)

            proxy.restore()
            for server in (a, b):
                eventually("ready again", lambda s=server: readiness(s.http) == 200)
            # B caught up by itself: the moves it was never told of are pushed, with no new move
            receive_view(on_b, lambda v: v["version"] == version)
            version = move(duel, bot, via=a.http)  # and pushes cross processes again
            receive_view(on_b, lambda v: v["version"] == version)
            assert duel.view("editor", via=a.http)["presence"]["nixon"]["online"] is True


def test_the_database_away_is_503_unavailable_and_not_ready_then_heals(
    postgres_url: str, make_client: Callable[..., TestClient]
) -> None:
    with Proxy.to_url(postgres_url) as proxy:
        client = make_client(proxy.url(postgres_url))
        duel, bot = Duel.start(client), RandomBot(4)
        seat = f"/ws/matches/{duel.match_id}?token={duel.tokens['editor']}"
        with client.websocket_connect(seat) as ws:
            first = view_at(ws, 0)
            action = {"type": "action", "action": first["legal_actions"][0], "expected_version": 0}
            proxy.cut()
            view = client.get(f"/api/matches/{duel.match_id}", headers=bearer(duel.tokens["nixon"]))
            assert_unavailable(view)
            assert_unavailable(duel.submit("editor", first["legal_actions"][0], 0))
            ready = client.get("/readyz")
            assert_unavailable(ready)
            assert "database" in ready.json()["message"]
            assert client.get("/healthz").status_code == 200
            ws.send_json(action)  # an open socket is told, and stays open
            assert_unavailable_frame(ws)
            with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(seat) as s:
                assert_unavailable_frame(s)  # a new socket: told, then closed 4503
                receive(s)
            assert refused.value.code == 4503

            proxy.restore()
            eventually("ready again", lambda: readiness(client) == 200)
            ws.send_json(action)  # the same socket plays again: the new view is pushed
            view_at(ws, 1)
        assert move(duel, bot, via=client) == 2
        assert duel.view("nixon")["version"] == 2


def test_a_database_host_that_stops_answering_is_503_within_seconds_then_heals(
    postgres_url: str, make_client: Callable[..., TestClient]
) -> None:
    """A partition, not a refusal: connections are accepted and never answered. Without a
    connect timeout a request (and its worker thread) would wait for TCP's minutes."""
    with Proxy.to_url(postgres_url) as proxy:
        client = make_client(proxy.url(postgres_url), database_connect_timeout_s=1)
        duel = Duel.start(client)
        path, seat = f"/api/matches/{duel.match_id}", bearer(duel.tokens["nixon"])
        proxy.hang()
        started = time.monotonic()
        assert_unavailable(client.get(path, headers=seat))
        assert time.monotonic() - started < 10  # the timeout is 1 s; TCP alone waits minutes
        assert client.get("/readyz").status_code == 503
        proxy.restore()
        eventually("ready again", lambda: readiness(client) == 200)
        assert client.get(path, headers=seat).json()["version"] == 0


def test_a_push_that_failed_while_the_database_was_away_is_sent_once_it_is_back(
    postgres_url: str, make_client: Callable[..., TestClient]
) -> None:
    """Another process's change arrives while the database is away, so this process cannot
    read the match to render it: the socket is told, and gets the view once the database is
    back, with no further change to prompt it."""
    with Proxy.to_url(postgres_url) as proxy:
        client = make_client(proxy.url(postgres_url))
        duel = Duel.start(client)
        fanout = client.app.state.ctx.core.fanout  # type: ignore[attr-defined]
        with client.websocket_connect(
            f"/ws/matches/{duel.match_id}?token={duel.tokens['nixon']}"
        ) as ws:
            view_at(ws, 0)
            proxy.cut()
            assert client.portal is not None  # the app's event loop, where changes are delivered
            client.portal.call(lambda: fanout.deliver(MatchChanged(duel.match_id), remote=True))
            assert_unavailable_frame(ws)
            proxy.restore()
            assert receive(ws)["type"] == "view"


def assert_unavailable_frame(ws: WebSocketTestSession) -> None:
    """The next message other than a view (presence may push the same version again) is the
    `unavailable` error."""
    while (message := receive(ws))["type"] == "view":
        assert message["version"] == 0
    assert (message["type"], message["code"]) == ("error", "unavailable"), message
    assert message["message"]


def test_a_redis_that_stops_answering_costs_actions_nothing_after_the_first(
    postgres_url: str, redis_url: str, spawn: Spawn
) -> None:
    """A black-holed Redis (packets dropped, nothing refused) made every action wait out its
    timeouts, about 4 s each (issue 40, finding 14): after the first failure, publishing and
    presence skip Redis until a probe finds it answering, and then use it again."""
    with Proxy.to_url(redis_url) as proxy:
        a: Server = spawn(postgres_url, redis_url=proxy.url(redis_url))
        eventually("ready", lambda: readiness(a.http) == 200)
        duel, bot = Duel.start(a.http), RandomBot(29)
        with a.socket(duel.match_id, duel.tokens["editor"]) as on_a:
            receive_view(on_a, lambda v: v["version"] == 0)
            proxy.hang()
            move(duel, bot, via=a.http)  # the first finds out, within the timeouts
            started = time.monotonic()
            for _ in range(10):
                version = move(duel, bot, via=a.http)
                receive_view(on_a, lambda v, n=version: v["version"] == n)
            # ten moves and their pushes without Redis's timeouts (4 s each before): a bound
            # far from both, so that a loaded machine cannot fail it
            assert time.monotonic() - started < 10.0
            proxy.restore()
            eventually("ready again", lambda: readiness(a.http) == 200)
            version = move(duel, bot, via=a.http)
            receive_view(on_a, lambda v, n=version: v["version"] == n)


def refuse_writes(client: TestClient, url: str, refuse: bool) -> None:
    """Make the app's database refuse every write (or take them again), as a read-only SQLite
    file or a PostgreSQL standby does; the app's pools are emptied, so that the next
    connection sees it."""
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    engine = ctx.db.writer_engine
    if url.startswith("sqlite"):

        def query_only(dbapi_connection: Any, _: Any) -> None:
            dbapi_connection.execute("PRAGMA query_only = ON")

        if refuse:
            event.listen(engine, "connect", query_only)
            engine._refusing = query_only
        else:
            event.remove(engine, "connect", engine._refusing)
    else:
        name = sa.make_url(url).database
        admin = sa.create_engine(driver_url(url), poolclass=NullPool)
        with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql("SET default_transaction_read_only = off")
            setting = "on" if refuse else "off"
            conn.exec_driver_sql(
                f"ALTER DATABASE {name} SET default_transaction_read_only = {setting}"
            )
        admin.dispose()
    engine.pool.dispose()


def test_a_database_that_refuses_writes_is_not_ready_and_writes_are_503(
    any_db_url: str, make_client: Callable[..., TestClient]
) -> None:
    """A read-only SQLite file answered every read and refused every write while /readyz said
    ready (issue 40, finding 15): readiness now asks for a write (rolled back), and a refused
    write is 503 unavailable, never a 500."""
    client = make_client(any_db_url)
    client.raise_server_exceptions = False
    duel = Duel.start(client)
    assert client.get("/readyz").status_code == 200
    refuse_writes(client, any_db_url, True)
    try:
        assert_unavailable(client.get("/readyz"))
        assert_unavailable(client.post("/api/matches", json={"role": "editor"}))
        assert duel.view("editor")["status"] == "active"  # reads still work
    finally:
        refuse_writes(client, any_db_url, False)
    assert client.get("/readyz").status_code == 200
    assert client.post("/api/matches", json={"role": "editor"}).status_code == 201
