"""A server of this project's own: `python -m app` in a subprocess on a free loopback port,
stopped when the block ends (`app_process`, which the browser tests' servers use too). A
benchmark's (`serving`) runs on a fresh SQLite file (or a given DATABASE_URL), with the rate
limits and the per-address caps off (every benchmark client comes from 127.0.0.1); `Usage` reads
its CPU time and /metrics histograms and this client's CPU time, so a figure can say whether the
server or the client was busy."""

from __future__ import annotations

import json
import math
import os
import resource
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from .machine import CpuTimes, steal_percent

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT_S = 60.0
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Served:
    base: str  # http://127.0.0.1:port
    admin_token: str
    pid: int

    def cpu_seconds(self) -> float:
        """The server process's CPU time so far (user + system), from /proc (nan elsewhere)."""
        try:
            fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime (fields 14, 15)


@dataclass(frozen=True)
class Usage:
    """CPU seconds of the server and of this client, the machine's ticks, and the server's own
    histograms of action -> push and of its event loop's lag, at one moment: the server's side
    of a phase, whatever this client's scheduling on a shared machine added to it."""

    wall: float
    server: float
    client: float
    cpu: CpuTimes | None
    push: dict[float, float]
    lag: dict[float, float]

    @classmethod
    async def now(cls, served: Served) -> Usage:
        async with httpx.AsyncClient(base_url=served.base, timeout=60) as http:
            metrics = (await http.get("/metrics")).text  # a scraper on this machine needs no token
        mine = resource.getrusage(resource.RUSAGE_SELF)
        return cls(
            time.perf_counter(), served.cpu_seconds(), mine.ru_utime + mine.ru_stime,
            CpuTimes.now(), buckets(metrics, "watergate_action_push_seconds"),
            buckets(metrics, "watergate_event_loop_lag_seconds"),
        )  # fmt: skip

    def since(self, before: Usage) -> dict[str, float]:
        wall = self.wall - before.wall
        return {
            "server_cpu_pct": 100 * (self.server - before.server) / wall,
            "client_cpu_pct": 100 * (self.client - before.client) / wall,
            "steal_pct": steal_percent(before.cpu, self.cpu),
            # bucket bounds: the server's figures are histograms
            "server_push_p99_le_ms": 1000 * bound(before.push, self.push, 0.99),
            "server_loop_lag_p99_le_ms": 1000 * bound(before.lag, self.lag, 0.99),
        }


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/healthz", timeout=2) as response:
            answer: object = json.loads(response.read())
            return response.status == 200 and answer == {"status": "ok"}
    except (OSError, urllib.error.URLError, ValueError):
        return False


@contextmanager
def app_process(
    settings: dict[str, str], log_path: Path, timeout: float = START_TIMEOUT_S
) -> Iterator[tuple[str, int]]:
    """`python -m app` with these settings over the environment's (no Redis, no public address)
    on a free loopback port, its output in `log_path`: (its base URL, its pid) once it answers
    its health check, stopped when the block ends. RuntimeError with the log's tail when it does
    not come up within `timeout` seconds. (The browser tests' servers are made here too.)"""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "BASE_URL")}
    env.update(settings, HOST="127.0.0.1", PORT=str(port))
    url = f"http://127.0.0.1:{port}"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "app"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
        )
        try:
            deadline = time.monotonic() + timeout
            while not healthy(url):
                if proc.poll() is not None or time.monotonic() > deadline:
                    tail = log_path.read_text(errors="replace")[-3000:]
                    raise RuntimeError(f"the server did not become healthy at {url}:\n{tail}")
                time.sleep(0.1)  # polling its health: nothing else says when it listens
            yield url, proc.pid
        finally:
            if proc.poll() is not None:  # it ended by itself: say how, before its log goes
                tail = log_path.read_text(errors="replace")[-3000:]
                print(f"the server at {url} ended ({proc.returncode}):\n{tail}", file=sys.stderr)
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)


@contextmanager
def serving(database_url: str | None, sockets: int) -> Iterator[Served]:
    """A benchmark's server while the block runs, with room for `sockets` tournament or lobby
    sockets from this one address; its log in a temporary folder."""
    token = secrets.token_hex(16)
    with tempfile.TemporaryDirectory(prefix="bench-server-") as tmp:
        settings = {
            "DATABASE_URL": database_url or f"sqlite:///{tmp}/bench.db",
            "ADMIN_TOKEN": token,
            "RATE_LIMITS": "off",
            "MAX_CONNECTIONS_PER_ADDRESS": "0",
            "MAX_LOBBY_SOCKETS": str(max(2000, sockets)),  # the tournament sockets' caps too
            "MAX_LOBBY_SOCKETS_PER_ADDRESS": str(max(50, sockets)),
            "PASSWORD_HASH_MEMORY_KIB": str(19 * 1024),  # the accounts are made before measuring
        }
        with app_process(settings, Path(tmp) / "server.log") as (url, pid):
            yield Served(url, token, pid)


def buckets(exposition: str, name: str) -> dict[float, float]:
    """A histogram's cumulative bucket counts by upper bound (summed over its labels) from
    /metrics' text."""
    counts: dict[float, float] = {}
    for line in exposition.splitlines():
        if line.startswith(name + "_bucket{"):
            labels, value = line.rsplit(" ", 1)
            le = float(labels.split('le="', 1)[1].split('"', 1)[0])
            counts[le] = counts.get(le, 0.0) + float(value)
    return counts


def bound(before: dict[float, float], after: dict[float, float], q: float) -> float:
    """The upper bound of the bucket holding quantile `q` of what was observed between two
    readings, in seconds (nan: nothing observed; inf: beyond the last bound)."""
    total = after.get(math.inf, 0.0) - before.get(math.inf, 0.0)
    if total <= 0:
        return math.nan
    return next(le for le in sorted(after) if after[le] - before.get(le, 0.0) >= q * total)
