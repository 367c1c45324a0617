"""Computer seats in the server: after every change, if a bot seat must decide, it thinks off the
event loop (services/thinking.py) and answers through the same submit path as a person, always
the same pause after the change (R18: how long it takes must not tell what it holds or how many
choices it has)."""

from __future__ import annotations

import asyncio
import logging
import time

from starlette.concurrency import run_in_threadpool

from engine.registry import get_game

from ..config import BOT_PACE_MARGIN_MS
from ..errors import ApiError
from ..logs import REQUEST_ID, new_request_id
from ..persistence import repository as repo
from ..push.changes import Change, MatchChanged, Moved
from ..supervise import supervise
from .access import current
from .core import Core
from .play import Play
from .thinking import Thinking

log = logging.getLogger("watergate.bots")


class BotRunner:
    """At most one bot task per match in this process; the database version check makes a second
    process's duplicate move fail harmlessly. A task that fails (the database away) is retried
    with backoff, so the computer does not stop owing its move."""

    def __init__(self, core: Core, play: Play) -> None:
        self.core, self.play = core, play
        settings = core.settings
        self.delay = settings.bot_delay_ms / 1000
        self.kind = settings.bot_kind
        self.budget_ms = settings.bot_budget_ms
        self.thinking = Thinking(settings.bot_processes, settings.log_format == "json")
        self._closing = asyncio.Event()
        self._poked: set[str] = set()
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def on_change(self, change: Change) -> None:
        """A listener of this process's published changes."""
        if isinstance(change, Moved | MatchChanged):
            self.poke(change.match_id)

    def poke(self, match_id: str) -> None:
        """Make sure a bot that must decide in this match will do so."""
        if self._closing.is_set():
            return
        known = self.core.cache.info(match_id)
        if known is not None and not known.has_bot():
            return  # people only: nothing for a bot to do (the kinds of a match never change)
        self._poked.add(match_id)  # a running task looks again before it stops
        task = self._tasks.get(match_id)
        if task is None or task.done():
            self._tasks[match_id] = supervise(
                f"bot of match {match_id}",
                lambda: self._play(match_id),
                stop=self._closing,
                forever=False,
            )

    def thinking_ms(self, spent: float) -> int:
        """The search budget for a decision seen `spent` seconds ago: what is left of the pause
        once the margin is kept, so that thinking ends before the pause does (R18). Without a
        pause (a delay of 0) the budget is the setting's."""
        if self.delay <= 0:
            return self.budget_ms
        left = int((self.delay - spent) * 1000) - BOT_PACE_MARGIN_MS
        return max(1, min(self.budget_ms, left))

    async def _play(self, match_id: str) -> None:
        while not self._closing.is_set():
            # each decision is a request of its own in the log (the task was started in
            # whichever request woke it, and would carry that one's id)
            REQUEST_ID.set(new_request_id())
            # R18: the pause runs from the moment this task sees the change (right after the
            # push that offers the decision), whatever reading and thinking take meanwhile
            started = time.perf_counter()
            self._poked.discard(match_id)
            found = await run_in_threadpool(current, self.core, match_id)
            if found is None:
                self._tasks.pop(match_id, None)
                return
            info, entry = found
            game = get_game(entry.game)
            seats = game.to_move(entry.state)
            seat = seats[0] if seats else None
            if seat is None or info.status != "active" or info.kind(seat) != "bot":
                if match_id in self._poked:  # the match moved on while we were reading it
                    continue
                self._tasks.pop(match_id, None)
                return
            budget = self.thinking_ms(time.perf_counter() - started)
            thinking = time.perf_counter()
            action = await self.thinking.choose(
                game, entry.state, seat, info.seed, self.kind, budget
            )
            self.core.metrics.thought(self.kind, time.perf_counter() - thinking)
            # the same pause for every answer, a lone pass included (R18)
            late = time.perf_counter() - started - self.delay
            if late > 0 and self.delay > 0:
                log.warning("bot in %s answered %.0f ms after its pace", match_id, late * 1000)
            await asyncio.sleep(max(0.0, -late))
            if self._closing.is_set():
                return
            try:
                await self.play.act(match_id, seat, game.action_to_json(action), entry.version)
            except ApiError as err:  # another process moved first: look again
                log.info("bot move in %s not taken: %s", match_id, err.code)
                continue

    async def resume_all(self) -> None:
        for match_id in await run_in_threadpool(self._bot_matches):
            self.poke(match_id)

    def _bot_matches(self) -> list[str]:
        with self.core.db.reader() as db:
            return repo.bot_matches_active(db)

    async def close(self) -> None:
        """Let bot work already in a worker thread finish (it holds a database connection), then
        stop: cancelling the task would not stop the thread."""
        self._closing.set()
        pending = [t for t in self._tasks.values() if not t.done()]
        if pending:
            _, late = await asyncio.wait(pending, timeout=5)
            for task in late:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
        await self.thinking.close()
