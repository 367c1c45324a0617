"""Post-game analysis (contract v1.1): computed once per finished match, off the event loop."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, Final

from starlette.concurrency import run_in_threadpool

from engine.core.game import Analysable, Judged
from engine.registry import get_game

from ..errors import ApiError
from ..games import configured
from ..persistence.analyses import get_analysis, put_analysis, wire
from ..push.changes import Change, MatchChanged, Moved
from ..supervise import supervise
from ..workers import worker_pool
from . import exports
from .access import seat_for
from .core import Core
from .fairqueue import AskerFull, FairQueue

log = logging.getLogger("watergate.analysis")
FINISHED: Final = "finished"  # ended by the rules: an abandoned match was not played out


def analysable(game_id: str) -> bool:
    """Whether the game offers post-game analysis (engine.core.game.Analysable)."""
    return isinstance(get_game(game_id), Analysable)


def analyse_match(
    game_id: str,
    seed: int,
    rules_version: str,
    actions: Sequence[tuple[Any, ...]],
    options: Mapping[str, Any] | None = None,
) -> list[Judged]:
    """The whole match's judged decisions (run in a worker): the match is replayed from its seed
    (by the game object its options configure: a table's seat count and difficulties) and each
    decision judged from its mover's observation only."""
    game = configured(game_id, options or {})
    if not isinstance(game, Analysable):  # (requests for such a game were refused already)
        raise ValueError(f"no analysis for {game_id}")
    return game.analyse(seed, rules_version, [(seq, role, a) for seq, role, a, *_ in actions])


class Analyses:
    """One analysis at a time per process, in a worker process of its own (BOT_PROCESSES=0: a
    thread), so a long analysis never delays the computer's paced moves in the bots' pool."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self._queue = FairQueue()
        self._ready = asyncio.Event()  # something was queued
        self.running: str | None = None
        self._stop = asyncio.Event()
        self._pool: Executor | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = supervise("analysis worker", self._work, stop=self._stop)

    def on_change(self, change: Change) -> None:
        """A listener of this process's changes: a match just finished is analysed at once."""
        if isinstance(change, Moved | MatchChanged):
            info = self.core.cache.info(change.match_id)
            finished = info is not None and info.status == FINISHED and analysable(info.game)
            if finished and change.match_id != self.running:
                self._queue.offer(change.match_id)
                self._ready.set()

    def status(self, match_id: str) -> str | None:
        if match_id == self.running:
            return "running"
        return "queued" if match_id in self._queue else None

    async def analysis(
        self, token: str | None, match_id: str, address: str = ""
    ) -> tuple[int, dict[str, Any]]:
        """200 and the seat's own judged moves, or 202 while they are being computed. Who asks
        (the seat's player, else the address it asks from) takes turns with the other askers."""

        def read() -> tuple[str, str | None, list[Judged] | None]:
            seat = seat_for(self.core, token, match_id)
            match = exports.stored(self.core.db, match_id, ended=True)
            if match.status != FINISHED:
                raise ApiError(409, "analysis_unavailable", "Only a match played out is analysed.")
            if not analysable(match.game):
                raise ApiError(409, "analysis_unavailable", "This game has no analysis yet.")
            player = next(s.player_id for s in match.seats if s.name == seat)
            with self.core.db.reader() as db:
                return seat, player, get_analysis(db, match_id)

        seat, player, moves = await run_in_threadpool(read)
        if moves is not None:
            return 200, {
                "role": seat,
                "information": "observation",
                "moves": [wire(m) for m in moves if m.seat == seat],
            }
        if match_id != self.running:
            try:
                self._queue.ask(f"player:{player}" if player else f"address:{address}", match_id)
            except AskerFull:
                raise ApiError(
                    429, "analyses_waiting", "Your other analyses come first; ask again later."
                ) from None
            self._ready.set()
        return 202, {"status": self.status(match_id) or "queued"}

    async def _work(self) -> None:
        while not self._stop.is_set():
            match_id = self._queue.take()
            if match_id is None:
                self._ready.clear()
                await self._ready.wait()
                continue
            self.running = match_id
            try:
                await self._one(match_id)
            finally:
                self.running = None

    async def _one(self, match_id: str) -> None:
        match = await run_in_threadpool(self._unanalysed, match_id)
        if match is None:
            return
        args = (match.game, match.seed, match.rules_version, list(match.actions), match.options)
        loop = asyncio.get_running_loop()
        try:
            moves = await loop.run_in_executor(self._executor(), analyse_match, *args)
        except Exception:
            log.exception("analysis of %s failed; it is tried again on the next request", match_id)
            self._drop()
            return
        await run_in_threadpool(self._save, match_id, moves)
        log.info("analysed %s: %d decisions", match_id, len(moves))

    def _unanalysed(self, match_id: str) -> exports.Stored | None:
        with self.core.db.reader() as db:
            if get_analysis(db, match_id) is not None:
                return None
        return exports.stored(self.core.db, match_id, ended=True)

    def _save(self, match_id: str, moves: list[Judged]) -> None:
        with self.core.db.write() as db:
            put_analysis(db, match_id, moves)

    def _executor(self) -> Executor:
        if self._pool is None:
            if self.core.settings.bot_processes <= 0:
                self._pool = ThreadPoolExecutor(1, thread_name_prefix="analysis")
            else:  # a worker process that ends with this server (app.workers)
                self._pool = worker_pool(1, self.core.settings.log_format == "json")
        return self._pool

    def _drop(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        """Stop: the job under way is abandoned (its worker ended), computed again on request."""
        self._stop.set()
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        pool = self._pool
        if isinstance(pool, ProcessPoolExecutor):
            for process in list(pool._processes.values()):
                process.terminate()  # a job under way cannot be cancelled otherwise
        self._drop()
