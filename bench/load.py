"""Load on a running server: N concurrent matches, two websocket clients each, random legal play.

    python -m bench.load --base http://127.0.0.1:8000 --matches 200 --seconds 60 \
        [--think-ms 1000] [--ramp-s 5] [--game watergate] [--players 2] [--with-echo] \
        [--hostile 1000] [--bots 60] [--procs 2] [--flood 40 --flood-kind mixed]

Latency is measured from sending an action to the first push of the new version to another
socket of the match. `--players N` seats N people at every table (Nations 2-5, contract v1.2):
each match then has N sockets, one a seat, all pushed every change.
Prints `actions_per_second`, `p50_ms`, `p99_ms`, `errors` (and counts), one `name value` a line.
The percentiles are of the steady state, once every match has started (both its seats' sockets
open), which `all_started_s` says, in seconds from the start: at least `--ramp-s`, later when the
server falls behind while the matches are being created; `warmup_p99_ms` is the same figure while
players were still arriving.
`--bots N` adds N people playing the computer at once whenever they may (not counted in the
percentiles: the computer's thinking is load the pairs must not feel). `--procs N` splits the
clients over N processes (for runs whose client alone would fill a core).
`steal_pct` is the share of the machine's CPU time the hypervisor gave to other guests meanwhile
(bench.machine): on a shared virtual machine a tail measured at a high steal is the neighbours'.
`--with-echo` then drives the bare websocket relay of bench.echo with the same number of pairs,
think time and duration, and prints its figures and `p99_over_echo` (the goal is at most 3).
`--hostile N` adds N clients that, while the matches play, keep opening spectator sockets on the
matches' spectator keys, wait for the first frame and close them again; the percentiles stay
those of the honest seats, and `hostile_connects` / `refused_sockets` count the churn (a socket
refused at the handshake, or answered with an error frame before its close). The hostile
clients run in processes of their own (`--hostile-procs`, default 1), as an attacker's would:
sharing the honest clients' event loop, their handshakes would delay the honest clients' reading
of their pushes and the tail would be the measuring client's, not the server's. Run the server
with RATE_LIMITS=off.
`--flood N` (issue 40) adds N sockets that send messages as fast as they can: `ping` floods
lobby sockets (which need no token) with pings, `action` floods a seat socket of the flooder's
own match (made during the warm-up) with illegal actions, `mixed` (default) does both, half each;
a window's sockets arrive over its first second. Each flooding socket
reads what it is sent, and when the server closes it, opens another at once (after
`--flood-reconnect-ms`). Flooders run in a process of their own at the lowest priority (their CPU
is the attacker's, not the server's), each socket from its own loopback address (127.0.2.x,
the attacker's machines). After the ramp and 5 s, the rest of the run is cut into quiet and
flooded windows that alternate, `--flood-cycles` of each (default 1: the first half quiet, the
second flooded; more cycles spread a shared machine's background load over both alike), each
flooded window from new addresses. The honest figures are then printed for both:
`quiet_p99_ms`, `flood_p99_ms` and `flood_over_quiet` (the goal is at most 1.5), with the
longest answers of a probe
that asks for `/healthz`, the lobby list and a new match four times a second
(`quiet_healthz_max_ms`, `flood_healthz_max_ms`, ...), and what the flood did: `flood_messages`
sent, `flood_closed_4429` sockets closed for flooding, `flood_refused` connects refused.
`--signin-flood N` (issue 40, finding 3) plays the honest matches twice, `--seconds` each: quiet,
then beside N clients (in a process of their own, at a lower CPU priority: an attacker's CPU is
not the server's) signing in to one account with wrong
passwords as fast as they are answered; a prober creates a match twice a second and reads the
server's memory from /metrics in both. It prints `quiet_p99_ms`, `flood_p99_ms` and
`flood_over_quiet` (the goal is at most 1.5), the creations' p99, the server's largest resident
memory, and how the sign-ins were answered (`signin_401`, `signin_503`, ...). Run the server with
RATE_LIMITS=off, or the flood is mostly 429s.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing
import os
import random
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

from . import echo
from .machine import CpuTimes, steal_percent

DEFAULT_GAME = "watergate"


@dataclass(frozen=True)
class Table:
    """What every match of a run is: its game, how many people sit at it, its clock, and how
    long its seats play (bench.tournament compares its arena's games with matches like them)."""

    game: str = DEFAULT_GAME
    players: int = 2
    clock: str = "none"  # the creation's clock choice, e.g. "realtime-15" (an arena's)
    resign_after: int = 0  # a seat resigns after this many actions of its own (0: never)


@dataclass(frozen=True)
class Resign:
    """A seat that resigns (`call`) once it has made `after` actions: short games, so that a run
    plays many of them (an arena pairs again whenever one ends)."""

    after: int
    call: Callable[[], Awaitable[object]]


def resigner(http: httpx.AsyncClient, match_id: str, token: str, after: int) -> Resign | None:
    """The seat `token`'s resignation after `after` actions (None when `after` is 0)."""
    if not after:
        return None

    async def call() -> object:
        # both seats may reach `after`: the second resignation is refused, the game is over
        headers = {"Authorization": f"Bearer {token}"}
        return await http.post(f"/api/matches/{match_id}/resign", headers=headers)

    return Resign(after, call)


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # after the warm-up
    steady: list[tuple[float, float]] = field(default_factory=list)  # the same, with their times
    warmup: list[float] = field(default_factory=list)  # while players were still arriving
    # (when the push came: epoch seconds, its latency), split into the two above at the end
    samples: list[tuple[float, float]] = field(default_factory=list)
    slots: int = 0  # the matches this part plays at once (none in a hostile part)
    started: set[int] = field(default_factory=set)  # slots with a match's sockets open once
    last_start: float = 0.0  # when the last of them opened (epoch seconds)
    all_started_s: float | None = None  # seconds from the start until every match had started
    actions: int = 0
    errors: int = 0
    finished: int = 0
    codes: dict[str, int] = field(default_factory=dict)
    spectate: dict[str, None] = field(default_factory=dict)  # the matches' spectator paths
    hostile_connects: int = 0
    bot_matches: int = 0  # finished against the computer
    refused_sockets: int = 0
    # (epoch seconds, what, seconds): the probe's answers, split by the flood's start at the end
    probes: list[tuple[float, str, float]] = field(default_factory=list)
    flood_messages: int = 0  # messages the flooders sent
    flood_connects: int = 0
    flood_closed: int = 0  # flooding sockets the server closed 4429
    flood_refused: int = 0  # flooding connects refused (a handshake or a first frame)
    shared: Any = None  # a Manager list: the spectator paths honest parts found, for hostile ones


def ws_url(base: str, match_id: str, token: str) -> str:
    """A seat's socket asking for log tails, as the browser does (v1.1): each push carries only
    the new log entries, not the whole log again."""
    path = f"/ws/matches/{match_id}?token={token}&log=tail"
    return base.replace("http", "ws", 1).rstrip("/") + path


async def play_seat(
    ws: Any,
    think: float,
    sent: dict[int, float],
    stats: Stats,
    rng: random.Random,
    done: asyncio.Event,
    resign: Resign | None = None,
) -> None:
    """Answer every view that offers this seat a choice; time the opponent's pushes."""
    mine = 0  # actions this seat sent
    async for raw in ws:
        msg = json.loads(raw)
        if msg.get("type") == "error":
            if msg.get("code") != "stale_version":
                stats.errors += 1
                stats.codes[msg.get("code", "?")] = stats.codes.get(msg.get("code", "?"), 0) + 1
            continue
        if msg.get("type") != "view":
            continue
        version = msg["version"]
        if msg.get("spectate_path") and msg["spectate_path"] not in stats.spectate:
            stats.spectate.setdefault(msg["spectate_path"])
            if stats.shared is not None:
                stats.shared.append(msg["spectate_path"])
        started = sent.pop(version, None)
        if started is not None:
            stats.samples.append((time.time(), time.perf_counter() - started))
        if msg["status"] == "finished":
            done.set()
            return
        legal = msg["legal_actions"]
        if not legal:
            continue
        if think:
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        if resign is not None and mine >= resign.after:
            await resign.call()  # the finished view that follows ends the loop
            resign = None
            continue
        mine += 1
        sent[version + 1] = time.perf_counter()
        await ws.send(
            json.dumps({"type": "action", "action": rng.choice(legal), "expected_version": version})
        )
        stats.actions += 1


async def _one_match(
    http: httpx.AsyncClient,
    base: str,
    table: Table,
    think: float,
    stats: Stats,
    rng: random.Random,
    slot: int,
) -> None:
    created = (await http.post("/api/matches", json=_new_match(table, "human"))).json()
    links = created.get("invites") or {"": created["invite_url"]}  # (v1 servers: one link)
    tokens = [created["seat_token"]]
    for link in links.values():
        code = link.rsplit("/", 1)[1]
        tokens.append((await http.post(f"/api/invites/{code}/claim")).json()["seat_token"])
    sent: dict[int, float] = {}
    done = asyncio.Event()
    async with contextlib.AsyncExitStack() as stack:
        sockets = [
            await stack.enter_async_context(
                websockets.connect(ws_url(base, created["match_id"], token))
            )
            for token in tokens
        ]
        if slot not in stats.started:  # the warm-up lasts until every slot has started one
            stats.started.add(slot)
            stats.last_start = time.time()
        match_id, after = created["match_id"], table.resign_after
        tasks = [
            asyncio.create_task(
                play_seat(ws, think, sent, stats, rng, done, resigner(http, match_id, token, after))
            )
            for ws, token in zip(sockets, tokens, strict=True)
        ]
        try:
            await done.wait()
            stats.finished += 1
        finally:  # the deadline cancels us mid-match: stop both seats before the sockets close
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


def _new_match(table: Table, opponent: str) -> dict[str, Any]:
    """The body that creates a match of `table` (v1 servers know one game and no "game" field,
    v1.1 servers no "players")."""
    body: dict[str, Any] = {"role": "random", "opponent": opponent}
    if table.game != DEFAULT_GAME:
        body["game"] = table.game
    if table.players != 2:
        body["players"] = table.players
    if table.clock != "none":
        body["clock"] = table.clock
    return body


async def _bot_match(base: str, table: Table, stats: Stats, deadline: float, seed: int) -> None:
    """A person against the computer, playing at once whenever it may, until the deadline: the
    computer's thinking is load the honest pairs must not feel (their latencies are not
    counted)."""
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        while time.perf_counter() < deadline:
            made = (await http.post("/api/matches", json=_new_match(table, "bot"))).json()
            async with websockets.connect(ws_url(base, made["match_id"], made["seat_token"])) as ws:
                try:
                    await asyncio.wait_for(
                        play_seat(ws, 0, {}, Stats(), rng, asyncio.Event()),
                        timeout=max(0.1, deadline - time.perf_counter()),
                    )
                except TimeoutError:
                    return
            stats.bot_matches += 1


async def _slot(
    http: httpx.AsyncClient,
    base: str,
    table: Table,
    think: float,
    stats: Stats,
    deadline: float,
    seed: int,
    delay: float,
) -> None:
    rng = random.Random(seed)
    await asyncio.sleep(delay)  # players arrive over the ramp, not all in the same millisecond
    while time.perf_counter() < deadline:
        try:
            await asyncio.wait_for(
                _one_match(http, base, table, think, stats, rng, seed),
                timeout=max(0.1, deadline - time.perf_counter()),
            )
        except TimeoutError:
            return
        except Exception as err:
            stats.errors += 1
            name = type(err).__name__
            stats.codes[name] = stats.codes.get(name, 0) + 1


async def _learn_paths(stats: Stats, deadline: float) -> None:
    """In a hostile part: the spectator paths the honest parts found, picked up twice a second."""
    while time.perf_counter() < deadline:
        for path in list(stats.shared):
            stats.spectate.setdefault(path)
        await asyncio.sleep(0.5)


async def _hostile(base: str, stats: Stats, deadline: float, seed: int) -> None:
    """Churn spectator sockets on the honest matches until the deadline."""
    rng = random.Random(seed)
    ws_base = base.replace("http", "ws", 1).rstrip("/")
    paths: list[str] = []
    while time.perf_counter() < deadline:
        if len(paths) != len(stats.spectate):
            paths = list(stats.spectate)
        if not paths:
            await asyncio.sleep(0.1)  # no match has started yet
            continue
        path = rng.choice(paths).replace("/watch/", "/ws/watch/", 1)
        stats.hostile_connects += 1
        try:
            async with websockets.connect(ws_base + path, open_timeout=10) as ws:
                first = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
                if first.get("type") == "error":  # refused after the handshake, then closed
                    stats.refused_sockets += 1
        except websockets.ConnectionClosed as closed:
            if closed.rcvd is not None and closed.rcvd.code == 4429:
                stats.refused_sockets += 1
        except (websockets.InvalidStatus, OSError, TimeoutError):
            stats.refused_sockets += 1


async def run(
    base: str,
    table: Table,
    matches: int,
    seconds: float,
    think_ms: int,
    ramp_s: float,
    part: tuple[int, int] = (0, 1),
    bots: int = 0,
    shared: Any = None,
    probe: bool = False,
) -> Stats:
    """Part k of n plays the matches k, k + n, k + 2n… and that share of the bot matches, so n
    processes together play exactly what one would; it puts the spectator paths it finds in
    `shared` (for the hostile parts) when given."""
    k, n = part
    stats = Stats(shared=shared)
    began, deadline = time.time(), time.perf_counter() + seconds
    limits = httpx.Limits(max_connections=100)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30) as http:
        await asyncio.gather(
            *(
                _slot(http, base, table, think_ms / 1000, stats, deadline, i, ramp_s * i / matches)
                for i in range(k, matches, n)
            ),
            *(_bot_match(base, table, stats, deadline, 20_000 + i) for i in range(k, bots, n)),
            *([_probe(base, stats, deadline)] if probe and k == 0 else []),
        )
    split_steady(stats, began, len(range(k, matches, n)))
    return stats


PROBE_EVERY_S = 0.25
PROBES = (
    ("healthz", "GET", "/healthz"),
    ("lobby", "GET", "/api/lobby"),
    ("create", "POST", "/api/matches"),
)


async def _probe(base: str, stats: Stats, deadline: float) -> None:
    """What a visitor does besides playing, timed four times a second: the liveness check, the
    lobby list and creating a match (against a friend: no computer thinks for it)."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        while time.perf_counter() < deadline:
            for name, method, path in PROBES:
                at, began = time.time(), time.perf_counter()
                body = {"opponent": "human"} if method == "POST" else None
                try:
                    (await http.request(method, path, json=body)).raise_for_status()
                except httpx.HTTPError:
                    stats.errors += 1
                    stats.codes[f"probe_{name}"] = stats.codes.get(f"probe_{name}", 0) + 1
                    continue
                stats.probes.append((at, name, time.perf_counter() - began))
            await asyncio.sleep(PROBE_EVERY_S)


def split_steady(stats: Stats, began: float, slots: int) -> None:
    """The steady state starts once every match has started (both seats' sockets open): with a
    server that falls behind while the matches are being created, later than the ramp's end, and
    pushes measured before then belong to the warm-up. No steady state if some never started."""
    stats.slots = slots
    if len(stats.started) >= slots:
        stats.all_started_s = stats.last_start - began
    steady_from = stats.last_start if stats.all_started_s is not None else math.inf
    stats.steady = [(at, lat) for at, lat in stats.samples if at >= steady_from]
    stats.latencies = [lat for _, lat in stats.steady]
    stats.warmup = [lat for at, lat in stats.samples if at < steady_from]


async def run_hostile(
    base: str, seconds: float, hostile: int, part: tuple[int, int], shared: Any
) -> Stats:
    """Part k of n of the hostile clients, on the spectator paths the honest parts put in
    `shared`."""
    k, n = part
    stats = Stats(shared=shared)
    deadline = time.perf_counter() + seconds
    await asyncio.gather(
        _learn_paths(stats, deadline),
        *(_hostile(base, stats, deadline, 10_000 + i) for i in range(k, hostile, n)),
    )
    return stats


FLOOD_NICENESS = 19
WARM_S = 5.0  # after the ramp, before the first window: every match has started by then
# a flooded window's sockets arrive over this long, as the honest players arrive over the ramp:
# 40 handshakes in the same millisecond cost the server as much as 40 players arriving so
FLOOD_RAMP_S = 1.0


def _flood_address(i: int) -> str:
    """The flooders' own loopback addresses, one per socket and window: 127.0.2.1, …"""
    return f"127.0.{2 + i // 250}.{1 + i % 250}"


def _windows(args: argparse.Namespace, began: float) -> list[tuple[float, float, bool]]:
    """(start, end, flooded) in epoch seconds: after the warm-up, quiet and flooded windows of
    equal length alternate, `--flood-cycles` of each, so both meet the same background load."""
    start = began + args.ramp_s + WARM_S
    span = (began + args.seconds - start) / (2 * args.flood_cycles)
    return [
        (start + k * span, start + (k + 1) * span, k % 2 == 1) for k in range(2 * args.flood_cycles)
    ]


def _phase(windows: list[tuple[float, float, bool]], at: float) -> bool | None:
    """Whether epoch second `at` was flooded (None: in no window)."""
    return next((flooded for start, end, flooded in windows if start <= at < end), None)


async def _own_match(base: str, i: int) -> dict[str, Any]:
    """A match of flooder `i`'s, made from its address (its seat socket floods actions)."""
    transport = httpx.AsyncHTTPTransport(local_address=_flood_address(i))
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as http:
        made: dict[str, Any] = (await http.post("/api/matches", json={"opponent": "human"})).json()
    return made


async def _flood_socket(
    base: str,
    made: dict[str, Any] | None,
    stats: Stats,
    deadline: float,
    i: int,
    reconnect_s: float,
) -> None:
    """One flooding socket, again and again until the deadline (epoch seconds): a lobby socket
    sending pings, or (given its match) a seat socket of the flooder's own match sending actions
    no rule allows, as fast as it can, reading whatever it is sent."""
    address = _flood_address(i)
    ws_base = base.replace("http", "ws", 1).rstrip("/")
    path, message = "/ws/lobby", json.dumps({"type": "ping"})
    await asyncio.sleep(FLOOD_RAMP_S * random.random())
    if made is not None:
        if "seat_token" not in made:
            stats.flood_refused += 1
            return
        path = f"/ws/matches/{made['match_id']}?token={made['seat_token']}"
        illegal = {"type": "play_card", "card": "no such card"}
        message = json.dumps({"type": "action", "action": illegal, "expected_version": 0})
    while time.time() < deadline:
        stats.flood_connects += 1
        try:
            async with websockets.connect(
                ws_base + path, open_timeout=10, local_addr=(address, 0), max_queue=None
            ) as ws:
                reader = asyncio.create_task(_drain(ws))
                try:
                    while time.time() < deadline:
                        await ws.send(message)
                        stats.flood_messages += 1
                        await asyncio.sleep(0)  # its reader learns of a close at once
                finally:
                    reader.cancel()
        except websockets.ConnectionClosed as closed:
            if closed.rcvd is not None and closed.rcvd.code == 4429:
                stats.flood_closed += 1
        except (websockets.InvalidStatus, OSError, TimeoutError):
            stats.flood_refused += 1
        await asyncio.sleep(reconnect_s)


async def _drain(ws: Any) -> None:
    with contextlib.suppress(websockets.ConnectionClosed):
        async for _ in ws:
            pass


async def run_flood(
    base: str, windows: list[tuple[float, float, bool]], flood: int, kind: str, reconnect_s: float
) -> Stats:
    """The flooding sockets, in each flooded window, from addresses of their own each time. The
    action flooders' matches are made first, one at a time, during the warm-up: 20 matches
    made in the same instant hold the server for a second by themselves, and what is measured
    here is the messages (a creation's cost is the probe's `create`)."""
    stats = Stats()
    kinds = ["ping", "action"] if kind == "mixed" else [kind]
    flooded = [w for w in windows if w[2]]
    matches: dict[int, dict[str, Any]] = {}
    for n in range(len(flooded)):
        for i in range(flood):
            if kinds[i % len(kinds)] == "action":
                matches[n * flood + i] = await _own_match(base, n * flood + i)
    for n, (start, end, _) in enumerate(flooded):
        await asyncio.sleep(max(0.0, start - time.time()))
        tasks = [
            asyncio.create_task(
                _flood_socket(
                    base, matches.get(n * flood + i), stats, end, n * flood + i, reconnect_s
                )
            )
            for i in range(flood)
        ]
        await asyncio.wait(tasks, timeout=max(0.0, end - time.time()))
        for task in tasks:  # a send still waiting on a full connection ends with the window
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return stats


def _run_flood_part(args: argparse.Namespace, windows: list[tuple[float, float, bool]]) -> Stats:
    # An attacker's CPU is not the server's: on one machine the flooders take only what the server
    # and the honest clients leave, so the figures are the server's, not a core shared with them.
    os.nice(FLOOD_NICENESS)
    reconnect_s = args.flood_reconnect_ms / 1000
    return asyncio.run(run_flood(args.base, windows, args.flood, args.flood_kind, reconnect_s))


def _run_part(args: argparse.Namespace, k: int, shared: Any = None) -> Stats:
    return asyncio.run(
        run(
            args.base, Table(args.game, args.players), args.matches, args.seconds,
            args.think_ms, args.ramp_s,
            (k, args.procs), args.bots, shared, probe=bool(args.flood),
        )
    )  # fmt: skip


def _run_hostile_part(args: argparse.Namespace, k: int, shared: Any) -> Stats:
    return asyncio.run(
        run_hostile(args.base, args.seconds, args.hostile, (k, args.hostile_procs), shared)
    )


def _play(args: argparse.Namespace, windows: list[tuple[float, float, bool]]) -> Stats:
    """Every part, each in a process of its own when there is more than one."""
    if args.procs == 1 and not args.hostile and not args.flood:
        return _run_part(args, 0)
    with multiprocessing.Manager() as manager:
        shared = manager.list() if args.hostile else None
        hostile_parts = args.hostile_procs if args.hostile else 0
        flood_parts = 1 if args.flood else 0
        with ProcessPoolExecutor(args.procs + hostile_parts + flood_parts) as pool:
            futures = [pool.submit(_run_part, args, k, shared) for k in range(args.procs)]
            futures += [
                pool.submit(_run_hostile_part, args, k, shared) for k in range(hostile_parts)
            ]
            if flood_parts:
                futures.append(pool.submit(_run_flood_part, args, windows))
            return _merged([f.result() for f in futures])


def _merged(parts: list[Stats]) -> Stats:
    total = Stats()
    for part in parts:
        total.latencies += part.latencies
        total.steady += part.steady
        total.warmup += part.warmup
        total.probes += part.probes
        total.flood_messages += part.flood_messages
        total.flood_connects += part.flood_connects
        total.flood_closed += part.flood_closed
        total.flood_refused += part.flood_refused
        total.actions += part.actions
        total.errors += part.errors
        total.finished += part.finished
        total.hostile_connects += part.hostile_connects
        total.refused_sockets += part.refused_sockets
        total.bot_matches += part.bot_matches
        for code, count in part.codes.items():
            total.codes[code] = total.codes.get(code, 0) + count
    starts = [part.all_started_s for part in parts if part.slots]
    known = [start for start in starts if start is not None]
    total.all_started_s = max(known) if known and len(known) == len(starts) else None
    return total


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def _print_flood(
    args: argparse.Namespace, stats: Stats, windows: list[tuple[float, float, bool]]
) -> None:
    """The honest figures without and with the flood, and what the flood did."""
    quiet = [lat for at, lat in stats.steady if _phase(windows, at) is False]
    flooded = [lat for at, lat in stats.steady if _phase(windows, at)]
    print(f"flood_sockets {args.flood}")
    print(f"flood_kind {args.flood_kind}")
    print(f"quiet_pushes {len(quiet)}")
    print(f"flood_pushes {len(flooded)}")
    print(f"quiet_p50_ms {pct(quiet, 0.50):.1f}")
    print(f"quiet_p99_ms {pct(quiet, 0.99):.1f}")
    print(f"flood_p50_ms {pct(flooded, 0.50):.1f}")
    print(f"flood_p99_ms {pct(flooded, 0.99):.1f}")
    print(f"flood_over_quiet {pct(flooded, 0.99) / pct(quiet, 0.99):.2f}")
    for name in ("healthz", "lobby", "create"):
        for phase, inside in (("quiet", False), ("flood", True)):
            took = [t for at, w, t in stats.probes if w == name and _phase(windows, at) is inside]
            print(f"{phase}_{name}_max_ms {max(took, default=math.nan) * 1000:.1f}")
    print(f"flood_connects {stats.flood_connects}")
    print(f"flood_messages {stats.flood_messages}")
    print(f"flood_closed_4429 {stats.flood_closed}")
    print(f"flood_refused {stats.flood_refused}")


# ---- --signin-flood: honest play beside a flood of wrong sign-ins (issue 40, finding 3) -------

FLOOD_USER = "flood-target"
FLOOD_PASSWORD = "the flood never guesses this"


@dataclass
class Probe:
    creates: list[float] = field(default_factory=list)  # seconds a POST /api/matches took
    rss: list[float] = field(default_factory=list)  # the server's resident memory, bytes
    signins: dict[str, int] = field(default_factory=dict)  # answers by status


async def _signin_probe(base: str, seconds: float) -> Probe:
    """A match created twice a second, timed; the server's memory read from /metrics."""
    probe = Probe()
    deadline = time.perf_counter() + seconds
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            made = await http.post("/api/matches", json={"opponent": "human"})
            if made.status_code == 201:
                probe.creates.append(time.perf_counter() - started)
            metrics = await http.get("/metrics")
            for line in metrics.text.splitlines():
                if line.startswith("process_resident_memory_bytes "):
                    probe.rss.append(float(line.split()[1]))
            await asyncio.sleep(max(0.0, 0.5 - (time.perf_counter() - started)))
    return probe


async def _flood(base: str, seconds: float, clients: int) -> Probe:
    """`clients` sign-ins at a time with a wrong password, each again once answered."""
    probe = Probe()
    deadline = time.perf_counter() + seconds
    limits = httpx.Limits(max_connections=clients)

    async def one(http: httpx.AsyncClient, k: int) -> None:
        tries = 0
        while time.perf_counter() < deadline:
            tries += 1
            body = {"username": FLOOD_USER, "password": f"wrong guess {k} {tries}"}
            try:
                answer = await http.post("/api/accounts/login", json=body)
                key = str(answer.status_code)
            except httpx.HTTPError as err:
                key = type(err).__name__
            probe.signins[key] = probe.signins.get(key, 0) + 1

    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as http:
        await asyncio.gather(*(one(http, k) for k in range(clients)))
    return probe


def _run_probe(base: str, seconds: float, clients: int) -> Probe:
    """In a process of its own: the prober, and the flood with `clients` > 0. That process runs
    at a lower CPU priority: an attacker's CPU is not the server's, and on one machine the
    flood's own client work would otherwise delay the honest clients' reading of their pushes
    (the tail would be the measuring client's, not the server's)."""
    os.nice(10)

    async def both() -> Probe:
        flooding = [_flood(base, seconds, clients)] if clients else []
        probe, *flood = await asyncio.gather(_signin_probe(base, seconds), *flooding)
        if flood:
            probe.signins = flood[0].signins
        return probe

    return asyncio.run(both())


def signin_bench(args: argparse.Namespace) -> None:
    """Honest play quiet, then beside the flood; the figures of both, one `name value` a line."""
    body = {"username": FLOOD_USER, "password": FLOOD_PASSWORD}
    made = httpx.post(args.base + "/api/accounts", json=body)
    assert made.status_code in (201, 409), made.text  # 409: made by an earlier run
    phases: dict[str, tuple[Stats, Probe]] = {}
    steal: dict[str, float] = {}
    for phase, clients in (("quiet", 0), ("flood", args.signin_flood)):
        cpu = CpuTimes.now()
        with ProcessPoolExecutor(1) as pool:
            probing = pool.submit(_run_probe, args.base, args.seconds, clients)
            stats = _play(args, [])  # (no message-flood windows in a sign-in run)
            phases[phase] = (stats, probing.result())
        steal[phase] = steal_percent(cpu, CpuTimes.now())
    print(f"matches {args.matches}")
    print(f"think_ms {args.think_ms}")
    print(f"signin_flood_clients {args.signin_flood}")
    for phase, (stats, probe) in phases.items():
        print(f"{phase}_actions {stats.actions}")
        print(f"{phase}_p50_ms {pct(stats.latencies, 0.50):.1f}")
        print(f"{phase}_p99_ms {pct(stats.latencies, 0.99):.1f}")
        print(f"{phase}_errors {stats.errors}")
        print(f"{phase}_create_p50_ms {pct(probe.creates, 0.50):.1f}")
        print(f"{phase}_create_p99_ms {pct(probe.creates, 0.99):.1f}")
        print(f"{phase}_server_rss_mb {max(probe.rss, default=math.nan) / 2**20:.0f}")
        print(f"{phase}_steal_pct {steal[phase]:.1f}")
    for status, count in sorted(phases["flood"][1].signins.items()):
        print(f"signin_{status} {count}")
    quiet, flood = (pct(phases[phase][0].latencies, 0.99) for phase in ("quiet", "flood"))
    print(f"flood_over_quiet {flood / quiet:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base", default="http://127.0.0.1:8000")
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--think-ms", type=int, default=1000)
    parser.add_argument("--ramp-s", type=float, default=5.0, help="spread the first matches")
    parser.add_argument("--game", default=DEFAULT_GAME)
    parser.add_argument("--players", type=int, default=2, help="people at every table (v1.2)")
    parser.add_argument("--with-echo", action="store_true", help="also measure the echo floor")
    parser.add_argument("--echo-port", type=int, default=8099)
    parser.add_argument("--hostile", type=int, default=0, help="spectator-socket churners")
    parser.add_argument("--procs", type=int, default=1, help="client processes sharing the load")
    parser.add_argument("--hostile-procs", type=int, default=1, help="processes of hostile clients")
    parser.add_argument("--bots", type=int, default=0, help="extra matches against the computer")
    parser.add_argument("--flood", type=int, default=0, help="sockets flooding with messages")
    parser.add_argument("--flood-kind", choices=("mixed", "ping", "action"), default="mixed")
    parser.add_argument("--flood-cycles", type=int, default=1, help="quiet and flooded windows")
    parser.add_argument("--flood-reconnect-ms", type=int, default=0, help="a closed flooder waits")
    parser.add_argument("--signin-flood", type=int, default=0, help="wrong sign-ins at a time")
    args = parser.parse_args()
    if args.signin_flood:
        signin_bench(args)
        return
    started, cpu = time.perf_counter(), CpuTimes.now()
    windows = _windows(args, time.time())
    stats = _play(args, windows)
    elapsed, steal = time.perf_counter() - started, steal_percent(cpu, CpuTimes.now())
    print(f"matches {args.matches}")
    print(f"players {args.players}")
    print(f"think_ms {args.think_ms}")
    print(f"seconds {elapsed:.1f}")
    print(f"finished_matches {stats.finished}")
    print(f"actions {stats.actions}")
    print(f"actions_per_second {stats.actions / elapsed:.1f}")
    print(f"p50_ms {pct(stats.latencies, 0.50):.1f}")
    print(f"p99_ms {pct(stats.latencies, 0.99):.1f}")
    print(f"p999_ms {pct(stats.latencies, 0.999):.1f}")
    print(f"warmup_p99_ms {pct(stats.warmup, 0.99):.1f}")
    ready = stats.all_started_s
    print(f"all_started_s {'nan' if ready is None else f'{ready:.1f}'}")
    print(f"errors {stats.errors}")
    print(f"steal_pct {steal:.1f}")
    if args.hostile:
        print(f"hostile_clients {args.hostile}")
        print(f"hostile_connects {stats.hostile_connects}")
        print(f"refused_sockets {stats.refused_sockets}")
    if args.flood:
        _print_flood(args, stats, windows)
    if args.bots:
        print(f"bot_matches {args.bots}")
        print(f"bot_matches_finished {stats.bot_matches}")
    for code, count in sorted(stats.codes.items()):
        print(f"error_{code} {count}")
    if args.with_echo:
        cpu = CpuTimes.now()
        floor = echo.measure(args.matches, args.seconds, args.think_ms, args.echo_port)
        print(f"echo_steal_pct {steal_percent(cpu, CpuTimes.now()):.1f}")
        print(f"echo_p50_ms {floor.p50_ms:.1f}")
        print(f"echo_p99_ms {floor.p99_ms:.1f}")
        print(f"p99_over_echo {pct(stats.latencies, 0.99) / floor.p99_ms:.1f}")


if __name__ == "__main__":
    main()
