"""The computer thinks in worker processes of its own (BOT_PROCESSES), never in the server's
interpreter, where a search would hold the event loop for its whole budget; a worker that dies
is replaced and the computer still answers.

Synchronisation is by blocking receives only (tests.app.test_ws.receive has a deadline)."""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
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


def test_the_computers_worker_processes_end_when_their_server_is_killed(
    sqlite_url: str, tmp_path: Path
) -> None:
    """A server killed outright runs no shutdown code; its idle workers must not live on as
    orphans (each would hold a process and its memory until the machine restarts)."""
    from tests.app.test_crash import servers

    with servers(tmp_path) as spawn:
        server = spawn(sqlite_url, env={"BOT_PROCESSES": "1"})
        made = server.http.post("/api/matches", json={"role": "nixon", "opponent": "bot"})
        assert made.status_code == 201, made.text
        token = made.json()["seat_token"]
        with server.socket(made.json()["match_id"], token) as seen:
            first = json.loads(seen.recv(timeout=10))
            while first["version"] == 0:  # the computer (the Editor) moves first, in its worker
                first = json.loads(seen.recv(timeout=10))
        assert_workers_end_with(server)


def test_the_analysis_worker_process_ends_when_its_server_is_killed(
    sqlite_url: str, tmp_path: Path
) -> None:
    """The same for the process that analyses finished matches (issue 40, finding 17)."""
    from tests.app.test_crash import servers
    from tests.app.test_persistence import Duel, bearer

    with servers(tmp_path) as spawn:
        server = spawn(sqlite_url, env={"BOT_PROCESSES": "1"})
        duel = Duel.start(server.http)
        url = f"/api/matches/{duel.match_id}"
        assert server.http.post(f"{url}/resign", headers=bearer(duel.tokens["editor"])).is_success
        asked = server.http.get(f"{url}/analysis", headers=bearer(duel.tokens["nixon"]))
        assert asked.status_code in (200, 202), asked.text  # the worker was started for it
        assert_workers_end_with(server)


def assert_workers_end_with(server: Any) -> None:
    """The server has worker processes, and once it is killed outright they end too."""
    assert server.proc is not None
    workers = children_of(server.proc.pid)
    assert workers, "the server has a worker process"
    server.kill()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(alive(pid) for pid in workers):
        time.sleep(0.1)  # (polling the process table: the workers are not our children)
    assert not any(alive(pid) for pid in workers), "orphaned workers outlived their server"


def children_of(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                status = (entry / "status").read_text()
            except OSError:
                continue
            if f"\nPPid:\t{pid}\n" in status:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in state  # a zombie has ended (its new parent reaps it)
