"""Computer seats in the server: after every change, if a bot seat must decide, it answers after a
short human-like pause, off the event loop, through the same submit path as a person."""

from __future__ import annotations

import asyncio
import logging
import time

from starlette.concurrency import run_in_threadpool

from engine.watergate import Action, MatchState, Role, current_role, legal_actions
from engine.watergate.bots import Bot, HeuristicBot, RandomBot
from engine.watergate.bots.search import SearchBot
from engine.watergate.observation import observation_for

from .clock import Clock
from .errors import ApiError
from .matches import MatchService
from .realtime import Broadcaster

log = logging.getLogger("watergate.bots")


def _bots(kind: str, seed: int, budget_ms: int) -> list[tuple[str, Bot]]:
    """The chosen bot first, then the fallbacks: heuristic, then random."""
    chain: list[tuple[str, Bot]] = []
    if kind == "search":
        chain.append(("search", SearchBot(seed, budget_ms=budget_ms, clock=time.perf_counter)))
    if kind in ("search", "heuristic"):
        chain.append(("heuristic", HeuristicBot(seed)))
    chain.append(("random", RandomBot(seed)))
    return chain


def choose_move(state: MatchState, role: Role, kind: str, budget_ms: int) -> Action:
    """The bot's move from its seat's observation only; a crashing bot falls back to the next."""
    legal = legal_actions(state, role)
    observation = observation_for(state, role)
    seed = (state.seed * 31 + state.version) & ((1 << 63) - 1)
    for name, bot in _bots(kind, seed, budget_ms):
        started = time.perf_counter()
        try:
            action = bot.decide(observation, role, legal)
        except Exception:
            log.exception("%s bot failed at version %d; falling back", name, state.version)
            continue
        if action in legal:
            spent = time.perf_counter() - started
            if spent > 3 * budget_ms / 1000:
                log.warning("%s bot took %.0f ms at version %d", name, spent * 1000, state.version)
            return action
        log.error("%s bot chose an action that is not legal; falling back", name)
    return legal[0]


class BotRunner:
    """At most one bot task per match in this process; the database version check makes a second
    process's duplicate move fail harmlessly."""

    def __init__(
        self,
        service: MatchService,
        broadcaster: Broadcaster,
        delay_ms: int,
        kind: str,
        budget_ms: int,
        clock: Clock,
    ) -> None:
        self.service = service
        self.broadcaster = broadcaster
        self.delay = delay_ms / 1000
        self.kind = kind
        self.budget_ms = budget_ms
        self._closing = False
        self.clock = clock
        self._poked: set[str] = set()
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def poke(self, match_id: str) -> None:
        """Make sure a bot that must decide in this match will do so."""
        if self._closing:
            return
        known = self.service.known_info(match_id)
        if known is not None and "bot" not in (known.editor_kind, known.nixon_kind):
            return  # two people: nothing for a bot to do (the kinds of a match never change)
        self._poked.add(match_id)  # a running task looks again before it stops
        task = self._tasks.get(match_id)
        if task is None or task.done():
            self._tasks[match_id] = asyncio.create_task(self._play(match_id))

    async def _play(self, match_id: str) -> None:
        while not self._closing:
            self._poked.discard(match_id)
            info, entry = await run_in_threadpool(self.service.current, match_id)
            role = current_role(entry.state)
            if role is None or info.status != "active" or info.kind(role) != "bot":
                if match_id in self._poked:  # the match moved on while we were reading it
                    continue
                self._tasks.pop(match_id, None)
                return
            started = time.perf_counter()
            action = await run_in_threadpool(
                choose_move, entry.state, role, self.kind, self.budget_ms
            )
            # a human-like pause, counting the thinking time already spent
            await asyncio.sleep(max(0.0, self.delay - (time.perf_counter() - started)))
            if self._closing:
                return
            try:
                _, entry = await run_in_threadpool(
                    self.service.submit, match_id, role, action, entry.version, self.clock.now()
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
        """Let bot work already in a worker thread finish (it holds a database connection), then
        stop: cancelling the task would not stop the thread."""
        self._closing = True
        pending = [t for t in self._tasks.values() if not t.done()]
        if pending:
            _, late = await asyncio.wait(pending, timeout=5)
            for task in late:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
