"""An arena at scale (issue 46, "Scale"): one server process, N players in one arena.

    python -m bench.tournament --players 500 --seconds 120 [--think-ms 1000] [--ramp-s 10] \
        [--resign-after 10] [--watchers 50] [--database-url postgresql://…]

Starts its own server (bench.server: SQLite on a fresh file unless `--database-url`), makes N
accounts and an arena (realtime-15, 60 minutes) they all join, then plays twice, `--seconds`
each, on the same server:
1. the baseline: N/2 matches made directly (as bench.load makes them), with the arena's clock,
   each seat answering at `--think-ms` and resigning after `--resign-after` actions of its own
   (0: playing to the end), a new match as soon as one ends;
2. the arena: each player opens the tournament's socket (present: pairable) and, when a frame's
   `you.playing` names a new match, closes it and takes its seat, as the page does (it takes the
   browser to the table); after the game it opens the page again (the table's link back) to be
   paired anew. `--watchers` viewers without a seat keep the page open all along and read every
   push (the crowd a big arena draws).
Printed, one `name value` a line: the machine (`cores`, `load1`), then for both phases the
actions, `*_p50_ms` / `*_p99_ms` of action -> push (bench.load's measure, in its steady state:
once every match, or every player who played, has started; `arena_never_played` counts the
others), the server's and this client's CPU share, the hypervisor's steal, the server's own p99
of action -> push and of its event loop's lag (`*_server_push_p99_le_ms`,
`*_server_loop_lag_p99_le_ms`: the bound of the /metrics histogram bucket that holds it);
`arena_over_baseline` (the p99s' ratio, goal at most 1.5); and the pairing latency: from the
moment a player is free (its auth sent on the tournament socket, or its game's finished view) to
the tournament frame naming its next match, `pairing_p50_ms` and `pairing_p99_ms` over every
pairing of the run (goal: p99 under 2 s), the same for the first pairings (`pairing_first_*`)
and those after a game (`pairing_again_*`); `pairing_push_*` of that the part from the
director's pass that made the game (its `started_at`, the server's clock) to the later of its
players' frames (the rest is the wait for a partner and for that pass), each with its `_max_ms`;
`pairings_pending` the players still waiting when it ended; `tournament_frames` received on the
players' tournament sockets and `watcher_frames` on the watchers', with their mean sizes. A
client CPU share near 100 means the figures are this client's, not the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import httpx
import websockets

from . import load
from .server import Served, Usage, serving

CLOCK = "realtime-15"
PASSWORD = "bench tournament password"
SIGNUPS_AT_ONCE = 4  # the server hashes passwords on a few threads; more wait or get 503
HTTP_LIMITS = httpx.Limits(max_connections=100)


@dataclass
class Arena:
    """What the arena's players measured together."""

    stats: load.Stats = field(default_factory=load.Stats)
    # seconds from free to the frame: after joining, and after a game
    first: list[float] = field(default_factory=list)
    told: dict[str, float] = field(default_factory=dict)  # match -> when its last player heard
    again: list[float] = field(default_factory=list)
    pending: int = 0  # players free and not yet paired when the run ended
    frames: int = 0  # tournament frames received by the players
    frame_bytes: int = 0
    watched: int = 0  # and by the watchers
    watched_bytes: int = 0
    sent: dict[str, dict[int, float]] = field(default_factory=dict)  # by match: bench.load's


async def _sign_up(http: httpx.AsyncClient, username: str) -> dict[str, str]:
    body = {"username": username, "password": PASSWORD}
    while True:
        made = await http.post("/api/accounts", json=body)
        if made.status_code != 503:  # 503: every hashing thread busy, its queue full
            made.raise_for_status()
            account: dict[str, str] = made.json()
            return account
        await asyncio.sleep(0.1)


async def _accounts(http: httpx.AsyncClient, n: int) -> list[dict[str, str]]:
    """N new accounts (names of this run's own, so a reused database takes them too)."""
    tag = secrets.token_hex(3)
    gate = asyncio.Semaphore(SIGNUPS_AT_ONCE)

    async def one(i: int) -> dict[str, str]:
        async with gate:
            return await _sign_up(http, f"b{tag}{i:04d}")

    return list(await asyncio.gather(*(one(i) for i in range(n))))


async def _arena(http: httpx.AsyncClient, served: Served, accounts: list[dict[str, str]]) -> str:
    """An arena starting now that every account joins; its id once the director started it."""
    body = {
        "name": "Bench arena", "starts_at": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
        "minutes": 60, "clock": CLOCK, "format": "arena", "max_players": len(accounts),
    }  # fmt: skip
    admin = {"Authorization": f"Bearer {served.admin_token}"}
    made = await http.post("/api/tournaments", json=body, headers=admin)
    made.raise_for_status()
    tid: str = made.json()["tournament_id"]
    for account in accounts:
        joined = await http.post(
            f"/api/tournaments/{tid}/join", headers={"X-Player-Token": account["player_token"]}
        )
        joined.raise_for_status()
    while (await http.get(f"/api/tournaments/{tid}")).json()["status"] != "running":
        await asyncio.sleep(0.2)  # the director starts it on its next period (2 s)
    return tid


def _you(raw: str) -> dict[str, Any] | None:
    """A tournament frame's own line, its last key (app/push/tournament_room.frame), read alone:
    parsing the whole page on 500 sockets twice a second would be this client's load, not the
    server's. (A `"you":` inside a string of the page is escaped, so the last one is the key.)"""
    at = raw.rfind('"you":')
    try:
        found = json.loads(raw[at + len('"you":') : -1]) if at >= 0 else None
    except ValueError:
        found = json.loads(raw).get("you")
    return found if isinstance(found, dict) else None


async def _next_game(
    ws_base: str, tid: str, token: str, arena: Arena, seen: set[str]
) -> tuple[str, float]:
    """Open the tournament's page (its socket), say who you are, and wait for the frame naming
    a new game; then leave the page, as static/js/tournament.js does (it takes the browser to
    the table), and come back to it after the game (the table's link back)."""
    async with websockets.connect(f"{ws_base}/ws/tournaments/{tid}") as ws:
        await ws.send(json.dumps({"type": "auth", "player_token": token}))
        async for raw in ws:
            arena.frames += 1
            arena.frame_bytes += len(raw)
            text = raw if isinstance(raw, str) else raw.decode()
            playing = (_you(text) or {}).get("playing")
            if playing and playing not in seen:
                seen.add(playing)
                arena.told[playing] = max(time.time(), arena.told.get(playing, 0.0))
                return playing, time.perf_counter()
    raise ConnectionError("the tournament socket closed")


async def _watcher(ws_base: str, tid: str, arena: Arena, delay: float) -> None:
    """A viewer without a seat: the tournament's page open, every push read, until cancelled."""
    await asyncio.sleep(delay)
    async with websockets.connect(f"{ws_base}/ws/tournaments/{tid}") as ws:
        await ws.send(json.dumps({"type": "watch"}))
        async for raw in ws:
            arena.watched += 1
            arena.watched_bytes += len(raw)


async def _play(
    http: httpx.AsyncClient, base: str, arena: Arena, token: str, match_id: str,
    slot: int, think: float, resign_after: int, rng: random.Random,
) -> None:  # fmt: skip
    """Take the seat the director gave and play the match out as bench.load's seats do."""
    got = await http.post(f"/api/matches/{match_id}/seat", headers={"X-Player-Token": token})
    got.raise_for_status()
    seat_token = got.json()["seat_token"]
    stats = arena.stats
    async with websockets.connect(load.ws_url(base, match_id, seat_token)) as ws:
        if slot not in stats.started:  # the warm-up lasts until every player has played
            stats.started.add(slot)
            stats.last_start = time.time()
        sent = arena.sent.setdefault(match_id, {})
        resign = load.resigner(http, match_id, seat_token, resign_after)
        await load.play_seat(ws, think, sent, stats, rng, asyncio.Event(), resign)
    arena.sent.pop(match_id, None)
    stats.finished += 1


async def _entrant(
    http: httpx.AsyncClient, base: str, tid: str, account: dict[str, str], arena: Arena,
    slot: int, args: argparse.Namespace, delay: float,
) -> None:  # fmt: skip
    """One player: on the tournament's page until paired, then at the table playing the game
    it is given, then back on the page, until cancelled."""
    rng = random.Random(slot)
    await asyncio.sleep(delay)  # players arrive over the ramp
    ws_base = base.replace("http", "ws", 1)
    seen: set[str] = set()
    free_since: float | None = time.perf_counter()
    waits = arena.first
    try:
        while True:
            match_id, at = await _next_game(ws_base, tid, account["player_token"], arena, seen)
            assert free_since is not None
            waits.append(max(0.0, at - free_since))
            free_since, waits = None, arena.again
            await _play(
                http, base, arena, account["player_token"], match_id, slot,
                args.think_ms / 1000, args.resign_after, rng,
            )  # fmt: skip
            free_since = time.perf_counter()
    except Exception as err:
        arena.stats.errors += 1
        name = type(err).__name__
        arena.stats.codes[name] = arena.stats.codes.get(name, 0) + 1
    finally:
        if free_since is not None:
            arena.pending += 1


async def _play_arena(
    base: str, tid: str, accounts: list[dict[str, str]], args: argparse.Namespace
) -> Arena:
    arena = Arena()
    began, n = time.time(), len(accounts)
    async with httpx.AsyncClient(base_url=base, limits=HTTP_LIMITS, timeout=30) as http:
        tasks = [
            asyncio.create_task(_entrant(http, base, tid, a, arena, i, args, args.ramp_s * i / n))
            for i, a in enumerate(accounts)
        ]
        ws_base, w = base.replace("http", "ws", 1), max(1, args.watchers)
        tasks += [
            asyncio.create_task(_watcher(ws_base, tid, arena, args.ramp_s * i / w))
            for i in range(args.watchers)
        ]
        await asyncio.wait(tasks, timeout=args.seconds)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    # steady once every player who got a game had started one: a player lost to an error (its
    # seat or socket timing out) would otherwise leave the whole run without a figure
    load.split_steady(arena.stats, began, max(1, len(arena.stats.started)))
    return arena


async def _measured(
    served: Served, phase: Callable[[], Awaitable[Any]]
) -> tuple[Any, dict[str, float]]:
    before = await Usage.now(served)
    got = await phase()
    return got, (await Usage.now(served)).since(before)


def _print_phase(name: str, stats: load.Stats, usage: dict[str, float]) -> None:
    print(f"{name}_actions {stats.actions}")
    print(f"{name}_finished_matches {stats.finished}")
    print(f"{name}_p50_ms {load.pct(stats.latencies, 0.50):.1f}")
    print(f"{name}_p99_ms {load.pct(stats.latencies, 0.99):.1f}")
    ready = stats.all_started_s
    print(f"{name}_all_started_s {'nan' if ready is None else f'{ready:.1f}'}")
    print(f"{name}_errors {stats.errors}")
    for key, value in usage.items():
        print(f"{name}_{key} {value:.1f}")
    for code, count in sorted(stats.codes.items()):
        print(f"{name}_error_{code} {count}")


async def bench(served: Served, args: argparse.Namespace) -> None:
    base = served.base
    async with httpx.AsyncClient(base_url=base, limits=HTTP_LIMITS, timeout=60) as http:
        accounts = await _accounts(http, args.players)
        tid = await _arena(http, served, accounts)
    table = load.Table(clock=CLOCK, resign_after=args.resign_after)
    matches = args.players // 2

    def baseline() -> Awaitable[load.Stats]:
        return load.run(base, table, matches, args.seconds, args.think_ms, args.ramp_s)

    plain, plain_usage = await _measured(served, baseline)
    arena, arena_usage = await _measured(served, lambda: _play_arena(base, tid, accounts, args))
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        played = (await http.get(f"/api/tournaments/{tid}/export")).json()["games"]
    made = {g["match_id"]: datetime.fromisoformat(g["started_at"]).timestamp() for g in played}
    # the game's start is the director's pass that made it: the rest is its push
    pushes = [at - made[m] for m, at in arena.told.items() if m in made]
    print(f"players {args.players}")
    print(f"matches {matches}")
    print(f"think_ms {args.think_ms}")
    print(f"resign_after {args.resign_after}")
    print(f"seconds {args.seconds:.1f}")
    _print_phase("baseline", plain, plain_usage)
    _print_phase("arena", arena.stats, arena_usage)
    print(f"arena_never_played {args.players - len(arena.stats.started)}")
    ratio = load.pct(arena.stats.latencies, 0.99) / load.pct(plain.latencies, 0.99)
    print(f"arena_over_baseline {ratio:.2f}")
    every = arena.first + arena.again
    print(f"pairings {len(every)}")
    groups = {"": every, "first_": arena.first, "again_": arena.again, "push_": pushes}
    for name, waits in groups.items():
        for label, q in (("p50", 0.50), ("p99", 0.99), ("max", 1.0)):
            print(f"pairing_{name}{label}_ms {load.pct(waits, q):.1f}")
    print(f"pairings_pending {arena.pending}")
    print(f"tournament_frames {arena.frames}")
    print(f"tournament_frame_kib_mean {arena.frame_bytes / max(1, arena.frames) / 1024:.1f}")
    print(f"watchers {args.watchers}")
    print(f"watcher_frames {arena.watched}")
    print(f"watcher_frame_kib_mean {arena.watched_bytes / max(1, arena.watched) / 1024:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=60, help="of each phase")
    parser.add_argument("--think-ms", type=int, default=1000)
    parser.add_argument("--ramp-s", type=float, default=10.0, help="players arrive over this")
    parser.add_argument("--resign-after", type=int, default=10, help="actions; 0: play it out")
    parser.add_argument("--watchers", type=int, default=50, help="viewers of the page")
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    args = parser.parse_args()
    print(f"cores {os.cpu_count()}")
    print(f"load1 {os.getloadavg()[0]:.2f}")
    with serving(args.database_url, 2 * args.players) as served:
        asyncio.run(bench(served, args))
    print(f"load1_end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
