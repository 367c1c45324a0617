"""The computer thinks in worker processes of its own (BOT_PROCESSES), never in the server's
interpreter, where a search would hold the event loop for its whole budget; a worker that dies
is replaced and the computer still answers.

Synchronisation is by blocking receives only (tests.app.test_ws.receive has a deadline)."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from .test_ws import create, receive_view, send_action, socket

MakeClient = Callable[..., TestClient]


def my_turn(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next view that offers this seat a choice (the computer has answered)."""
    while not (view := receive_view(ws))["legal_actions"]:
        pass
    return view


def test_the_computer_thinks_in_another_process_and_survives_its_death(
    sqlite_url: str, make_client: MakeClient
) -> None:
    client = make_client(sqlite_url, bot_processes=1, bot_kind="search", bot_budget_ms=30)
    made = create(client, role="nixon", opponent="bot")  # the computer is the Editor: first (R5)
    thinking = client.app.state.ctx.bots.thinking  # type: ignore[attr-defined]
    with socket(client, made["match_id"], made["seat_token"]) as ws:
        view = my_turn(ws)
        assert view["version"] >= 1  # the computer has moved
        workers = thinking.worker_pids()
        assert workers and os.getpid() not in workers
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        # The computer keeps answering: the first time after its worker died, then in a new one.
        # Not every move of ours hands it a decision to think about (a card's target is ours to
        # choose too), so we play on until it has thought again, up to a bound.
        replaced = False
        for _ in range(40):
            send_action(ws, view["legal_actions"][0], view["version"])
            view = my_turn(ws)
            now = thinking.worker_pids()
            replaced = bool(now) and not set(now) & set(workers)
            if replaced:
                break
        assert replaced, (workers, thinking.worker_pids())


def test_with_no_worker_processes_the_computer_thinks_in_threads(
    sqlite_url: str, make_client: MakeClient
) -> None:
    client = make_client(sqlite_url, bot_processes=0)
    made = create(client, role="nixon", opponent="bot")
    with socket(client, made["match_id"], made["seat_token"]) as ws:
        assert my_turn(ws)["version"] >= 1
    assert client.app.state.ctx.bots.thinking.worker_pids() == []  # type: ignore[attr-defined]
