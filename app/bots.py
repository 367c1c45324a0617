"""Computer seats in the server: after every change, if a bot seat must decide, it answers after a
short human-like pause, off the event loop, through the same submit path as a person."""

from __future__ import annotations

import asyncio
import logging

from starlette.concurrency import run_in_threadpool

from engine import current_role, legal_actions
from engine.bots import RandomBot
from engine.views import view_for

from .errors import ApiError
from .matches import MatchService
from .realtime import Broadcaster

log = logging.getLogger("watergate.bots")


class BotRunner:
    """At most one bot task per match in this process; the database version check makes a second
    process's duplicate move fail harmlessly."""

    def __init__(self, service: MatchService, broadcaster: Broadcaster, delay_ms: int) -> None:
        self.service = service
        self.broadcaster = broadcaster
        self.delay = delay_ms / 1000
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def poke(self, match_id: str) -> None:
        """Make sure a bot that must decide in this match will do so."""
        task = self._tasks.get(match_id)
        if task is None or task.done():
            self._tasks[match_id] = asyncio.create_task(self._play(match_id))

    async def _play(self, match_id: str) -> None:
        while True:
            info, entry = await run_in_threadpool(self.service.current, match_id)
            role = current_role(entry.state)
            if role is None or info.status != "active" or info.kind(role) != "bot":
                return
            await asyncio.sleep(self.delay)
            state = entry.state
            bot = RandomBot(state.seed ^ (entry.version * 0x9E3779B1))
            action = bot.choose(view_for(state, role), legal_actions(state, role))
            try:
                _, entry = await run_in_threadpool(
                    self.service.submit, match_id, role, action, entry.version
                )
            except ApiError as err:  # another process moved first: look again
                log.info("bot move in %s not taken: %s", match_id, err.code)
                continue
            except Exception:
                log.exception("bot failed in match %s", match_id)
                return
            await self.broadcaster.publish(match_id, entry.version)

    async def resume_all(self) -> None:
        for match_id in await run_in_threadpool(self.service.list_bot_turns):
            self.poke(match_id)

    async def close(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
