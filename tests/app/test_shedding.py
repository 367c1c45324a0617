"""Watchers cannot take the server from the players (contract v1.1, hostile clients): new
spectator sockets share a per-process budget (SPECTATOR_SOCKETS_PER_SECOND) whatever RATE_LIMITS
says; beyond it a handshake is answered late (SPECTATOR_REFUSAL_DELAY_MS) with `429 overloaded`
and Retry-After, while seats
always connect; a spectator arriving on a match this process already follows is checked from
memory, without a database read.

Synchronisation is by blocking receives only (tests.app.test_ws.receive has a deadline)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse

from app.http.shedding import Budget, Shedder

from .test_admin import ADMIN
from .test_socket_flood import spectator_socket
from .test_ws import receive_view, socket, started
from .test_ws_auth import refusal

MakeClient = Callable[..., TestClient]


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_budget_spends_its_burst_then_refills_at_its_rate() -> None:
    time = FakeTime()
    budget = Budget(rate=2, burst=3, clock=time)
    assert [budget.take() for _ in range(4)] == [True, True, True, False]
    assert budget.wait() == 1
    time.now += 0.5  # one token back
    assert budget.take() and not budget.take()
    time.now += 60  # a long quiet spell saves up no more than the burst
    assert [budget.take() for _ in range(4)] == [True, True, True, False]


def test_a_slow_budget_asks_for_a_longer_wait() -> None:
    budget = Budget(rate=0.1, burst=1, clock=FakeTime())
    assert budget.take() and not budget.take()
    assert budget.wait() == 10


def test_refusals_wait_spread_around_the_delay_so_a_refused_crowd_returns_spread_out() -> None:
    delays = [Shedder(per_second=1, delay_s=1.0).delay() for _ in range(400)]
    assert all(0.5 <= d <= 1.5 for d in delays)
    assert min(delays) < 0.6 and max(delays) > 1.4  # a crowd's answers are spread over a second
    assert Shedder(per_second=1, delay_s=0).delay() == 0


def test_spectators_over_the_budget_are_refused_and_seats_still_connect(
    sqlite_url: str, make_client: MakeClient
) -> None:
    # a bucket of one, refilled after 100 s: the second watcher finds it empty
    client = make_client(
        sqlite_url, spectator_sockets_per_second=0.01, spectator_refusal_delay_ms=0
    )
    match_id, tokens = started(client)
    watch = spectator_socket(client, match_id, tokens["editor"])
    with ExitStack() as stack:
        first = stack.enter_context(watch())
        assert receive_view(first)["version"] >= 0
        with pytest.raises(WebSocketDenialResponse) as refused:
            stack.enter_context(watch())
        answer = refused.value
        assert answer.status_code == 429 and int(answer.headers["retry-after"]) >= 1
        assert answer.json()["code"] == "overloaded"
        for seat in ("editor", "nixon", "editor"):  # seats are never shed
            ws = stack.enter_context(socket(client, match_id, tokens[seat]))
            assert receive_view(ws)["version"] >= 0


def test_with_no_budget_spectators_are_only_capped_per_link(
    sqlite_url: str, make_client: MakeClient
) -> None:
    client = make_client(sqlite_url, spectator_sockets_per_second=0)
    match_id, tokens = started(client)
    watch = spectator_socket(client, match_id, tokens["editor"])
    with ExitStack() as stack:
        for _ in range(5):
            assert receive_view(stack.enter_context(watch()))["version"] >= 0


def test_a_followed_match_lets_spectators_in_from_memory_and_refuses_a_wrong_key(
    client: TestClient,
) -> None:
    match_id, tokens = started(client)
    watch = spectator_socket(client, match_id, tokens["editor"])
    db = client.app.state.ctx.core.db  # type: ignore[attr-defined]
    reads: list[None] = []
    reader = db.reader

    def counting() -> Any:
        reads.append(None)
        return reader()

    with ExitStack() as stack:
        seat = stack.enter_context(socket(client, match_id, tokens["editor"]))
        receive_view(seat)  # the match is followed here from now on
        db.reader = counting
        for _ in range(5):
            assert receive_view(stack.enter_context(watch()))["version"] >= 0
        assert reads == []
        wrong = client.websocket_connect(f"/ws/watch/{match_id}?key=not-the-key")
        assert refusal(stack.enter_context(wrong)) == ("wrong_key", 4403)


def test_once_the_match_is_deleted_its_spectator_link_is_refused_at_once(
    client: TestClient,
) -> None:
    match_id, tokens = started(client)
    watch = spectator_socket(client, match_id, tokens["editor"])
    with socket(client, match_id, tokens["editor"]) as seat:
        receive_view(seat)
        assert client.delete(f"/api/admin/matches/{match_id}", headers=ADMIN).status_code == 200
        with watch() as late:
            assert refusal(late) == ("not_found", 4404)
