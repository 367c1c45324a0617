"""The push layer: typed changes through the fan-out. A deleted match's seat tokens stop working
at once on every process and its sockets are told and closed (two apps on one database, with the
local fan-out and with Redis); a push after an action reads nothing from the database; the match
cache is bounded.

Synchronisation is by blocking receives only (tests.app.test_ws.receive has a deadline)."""

from __future__ import annotations

import gc
import random
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from starlette.websockets import WebSocketDisconnect

from app.persistence.cache import Entry, fresh_entry
from app.push.changes import (
    Deleted,
    MatchChanged,
    Message,
    Moved,
    PresenceChanged,
    decode,
    encode,
)
from engine.registry import DEFAULT_GAME, get_game

from .conftest import ADMIN_TOKEN
from .test_ws import receive, view_at

MakeClient = Callable[..., TestClient]
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def duel(creator: TestClient, joiner: TestClient) -> tuple[str, dict[str, str]]:
    """A match created on one app and claimed on the other."""
    made = creator.post("/api/matches", json={"role": "editor", "opponent": "human"}).json()
    code = made["invite_url"].rsplit("/invite/", 1)[1]
    claimed = joiner.post(f"/api/invites/{code}/claim").json()
    return made["match_id"], {"editor": made["seat_token"], "nixon": claimed["seat_token"]}


def assert_told_and_closed(ws: Any) -> None:
    """The socket gets a not_found error, then the server closes it."""
    while (message := receive(ws))["type"] == "view":
        pass
    assert (message["type"], message["code"]) == ("error", "not_found")
    with pytest.raises(WebSocketDisconnect) as closed:
        receive(ws)
    assert closed.value.code == 4404


def check_deleted_everywhere(a: TestClient, b: TestClient) -> None:
    match_id, tokens = duel(a, b)
    for app in (a, b):  # both processes have seen (and cached) both seats
        for token in tokens.values():
            assert app.get(f"/api/matches/{match_id}", headers=bearer(token)).status_code == 200
    with (
        a.websocket_connect(f"/ws/matches/{match_id}?token={tokens['editor']}") as on_a,
        b.websocket_connect(f"/ws/matches/{match_id}?token={tokens['nixon']}") as on_b,
    ):
        view_at(on_a, 0)
        view_at(on_b, 0)
        caches = b.app.state.ctx.metrics.caches  # type: ignore[attr-defined]
        caches["turn_lines"].put(match_id, "nixon")  # a cache besides the match cache holds it
        assert a.delete(f"/api/admin/matches/{match_id}", headers=ADMIN).status_code == 200
        for app in (a, b):
            for token in tokens.values():
                for path in ("", "/replay/0"):
                    got = app.get(f"/api/matches/{match_id}{path}", headers=bearer(token))
                    assert (got.status_code, got.json()["code"]) == (401, "unauthorized")
                move = app.post(
                    f"/api/matches/{match_id}/actions",
                    headers=bearer(token),
                    json={"action": {"type": "pass"}},
                )
                assert move.status_code == 401, move.text
        assert_told_and_closed(on_a)
        if b.app.state.ctx.fanout.redis is not None:  # type: ignore[attr-defined]
            assert_told_and_closed(on_b)  # the other process heard of it through Redis
            # and no cache of it answers for the match any more (issue 44)
            assert [n for n in caches if any(match_id in repr(k) for k in caches[n].order())] == []
        else:  # B is not told of it without Redis, but its socket can no longer play: the
            # action is refused, or B's own presence announcement (a moment after its socket
            # opened) re-rendered the socket, found the match gone and said so
            on_b.send_json({"type": "action", "action": {"type": "pass"}})
            while (message := receive(on_b))["type"] == "view":
                pass
            assert message["type"] == "error"
            assert message["code"] in ("unauthorized", "not_found"), message
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        b.websocket_connect(f"/ws/matches/{match_id}?token={tokens['nixon']}") as again,
    ):
        receive(again)
        receive(again)
    assert refused.value.code == 4401


def test_a_deleted_match_s_tokens_stop_working_on_every_process(
    sqlite_url: str, make_client: MakeClient
) -> None:
    check_deleted_everywhere(make_client(sqlite_url), make_client(sqlite_url))


def test_a_deleted_match_s_sockets_are_closed_on_every_process_through_redis(
    any_db_url: str, redis_url: str, make_client: MakeClient
) -> None:
    a = make_client(any_db_url, redis_url=redis_url)
    b = make_client(any_db_url, redis_url=redis_url)
    check_deleted_everywhere(a, b)


def test_changes_cross_redis_as_they_were_published() -> None:
    for change in (
        Moved("m1", 7),
        Moved("m1", 8, "nixon", 1796000000.5),
        MatchChanged("m1"),
        PresenceChanged("m1", "nixon"),
        PresenceChanged("m1", "editor", 1796000000.25),
        Deleted("m1"),
    ):
        sent = decode(encode(change, "process-a", 1796000001.0))
        assert sent == Message(change, "process-a", 1796000001.0)
    # a process that predates the timestamps (a rolling restart): the change still arrives
    older = '{"origin": "b", "kind": "moved", "match_id": "m1", "version": 3}'
    assert decode(older) == Message(Moved("m1", 3), "b", None)
    with pytest.raises(ValueError):
        decode('{"origin": "a", "kind": "teleported", "match_id": "m1"}')


def test_a_push_after_an_action_reads_nothing_from_the_database(
    sqlite_url: str, make_client: MakeClient
) -> None:
    client = make_client(sqlite_url)
    match_id, tokens = duel(client, client)
    reads: list[str] = []
    ctx = client.app.state.ctx  # type: ignore[attr-defined]

    def count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        reads.append(statement)

    with (
        client.websocket_connect(f"/ws/matches/{match_id}?token={tokens['editor']}") as ed,
        client.websocket_connect(f"/ws/matches/{match_id}?token={tokens['nixon']}") as nx,
    ):
        first = view_at(ed, 0)
        view_at(nx, 0)
        event.listen(ctx.db.reader_engine, "before_cursor_execute", count)
        try:
            action = first["legal_actions"][0]
            ed.send_json({"type": "action", "action": action, "expected_version": 0})
            assert view_at(ed, 1)["version"] == view_at(nx, 1)["version"] == 1
        finally:
            event.remove(ctx.db.reader_engine, "before_cursor_execute", count)
    assert reads == [], reads


def test_the_match_cache_is_bounded_by_bytes_and_a_miss_is_served_from_the_database(
    sqlite_url: str, make_client: MakeClient
) -> None:
    budget_mb = 0.04  # room for about two fresh matches (about 16 KB each)
    client = make_client(sqlite_url, cache_mb=budget_mb)
    matches = [duel(client, client) for _ in range(4)]
    cache = client.app.state.ctx.cache  # type: ignore[attr-defined]
    for match_id, tokens in matches * 2:
        for token in tokens.values():
            got = client.get(f"/api/matches/{match_id}", headers=bearer(token))
            assert got.status_code == 200 and got.json()["match_id"] == match_id
            assert cache.weight <= budget_mb * 1024 * 1024
    assert 1 <= len(cache) <= 2


def _measured(make: Callable[[], Entry]) -> tuple[int, int]:
    """(bytes allocated for ten entries, their estimated weight), measured with tracemalloc."""
    gc.collect()
    tracemalloc.start()
    try:
        entries = [make().warm() for _ in range(10)]
        gc.collect()
        allocated, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return allocated, sum(e.weight() for e in entries)


def _played(moves: int, seed: int) -> Entry:
    rng, game = random.Random(seed), get_game(DEFAULT_GAME)
    entry = fresh_entry("m" * 24, DEFAULT_GAME, rng.getrandbits(256), None)
    for _ in range(moves):
        if game.outcome(entry.state) is not None:
            break
        seat = next(s for s in game.seats if game.legal_actions(entry.state, s))
        action = rng.choice(game.legal_actions(entry.state, seat))
        step = game.apply(entry.state, seat, game.action_to_json(action))
        entry = entry.extended(step.state, tuple(step.events), 0.0, seat)
    return entry


@pytest.mark.parametrize("moves", [0, 40, 10_000])  # fresh, mid-game, finished
def test_a_cached_match_s_estimated_weight_is_close_to_the_memory_it_holds(moves: int) -> None:
    """The cache's budget is in bytes: each entry's estimate must be within a factor of 1.5 of
    what it really allocates, from a fresh match to a finished one."""
    seeds = iter(range(1000))
    allocated, estimated = _measured(lambda: _played(moves, next(seeds)))
    assert allocated / 1.5 <= estimated <= allocated * 1.5, (allocated, estimated)
