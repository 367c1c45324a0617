"""The supervisor of background tasks (sweeper, fan-out listener, presence heartbeat, bots): a job
that fails is logged under its name (with the traceback once per outage) and run again, with a
delay that doubles up to its cap; a forever-job that ends by itself is restarted; cancelling or
the stop event ends it at once.

Waits are on events the jobs set, each bounded by a deadline."""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

import pytest

from app.supervise import every, finish, supervise

T = TypeVar("T")
DEADLINE = 5.0


def run(main: Callable[[], Awaitable[T]]) -> T:
    async def bounded() -> T:
        return await asyncio.wait_for(main(), DEADLINE)

    return asyncio.run(bounded())


def test_a_failing_job_is_logged_by_name_and_retried_with_growing_delays(
    caplog: pytest.LogCaptureFixture,
) -> None:
    starts: list[float] = []

    async def main() -> None:
        done = asyncio.Event()

        async def job() -> None:
            starts.append(time.monotonic())
            if len(starts) < 4:
                raise ConnectionError("Redis is away")
            done.set()
            await asyncio.Event().wait()  # healthy now: runs until stopped

        task = supervise("fan-out listener", job, first_delay=0.02, max_delay=0.08)
        await done.wait()
        await finish(task)
        assert task.cancelled()

    with caplog.at_level(logging.WARNING, logger="watergate.supervise"):
        run(main)
    failures = [r for r in caplog.records if "fan-out listener failed" in r.getMessage()]
    assert len(failures) == 3
    assert failures[0].exc_info and failures[0].levelno == logging.ERROR  # the traceback once
    assert all("Redis is away" in r.getMessage() for r in failures[1:])  # then one line each
    gaps = [later - earlier for earlier, later in itertools.pairwise(starts)]
    assert gaps[0] >= 0.02 and gaps[1] >= 0.04 and gaps[2] >= 0.08  # doubling, up to the cap


def test_a_forever_job_that_returns_is_restarted_and_a_finite_one_is_done(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def main() -> tuple[int, int]:
        runs = {"forever": 0, "once": 0}
        again = asyncio.Event()

        async def forever() -> None:
            runs["forever"] += 1
            if runs["forever"] == 2:
                again.set()

        async def once() -> None:
            runs["once"] += 1

        loop = supervise("heartbeat", forever, first_delay=0.01)
        single = supervise("bot of match m1", once, forever=False, first_delay=0.01)
        await again.wait()
        await single
        await finish(loop)
        return runs["forever"], runs["once"]

    with caplog.at_level(logging.ERROR, logger="watergate.supervise"):
        forever_runs, single_runs = run(main)
    assert forever_runs >= 2 and single_runs == 1
    assert any("heartbeat ended by itself" in r.getMessage() for r in caplog.records)


def test_the_stop_event_ends_a_backoff_at_once_and_finish_waits_for_the_job() -> None:
    async def main() -> None:
        stop = asyncio.Event()
        failed, finished = asyncio.Event(), asyncio.Event()

        async def job() -> None:
            failed.set()
            raise OSError("database away")

        task = supervise("sweeper", job, stop=stop, first_delay=60, max_delay=60)
        await failed.wait()  # now in a minute's backoff
        stop.set()
        await asyncio.wait_for(task, 1.0)  # ends well before the minute

        started = asyncio.Event()

        async def slow() -> None:
            started.set()
            await asyncio.sleep(0.05)  # a sweep under way, which shutdown lets finish
            finished.set()

        stop = asyncio.Event()
        task = supervise("sweeper", slow, stop=stop, forever=False)
        await started.wait()
        stop.set()
        await finish(task, grace=2.0)
        assert finished.is_set() and not task.cancelled()

    run(main)


def test_every_runs_its_job_each_period_survives_a_failure_and_stops_on_the_event() -> None:
    """The periodic-job helper the sweeps share: a failed run does not end the job (the
    supervisor starts the loop again), and setting the stop event ends it between runs."""

    async def scenario() -> list[str]:
        stop = asyncio.Event()
        third = asyncio.Event()
        runs: list[str] = []

        async def job() -> int:
            runs.append("run")
            if len(runs) == 2:
                raise RuntimeError("the database is away")
            if len(runs) == 3:
                third.set()
            return len(runs)

        task = every("probe", 0.001, job, stop)
        await asyncio.wait_for(third.wait(), 10)
        stop.set()
        await finish(task, grace=10)
        return runs

    runs = asyncio.run(scenario())
    assert len(runs) >= 3  # the failed second run was followed by a third
