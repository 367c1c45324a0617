"""Readiness: whether this process can serve now, asked of the database and, when configured, of
Redis and the fan-out's subscription. Each check is bounded, so a probe is answered in time."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import anyio.to_thread

from ..persistence import repository as repo
from ..persistence.db import Database
from ..push.fanout import Fanout

CHECK_SECONDS = 2.0  # a probe's answer within this long, even when a dependency hangs
log = logging.getLogger("watergate.health")


@dataclass(frozen=True, slots=True)
class Readiness:
    """What answered; `redis` and `subscribed` are None without REDIS_URL."""

    database: bool
    redis: bool | None
    subscribed: bool | None

    def problem(self) -> str | None:
        """None when ready, else what is missing, in words for the operator."""
        if not self.database:
            return "The database does not answer, or refuses writes."
        if self.redis is False:
            return "Redis does not answer."
        if self.subscribed is False:
            return "The fan-out is not subscribed to Redis yet."
        return None


async def readiness(db: Database, fanout: Fanout) -> Readiness:
    """Both dependencies asked at once, so a hanging one costs CHECK_SECONDS, not twice that."""
    database, redis = await asyncio.gather(_database_answers(db), _redis_answers(fanout))
    subscribed = None if fanout.redis is None else fanout.listening
    return Readiness(database, redis, subscribed)


async def not_ready(db: Database, fanout: Fanout) -> str | None:
    """None when ready, else what is missing, in words for the operator."""
    return (await readiness(db, fanout)).problem()


async def _database_answers(db: Database) -> bool:
    try:
        # abandon_on_cancel: a database that hangs keeps a worker thread, not the probe
        await asyncio.wait_for(
            anyio.to_thread.run_sync(_ping, db, abandon_on_cancel=True), CHECK_SECONDS
        )
    except Exception as err:
        what = type(err).__name__
        log.warning("not ready: the database does not answer or refuses writes (%s)", what)
        return False
    return True


async def _redis_answers(fanout: Fanout) -> bool | None:
    if fanout.redis is None:
        return None
    try:
        await asyncio.wait_for(fanout.redis.ping(), CHECK_SECONDS)
    except Exception as err:
        log.warning("not ready: Redis does not answer (%s)", type(err).__name__)
        return False
    return True


def _ping(db: Database) -> None:
    """The database answers and takes writes (a read-only SQLite file answered every read and
    refused every write while this said ready: issue 40, finding 15)."""
    with db.reader() as session:
        repo.ping(session)
    with db.write_probe() as session:
        repo.try_write(session)
