"""Where the computer thinks: in worker processes of its own (BOT_PROCESSES), so that a search,
which holds the interpreter for its whole budget, never takes the event loop from the people
playing; with BOT_PROCESSES=0, in this process's worker threads as before."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from starlette.concurrency import run_in_threadpool

from engine.registry import AnyGame, get_game

from ..workers import worker_pool

log = logging.getLogger("watergate.bots")


def choose_move(
    game: AnyGame,
    state: Any,
    seat: str,
    seed: int,
    kind: str,
    budget_ms: int,
    clock: Callable[[], float] = time.perf_counter,
) -> Any:
    """The bot's move from its seat's observation only, thinking for `budget_ms` on `clock`; a
    crashing bot falls back to the next (the chosen one first, then the game's weaker bots in
    its order)."""
    legal = game.legal_actions(state, seat)
    observation = game.observation_for(state, seat)
    version = game.version(state)
    # the bot's own generator: drawn from the secret seed by a one-way hash, so even a bot whose
    # every choice were visible would tell nothing about the deal's seed
    seed = int.from_bytes(hashlib.sha256(f"bot/{seed}/{version}".encode()).digest()[:8]) >> 1
    names = game.bot_names
    # BOT_KIND names a bot of some game; a game without it plays its strongest
    chain = names[names.index(kind) :] if kind in names else names
    for name in chain:
        bot = game.make_bot(name, seed, budget_ms, clock)
        started = clock()
        try:
            action = bot.decide(observation, seat, legal)
        except Exception:
            log.exception("%s bot failed at version %d; falling back", name, version)
            continue
        if action in legal:
            spent = clock() - started
            if spent > 3 * budget_ms / 1000:
                log.warning("%s bot took %.0f ms at version %d", name, spent * 1000, version)
            return action
        log.error("%s bot chose an action that is not legal; falling back", name)
    return legal[0]


def _in_worker(
    game_id: str, state: Any, seat: str, seed: int, kind: str, budget_ms: int, answer_by: float
) -> Any:
    """choose_move in a worker process, with the budget cut to what is left when the job
    starts: a job that waited in the queue still answers by `answer_by` (time.monotonic is
    one clock for every process of the machine), so the pace holds under load (R18)."""
    left_ms = int((answer_by - time.monotonic()) * 1000)
    return choose_move(get_game(game_id), state, seat, seed, kind, max(1, min(budget_ms, left_ms)))


class Thinking:
    """The computer's thinking for this app: a pool of worker processes made at first use and
    made again if a worker dies (a decision under way then is thought in a thread instead)."""

    def __init__(self, processes: int, json_logs: bool = False) -> None:
        self.processes, self.json_logs = processes, json_logs
        self._pool: ProcessPoolExecutor | None = None

    async def choose(
        self,
        game: AnyGame,
        state: Any,
        seat: str,
        seed: int,
        kind: str,
        budget_ms: int,
        clock: Callable[[], float] = time.perf_counter,
    ) -> Any:
        """The bot's move; in a worker process it thinks on that process's own clock."""
        if self.processes <= 0:
            return await run_in_threadpool(
                choose_move, game, state, seat, seed, kind, budget_ms, clock
            )
        answer_by = time.monotonic() + budget_ms / 1000
        args = (game.id, state, seat, seed, kind, budget_ms, answer_by)
        try:
            return await asyncio.get_running_loop().run_in_executor(
                self._ready(), _in_worker, *args
            )
        except BrokenProcessPool:
            log.error("a bot worker process died; starting new ones")
            self._drop()
            left = max(1, int((answer_by - time.monotonic()) * 1000))
            return await run_in_threadpool(choose_move, game, state, seat, seed, kind, left)

    def _ready(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = worker_pool(self.processes, self.json_logs)
        return self._pool

    def worker_pids(self) -> list[int]:
        """The worker processes alive now (the admin's health, tests)."""
        pool = self._pool
        return [] if pool is None else [p.pid for p in pool._processes.values() if p.pid]

    def _drop(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def close(self) -> None:
        """Stop the workers; a decision under way is abandoned (its match's bot is retried by
        whichever process serves it next)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.get_running_loop().run_in_executor(
                None, lambda: pool.shutdown(wait=True, cancel_futures=True)
            )
