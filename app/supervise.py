"""Supervised background tasks: a named job run again, after a capped backoff, whenever it fails."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("watergate.supervise")

Job = Callable[[], Awaitable[None]]
Periodic = Callable[[], Awaitable[object]]  # a periodic job's result, if any, is not used
FIRST_DELAY = 0.5  # seconds before the first restart
MAX_DELAY = 10.0  # the cap: a dependency that comes back is used again within this long


def supervise(
    name: str,
    job: Job,
    *,
    stop: asyncio.Event | None = None,
    forever: bool = True,
    first_delay: float = FIRST_DELAY,
    max_delay: float = MAX_DELAY,
) -> asyncio.Task[None]:
    """Run `job()` in a task named `name`, again and again: a failure is logged with the name and
    retried after a delay that doubles from `first_delay` up to `max_delay` (back to the first
    after a run that lasted `max_delay`). A `forever` job that returns is restarted as well, since
    it should never end by itself; otherwise returning means its work is done. The task ends when
    it is cancelled or once `stop` is set (a backoff under way is cut short)."""
    return asyncio.create_task(_run(name, job, stop, forever, first_delay, max_delay), name=name)


def every(
    name: str, seconds: float, job: Periodic, stop: asyncio.Event, *, first: bool = False
) -> asyncio.Task[None]:
    """A supervised periodic job: `job()` every `seconds` until `stop` is set (at once first
    too, with `first`). A failed run is logged and the loop started again after the
    supervisor's backoff; a run under way when `stop` is set is left to finish (`finish` with a
    grace waits for it), since its worker thread would go on using the database."""

    async def loop() -> None:
        if first and not stop.is_set():
            await job()
        while not stop.is_set():
            try:
                await asyncio.wait_for(stop.wait(), seconds)
                return
            except TimeoutError:
                pass
            await job()

    return supervise(name, loop, stop=stop)


async def finish(task: asyncio.Task[Any] | None, grace: float = 0.0) -> None:
    """Give the task `grace` seconds to end by itself (after its stop event was set), then cancel
    it; return once it has ended, whatever it ended with."""
    if task is None or task.done():
        return
    if grace > 0:
        await asyncio.wait([task], timeout=grace)
    if not task.done():
        task.cancel()
        await asyncio.wait([task])


async def _run(
    name: str, job: Job, stop: asyncio.Event | None, forever: bool, first: float, cap: float
) -> None:
    delay, failing = first, False
    while not _stopping(stop):
        started = time.monotonic()
        try:
            await job()
        except Exception as err:
            if _cancelled():  # a library turned our cancellation into an error of its own
                raise asyncio.CancelledError from None
            if time.monotonic() - started >= cap:
                delay, failing = first, False  # it ran well for a while: a new failure
            if failing:  # the same outage again: one line, not a traceback every few seconds
                log.warning("%s failed again (%r); restarting in %.1f s", name, err, delay)
            else:
                log.exception("%s failed; restarting in %.1f s", name, delay)
            failing = True
        else:
            if not forever or _stopping(stop):
                return
            log.error("%s ended by itself; restarting in %.1f s", name, delay)
        await _pause(delay, stop)
        delay = min(delay * 2, cap)


def _stopping(stop: asyncio.Event | None) -> bool:
    return stop is not None and stop.is_set()


def _cancelled() -> bool:
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


async def _pause(delay: float, stop: asyncio.Event | None) -> None:
    if stop is None:
        await asyncio.sleep(delay)
        return
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), delay)
