"""Computer seats in the server: after every change, if a bot seat must decide, it thinks off the
event loop (services/thinking.py) and answers through the same submit path as a person, always
the same pause after the change (R18: how long it takes must not tell what it holds or how many
choices it has)."""

from __future__ import annotations

import asyncio
import logging
import time
from functools import partial
from typing import Any

from starlette.concurrency import run_in_threadpool

from engine.registry import AnyGame, get_game

from ..errors import ApiError
from ..lessons import lesson_of, lesson_path
from ..logs import REQUEST_ID, new_request_id
from ..persistence import repository as repo
from ..push.changes import Change, MatchChanged, Moved
from ..supervise import supervise
from .access import current
from .core import Core
from .pace import Clock, Pace, Sleep, paced
from .play import Play
from .thinking import Thinking

log = logging.getLogger("watergate.bots")


async def _known(action: Any, budget: int) -> Any:
    return action


def scripted_move(game_id: str, options: dict[str, Any], state: Any, seat: str) -> Any:
    """The lesson's move for the computer's seat while a tutorial match is on its path."""
    lesson = lesson_of(options)
    return None if lesson is None else lesson_path(game_id, lesson).next_move(state, seat)


class BotRunner:
    """At most one bot task per match in this process; the database version check makes a second
    process's duplicate move fail harmlessly. A task that fails (the database away) is retried
    with backoff, so the computer does not stop owing its move."""

    def __init__(
        self, core: Core, play: Play, clock: Clock = time.perf_counter, sleep: Sleep = asyncio.sleep
    ) -> None:
        self.core, self.play = core, play
        settings = core.settings
        self.pace = Pace(settings.bot_delay_ms / 1000, settings.bot_budget_ms)
        self.kind = settings.bot_kind
        self.clock, self.sleep = clock, sleep
        self.thinking = Thinking(settings.bot_processes, settings.log_format == "json")
        self._closing = asyncio.Event()
        self._poked: dict[str, float] = {}  # match -> when (self.clock) its last change came
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
            return  # people only: nothing for a bot to do (a table's leaver drops these facts)
        self._poked[match_id] = self.clock()  # a running task looks again before it stops
        task = self._tasks.get(match_id)
        if task is None or task.done():
            self._tasks[match_id] = supervise(
                f"bot of match {match_id}",
                lambda: self._play(match_id),
                stop=self._closing,
                forever=False,
            )

    async def _play(self, match_id: str) -> None:
        while not self._closing.is_set():
            # each decision is a request of its own in the log (the task was started in
            # whichever request woke it, and would carry that one's id)
            REQUEST_ID.set(new_request_id())
            # R18: the pause runs from the moment this task sees the change (right after the
            # push that offers the decision), whatever reading and thinking take meanwhile
            started = self.clock()
            self._poked.pop(match_id, None)
            found = await run_in_threadpool(current, self.core, match_id)
            if found is None:
                self._tasks.pop(match_id, None)
                return
            # a change that came while reading may be the one that offers this decision (the
            # person answered the computer's last move at once): the pause runs from it, never
            # from before it
            started = max(started, self._poked.get(match_id, started))
            info, entry = found
            game = get_game(entry.game)
            seats = game.to_move(entry.state)
            seat = seats[0] if seats else None
            if seat is None or info.status != "active" or info.kind(seat) != "bot":
                if match_id in self._poked:  # the match moved on while we were reading it
                    continue
                self._tasks.pop(match_id, None)
                return
            scripted = scripted_move(entry.game, info.options, entry.state, seat)
            kind = self.kind
            if kind == "level":  # a game without levels plays its strongest bot
                level = info.bot_level(seat)
                kind = level if level in game.bot_names else game.bot_names[0]
            think = partial(self._think, game, entry.state, seat, info.seed, kind)
            if scripted is not None:  # a tutorial on its path: the lesson's move, same pace
                think = partial(_known, game.parse_action(scripted))
            # the same pause for every answer, a lone pass included (R18)
            action, late = await paced(self.pace, started, self.clock, self.sleep, think)
            if late > 0 and self.pace.delay > 0:
                log.warning("bot in %s answered %.0f ms after its pace", match_id, late * 1000)
            if self._closing.is_set():
                return
            try:
                await self.play.act(match_id, seat, game.action_to_json(action), entry.version)
            except ApiError as err:  # another process moved first: look again
                log.info("bot move in %s not taken: %s", match_id, err.code)
                continue

    async def _think(
        self, game: AnyGame, state: Any, seat: str, seed: int, kind: str, budget: int
    ) -> Any:
        thinking = self.clock()
        action = await self.thinking.choose(game, state, seat, seed, kind, budget, self.clock)
        self.core.metrics.thought(kind, self.clock() - thinking)
        return action

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
