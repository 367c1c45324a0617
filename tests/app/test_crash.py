"""Crash safety (product.md, Persistence): killing the server at any moment loses no accepted
action, and after a restart every match continues exactly where it was.

These tests run the real server (`python -m app`, as `make run` does) in a subprocess, SIGKILL it,
and start a new one on the same database. `Server` and `spawn` are also used by
test_multiprocess.py."""

from __future__ import annotations

import json
import os
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

import engine.watergate as engine
from app.__main__ import ROOT
from engine.watergate.bots import RandomBot
from engine.watergate.views import view_for
from tests.app.conftest import ADMIN_TOKEN
from tests.app.test_persistence import ROLES, Duel, admin_detail, bearer, replayed

READY_WITHIN = 20.0  # seconds for a server to migrate and answer /healthz
SERVER_ENV = (
    "DATABASE_URL",
    "REDIS_URL",
    "ADMIN_TOKEN",
    "HOST",
    "PORT",
    "BOT_DELAY_MS",
    "BOT_KIND",
    "BOT_BUDGET_MS",
    "BASE_URL",
    "RATE_LIMITS",
    "FORWARDED_ALLOW_IPS",
    "LOG_FORMAT",
    "METRICS_TOKEN",
    "WS_MESSAGES_PER_SECOND",
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    """One `python -m app` process with its own HTTP client."""

    database_url: str
    log_dir: Path
    redis_url: str | None = None
    bot_delay_ms: int = 0
    env: dict[str, str] = field(default_factory=dict)  # more settings
    open_files: int | None = None  # the process's RLIMIT_NOFILE, if not this process's
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None
    http: httpx.Client = field(init=False)

    @property
    def base(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if k not in SERVER_ENV}
        env.update(
            DATABASE_URL=self.database_url,
            HOST="127.0.0.1",
            PORT=str(self.port),
            ADMIN_TOKEN=ADMIN_TOKEN,
            BOT_DELAY_MS=str(self.bot_delay_ms),
            RATE_LIMITS="off",  # these tests make many requests from one address; `env` may differ
            WS_MESSAGES_PER_SECOND="0",  # and play whole matches at machine speed over sockets
            PYTHONUNBUFFERED="1",
        )
        if self.redis_url is not None:
            env["REDIS_URL"] = self.redis_url
        env.update(self.env)
        self.log = self.log_dir / f"server-{self.port}.log"
        with self.log.open("wb") as out:  # the child keeps its own handle
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "app"], cwd=ROOT, env=env, stdout=out, stderr=out,
                preexec_fn=None if self.open_files is None else self._limit_open_files,
            )  # fmt: skip
        self.http = httpx.Client(base_url=f"http://{self.base}", timeout=15)

    def _limit_open_files(self) -> None:
        """In the child, before it runs the server."""
        assert self.open_files is not None
        resource.setrlimit(resource.RLIMIT_NOFILE, (self.open_files, self.open_files))

    def wait_ready(self) -> None:
        """Poll /healthz (bounded); fail with the server's log if it does not come up."""
        assert self.proc is not None
        deadline = time.monotonic() + READY_WITHIN
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"server exited with {self.proc.returncode}:\n{self.log_tail()}")
            try:
                if self.http.get("/healthz", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.05)
        pytest.fail(f"server not ready within {READY_WITHIN} s:\n{self.log_tail()}")

    def log_tail(self) -> str:
        return self.log_text()[-3000:]

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash or a power cut of the process."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.http.close()

    def socket(self, match_id: str, token: str) -> ClientConnection:
        return connect(f"ws://{self.base}/ws/matches/{match_id}?token={token}", open_timeout=10)


Spawn = Callable[..., Server]


@contextmanager
def servers(log_dir: Path) -> Iterator[Spawn]:
    """spawn(database_url, ready=True, **Server options) -> a started Server, ready unless
    `ready=False` (to start several at once, then wait_ready each). All are killed on exit."""
    started: list[Server] = []

    def spawn(database_url: str, ready: bool = True, **options: Any) -> Server:
        server = Server(database_url, log_dir, **options)
        started.append(server)
        server.start()
        if ready:
            server.wait_ready()
        return server

    try:
        yield spawn
    finally:
        for server in started:
            server.stop()


@pytest.fixture
def spawn(tmp_path: Path) -> Iterator[Spawn]:
    with servers(tmp_path) as make:
        yield make


def receive_view(ws: ClientConnection, until: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first pushed view that satisfies `until` (blocking receives, 10 s each at most)."""
    while True:
        try:
            message = json.loads(ws.recv(timeout=10))
        except TimeoutError:
            pytest.fail("no awaited view was pushed to the socket within 10 s")
        assert message["type"] == "view", message
        if until(message):
            return dict(message)


def clicked(detail: dict[str, Any]) -> list[tuple[str, Any] | None]:
    """The stored actions as (role, action), None for each only choice the server took
    (issue 42): those were never a request of the seat, so no answer acknowledged them."""
    out: list[tuple[str, Any] | None] = []
    state = engine.start(detail["seed"], detail["rules_version"]).state
    for a in detail["actions"]:
        out.append(None if engine.GAME.forced(state) is not None else (a["role"], a["action"]))
        state = engine.apply(state, a["role"], a["action"]).state
    return out


def test_kill_after_acknowledged_actions_loses_none(any_db_url: str, spawn: Spawn) -> None:
    bot = RandomBot(41)
    first = spawn(any_db_url)
    duel = Duel.start(first.http)
    assert duel.play(bot, 11) == 11
    role, view = duel.decision() or pytest.fail("the match ended early")
    acked = duel.submit(role, bot.choose(view["state"], view["legal_actions"]), view["version"])
    assert acked.status_code == 200, acked.text
    upto = acked.json()["version"]  # past 12 if the server took only choices (issue 42)
    other = engine.other(role)  # type: ignore[arg-type]
    before = {role: acked.json(), other: duel.view(other)}
    first.kill()

    second = spawn(any_db_url)
    duel.clients = {"editor": second.http, "nixon": second.http}
    after = duel.views()
    assert after == before  # both seats see exactly what they saw before the crash
    assert after["editor"]["version"] == upto  # every acknowledged action, nothing else

    # A burst: one thread plays as fast as it can while the server is killed mid-flight.
    acks: list[tuple[str, Any]] = []
    in_flight: list[tuple[str, Any]] = []
    enough = threading.Event()

    def burst() -> None:
        try:
            while (found := duel.decision()) is not None:
                role, view = found
                action = bot.choose(view["state"], view["legal_actions"])
                in_flight[:] = [(role, action)]
                r = duel.submit(role, action, view["version"])
                assert r.status_code == 200, r.text
                acks.append((role, action))
                in_flight.clear()
                if len(acks) == 8:
                    enough.set()
        except httpx.TransportError:
            pass  # the server is gone
        finally:
            enough.set()

    player = threading.Thread(target=burst)
    player.start()
    try:
        assert enough.wait(timeout=60)
        second.kill()
    finally:
        player.join(timeout=30)
    assert not player.is_alive() and len(acks) >= 8

    third = spawn(any_db_url)
    duel.clients = {"editor": third.http, "nixon": third.http}
    stored = admin_detail(third.http, duel.match_id)["actions"]
    assert [a["seq"] for a in stored] == list(range(1, len(stored) + 1))  # no gap, no duplicate
    survived = [c for c in clicked(admin_detail(third.http, duel.match_id))[upto:] if c]
    assert survived[: len(acks)] == acks  # every 200 survived, in order
    assert survived[len(acks) :] in ([], in_flight)  # at most the one unanswered request
    assert duel.views()["editor"]["version"] == len(stored)

    duel.finish(bot)
    final = duel.views()
    assert final["editor"]["status"] == final["nixon"]["status"] == "finished"
    state = replayed(admin_detail(third.http, duel.match_id))  # the stored truth, replayed
    assert state.version == final["editor"]["version"]
    for seat in ROLES:
        assert final[seat]["state"] == view_for(state, seat)
        assert final[seat]["winner"] == state.winner


def test_a_computer_move_pending_at_the_kill_is_made_after_restart(
    sqlite_url: str, spawn: Spawn
) -> None:
    slow = spawn(sqlite_url, bot_delay_ms=600_000)  # the computer would think for ten minutes
    made = slow.http.post("/api/matches", json={"role": "nixon", "opponent": "bot"})
    assert made.status_code == 201, made.text
    match_id, token = made.json()["match_id"], made.json()["seat_token"]
    waiting = slow.http.get(f"/api/matches/{match_id}", headers=bearer(token)).json()
    assert (waiting["version"], waiting["legal_actions"]) == (0, [])  # the Editor (bot) decides
    slow.kill()

    server = spawn(sqlite_url, bot_delay_ms=0, env={"BOT_KIND": "random"})  # a quick thinker
    bot, url = RandomBot(9), f"/api/matches/{match_id}/actions"
    with server.socket(match_id, token) as ws:
        view = receive_view(ws, lambda v: v["version"] > 0)  # made by the new process
        for _ in range(500):
            if view["status"] == "finished":
                break
            if not view["legal_actions"]:  # the computer's turn: wait for its move
                seen = view["version"]
                view = receive_view(ws, lambda v, seen=seen: v["version"] > seen)
                continue
            action = bot.choose(view["state"], view["legal_actions"])
            body = {"action": action, "expected_version": view["version"]}
            r = server.http.post(url, json=body, headers=bearer(token))
            assert r.status_code == 200, r.text
            view = r.json()
        else:
            pytest.fail("the match against the computer did not end")
    assert view["winner"] in ROLES
    detail = admin_detail(server.http, match_id)
    assert detail["actions"][0]["role"] == "editor"  # the move the killed process owed
    assert [a["seq"] for a in detail["actions"]] == list(range(1, view["version"] + 1))


def test_a_fatal_signal_leaves_a_line_in_the_log_saying_where(
    sqlite_url: str, spawn: Spawn
) -> None:
    """A SQLite shared-memory file that cannot be written kills the process with SIGBUS; it died
    with no log line at all (issue 40, finding 16). The server writes the fatal error and every
    thread's stack to its log on SIGBUS (and SIGSEGV, SIGFPE, SIGABRT, SIGILL) before dying."""
    server = spawn(sqlite_url)
    assert server.proc is not None
    os.kill(server.proc.pid, signal.SIGBUS)
    assert server.proc.wait(timeout=10) == -signal.SIGBUS  # it still dies of it
    # The whole log: a signal landing mid-request prints a deep stack, longer than any tail.
    said = server.log_text()
    assert "Fatal Python error: Bus error" in said, said[-3000:]
    assert "Current thread" in said or "Thread 0x" in said, said[-3000:]  # where it was
