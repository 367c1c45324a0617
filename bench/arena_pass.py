"""One arena pass of the tournament director (issue 46, "Scale"), timed inside the process.

    python -m bench.arena_pass [--players 500] [--batch 10] [--database-url postgresql://…]

Makes a fresh database (a SQLite file in a temporary folder unless `--database-url`, which is
migrated and written to), N players joined to a running arena, all free and each with the page
open on a socket of this process (fakes the tournament room pushes to as to real ones), then
runs one pass of the director (`Director.tick`, as its period does) on this process's event
loop, without a server: what it measures is the pass and the pushes it causes. `--batch` sets
the games a write transaction (`tournament_director.BATCH`, where the build has it).
Printed, one `name value` a line: `games` seated, `pass_ms` (the whole tick), `per_game_ms`;
`first_told_ms`, `told_p50_ms` and `last_told_ms`, from the tick's start to the first, the
median and the last game's MatchChanged being published; `heard_first_ms`, `heard_p50_ms`,
`heard_p99_ms` and `heard_last_ms`, to the first frame naming their game on the players'
sockets (the pairing latency of bench.tournament without the wait for the pass; `unheard`:
paired players none reached within 30 s); and the director's write transactions that seated
them: `txns`, `txn_p50_ms`, `txn_max_ms` (how long one holds the writer from everyone's moves).
Quote ratios against another build run alike: the machine is shared.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

from app.__main__ import migrate
from app.auth import new_player_id
from app.clocks import SystemClock
from app.config import Settings
from app.metrics import Metrics
from app.persistence import tournaments as repo
from app.persistence.models import Player
from app.persistence.tournament_tables import Tournament
from app.push.changes import Change, MatchChanged
from app.push.tournament_room import TournamentSocket
from app.services import tournament_director
from app.services.context import AppContext

ADMIN_TOKEN = "bench-admin-token-" + "x" * 16
SETTLE_S = 30.0  # the longest this waits for every paired player's socket to hear


class Heard(TournamentSocket):
    """A player's tournament socket that notes when a frame first names its game."""

    def __init__(self, tournament_id: str, player_id: str, heard: dict[str, float]) -> None:
        self.tournament_id, self.player_id, self.heard = tournament_id, player_id, heard
        self.player = player_id
        self.address = "bench"
        self.lock = asyncio.Lock()

    async def send_text(self, text: str) -> None:
        you = json.loads(text).get("you") or {}
        if you.get("playing") and self.player not in self.heard:
            self.heard[self.player] = time.perf_counter()


def _arena(ctx: AppContext, n: int) -> list[str]:
    """A running arena of N joined players: its id, then theirs."""
    now = ctx.core.stamp()
    tid = "benchpass" + new_player_id()[:8]
    ids = [tid]
    with ctx.core.db.write() as db:
        repo.add(
            db,
            Tournament(
                id=tid, name="Bench pass", game="watergate", format="arena", clock="realtime-15",
                players_per_game=2, rated=False, starts_at=now, minutes=60, max_players=n,
                status="running", paused=False, round=0, created_at=now, started_at=now,
                ends_at=now + timedelta(minutes=60),
            ),
        )  # fmt: skip
        for i in range(n):
            player = new_player_id()
            ids.append(player)
            db.add(Player(id=player, name=f"p{i:04d}", created_at=now))
            db.flush()
            repo.add_entrant(db, tid, player, 1500.0 + i % 97, now)
            repo.set_present(db, tid, player, True, None)
    return ids


async def _pass(ctx: AppContext, tid: str, players: list[str]) -> dict[str, float]:
    director = ctx.director
    heard: dict[str, float] = {}
    # every player's page open on this process (added directly: the room's caps are per address)
    ctx.tournament_room.by_tournament[tid] = {Heard(tid, p, heard) for p in players}
    told: list[float] = []
    txns: list[float] = []
    seat = director._seat

    def timed(*args: Any) -> Any:
        began = time.perf_counter()
        try:
            return seat(*args)
        finally:
            txns.append(time.perf_counter() - began)

    def listen(change: Change) -> None:
        if isinstance(change, MatchChanged):
            told.append(time.perf_counter())

    setattr(director, "_seat", timed)  # noqa: B010 (this instance's, timed)
    ctx.core.listeners.append(listen)
    began = time.perf_counter()
    done = await director.tick()
    took = time.perf_counter() - began
    games = len(done.matches)
    for _ in range(int(SETTLE_S * 10)):
        if len(heard) >= 2 * games:
            break
        await asyncio.sleep(0.1)
    ears = sorted(heard.values())
    return {
        "games": games,
        "pass_ms": took * 1000,
        "per_game_ms": took * 1000 / max(games, 1),
        "first_told_ms": (told[0] - began) * 1000 if told else 0.0,
        "last_told_ms": (told[-1] - began) * 1000 if told else 0.0,
        "told_p50_ms": (statistics.median(told) - began) * 1000 if told else 0.0,
        "heard_first_ms": (ears[0] - began) * 1000 if ears else 0.0,
        "heard_p50_ms": (statistics.median(ears) - began) * 1000 if ears else 0.0,
        "heard_p99_ms": (ears[int(0.99 * (len(ears) - 1))] - began) * 1000 if ears else 0.0,
        "heard_last_ms": (ears[-1] - began) * 1000 if ears else 0.0,
        "unheard": 2 * games - len(heard),
        "txns": len(txns),
        "txn_p50_ms": statistics.median(txns) * 1000 if txns else 0.0,
        "txn_max_ms": max(txns) * 1000 if txns else 0.0,
    }


async def _main(url: str, players: int) -> dict[str, float]:
    migrate(url)
    settings = Settings(database_url=url, admin_token=ADMIN_TOKEN)
    ctx = await AppContext.start(settings, SystemClock(), Metrics())
    try:
        tid, *ids = await asyncio.to_thread(_arena, ctx, players)
        return await _pass(ctx, tid, ids)
    finally:
        await ctx.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--batch", type=int, default=0, help="games a transaction (0: as built)")
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    if args.batch and hasattr(tournament_director, "BATCH"):
        tournament_director.BATCH = args.batch
    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'pass.db'}"
        figures = asyncio.run(_main(url, args.players))
    for name, value in figures.items():
        print(name, round(value, 1) if isinstance(value, float) else value)


if __name__ == "__main__":
    main()
