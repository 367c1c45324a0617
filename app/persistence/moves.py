"""The one transaction that changes a match, on the driver's own connection: the repository's
statements compiled once for the database in use, with the column types' own conversions applied
by hand. A move is then three statements and a commit, without SQLAlchemy's execution machinery
around each (which measured about 1 ms of a move's 2 ms of CPU); a resignation, a time-out, an
abandonment, a leaver's replacement and an admin's abort run here too, with the rating of a match
that ends (written against `Sql`). Errors come out as SQLAlchemy's exception types."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import fields
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Engine
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

from . import repository as repo
from . import seating
from .db import SQLITE_BUSY_MS
from .models import utcnow
from .records import Ending, MatchRow

Processor = Callable[[Any], Any] | None


class Compiled:
    """One statement as SQL text for the driver, with a conversion per parameter and column."""

    def __init__(
        self,
        stmt: ClauseElement,
        dialect: Dialect,
        column_keys: Sequence[str] = (),
        results: Sequence[Any] = (),
    ) -> None:
        compiled = cast(
            SQLCompiler, stmt.compile(dialect=dialect, column_keys=list(column_keys) or None)
        )
        self.sql = str(compiled)
        self.order = tuple(compiled.positiontup) if compiled.positiontup else None
        self.binds: dict[str, Processor] = {
            name: param.type.dialect_impl(dialect).bind_processor(dialect)
            for name, param in compiled.binds.items()
        }
        self.results: list[Processor] = [
            column.type.dialect_impl(dialect).result_processor(dialect, None) for column in results
        ]

    def params(self, values: dict[str, Any]) -> tuple[Any, ...] | dict[str, Any]:
        converted = {
            name: (proc(values[name]) if proc is not None else values[name])
            for name, proc in self.binds.items()
        }
        if self.order is None:  # named or pyformat parameters (PostgreSQL)
            return converted
        return tuple(converted[name] for name in self.order)  # qmark (SQLite)

    def row(self, raw: Sequence[Any]) -> list[Any]:
        if not self.results:  # as the driver gives them
            return list(raw)
        return [v if proc is None else proc(v) for proc, v in zip(self.results, raw, strict=True)]


class Busy(Exception):
    """The move cannot start without waiting: another writer holds the database."""


class Moves:
    """Transactions for the move path, on the writer engine's pooled connections."""

    def __init__(self, engine: Engine, lock: threading.Lock | None) -> None:
        self.engine, self._lock = engine, lock
        dialect = engine.dialect
        self.sqlite = dialect.name == "sqlite"
        self.dbapi_error: type[Exception] = dialect.loaded_dbapi.Error
        table = repo.MATCHES
        self.locked_row = Compiled(
            repo.ROW_LOCKED, dialect, results=[table.c[f.name] for f in fields(MatchRow)]
        )
        action_columns = ("match_id", "seq", "role", "action", "created_at")
        self.add_action = Compiled(repo.ADD_ACTION, dialect, column_keys=action_columns)
        self.advance = Compiled(repo.ADVANCE, dialect)
        self.finish = Compiled(repo.FINISH, dialect)
        self.dialect = dialect
        self._compiled: dict[tuple[object, tuple[str, ...]], Compiled] = {}
        self._compiling = threading.Lock()

    def compiled(self, stmt: ClauseElement, keys: tuple[str, ...]) -> Compiled:
        """Any other statement (rating a match that ends here), compiled on its first use: the
        statements are module constants, so this holds a handful. Their results come as the
        driver gives them (ids, names and numbers need no conversion; SQLAlchemy's float
        processors for psycopg want the driver's type codes, which a compiled statement lacks)."""
        key = (stmt, keys)
        found = self._compiled.get(key)
        if found is None:
            found = Compiled(stmt, self.dialect, column_keys=keys)
            with self._compiling:
                self._compiled[key] = found
        return found

    @property
    def can_move_now(self) -> bool:
        """Whether a move may be tried on the calling (event-loop) thread: on SQLite, where a
        move is well under a millisecond of local work and handing it to a worker thread cost
        half a millisecond more; never on a database across the network."""
        return self.sqlite

    @contextmanager
    def transaction(self, *, wait: bool = True) -> Iterator[MoveTransaction]:
        """One write transaction; committed when the block ends, rolled back if it raises.
        With wait=False it raises Busy at once rather than wait for the database."""
        lock = self._lock
        if lock is not None and not lock.acquire(blocking=wait):
            raise Busy
        try:
            raw = self._connect()
            try:
                tx = MoveTransaction(self, raw.cursor())
                if self.sqlite:  # (the pool's connections are in autocommit: we begin ourselves)
                    tx.begin_immediate(wait)
                yield tx
                tx.guard(raw.commit)
            except BaseException:
                try:
                    raw.rollback()
                except self.dbapi_error:  # the connection broke: the pool must not reuse it
                    raw.invalidate()
                raise
            finally:
                raw.close()  # back to the pool
        finally:
            if lock is not None:
                lock.release()

    def _connect(self) -> Any:
        try:
            return self.engine.raw_connection()
        except self.dbapi_error as err:  # the database is away: as SQLAlchemy itself would say
            raise DBAPIError.instance(
                "connect", (), err, self.dbapi_error, hide_parameters=True
            ) from None


def _keys(stmt: ClauseElement, params: dict[str, Any]) -> tuple[str, ...]:
    """The columns an INSERT gives values for; none for other statements (an UPDATE sets what
    its own values() name: a parameter named like a column would set that column too)."""
    return tuple(sorted(params)) if getattr(stmt, "is_insert", False) else ()


class MoveTransaction:
    def __init__(self, moves: Moves, cursor: Any) -> None:
        self.moves, self.cursor = moves, cursor

    def guard(self, call: Callable[[], object], sql: str = "COMMIT", params: Any = ()) -> None:
        try:
            call()
        except self.moves.dbapi_error as err:
            raise DBAPIError.instance(
                sql, params, err, self.moves.dbapi_error, hide_parameters=True
            ) from None

    def begin_immediate(self, wait: bool) -> None:
        """SQLite's write lock; without waiting for another process that holds it (Busy)."""
        if wait:
            self.run("BEGIN IMMEDIATE", ())
            return
        self.run("PRAGMA busy_timeout = 0", ())
        try:
            self.cursor.execute("BEGIN IMMEDIATE")
        except self.moves.dbapi_error:
            raise Busy from None
        finally:
            self.run(f"PRAGMA busy_timeout = {SQLITE_BUSY_MS}", ())

    def run(self, sql: str, params: Any) -> None:
        self.guard(lambda: self.cursor.execute(sql, params), sql, params)

    def _execute(self, compiled: Compiled, values: dict[str, Any]) -> None:
        self.run(compiled.sql, compiled.params(values))

    def locked_row(self, match_id: str) -> MatchRow | None:
        """The match row under its lock (PostgreSQL; SQLite holds the database lock)."""
        compiled = self.moves.locked_row
        self._execute(compiled, {"match_id": match_id})
        raw = self.cursor.fetchone()
        return None if raw is None else MatchRow(*compiled.row(raw))

    def add_action(self, match_id: str, seq: int, seat: str, action: Any, when: datetime) -> None:
        """The (match_id, seq) unique constraint refuses a second action at the same version."""
        values = {"match_id": match_id, "seq": seq, "role": seat, "action": action}
        self._execute(self.moves.add_action, {**values, "created_at": when})

    def advance(
        self, match_id: str, version: int, round_: int, when: datetime, due: datetime
    ) -> None:
        """Move the row on to the version (and round) of the action just stored, with when
        the next decider's clock runs out (repository.NEVER without a clock)."""
        values = {"match_id": match_id, "version": version, "round": round_, "when": when}
        self._execute(self.moves.advance, {**values, "due": due})

    def finish(self, match_id: str, ending: Ending, when: datetime) -> None:
        self._execute(self.moves.finish, {"match_id": match_id, **repo.ending_values(ending, when)})

    def set_due(self, match_id: str, due: datetime | None, at_version: int) -> None:
        """When the deciding seat's clock runs out (None: not known, the sweep works it out)."""
        self.write(repo.SET_DUE, {"the_match": match_id, "due": due, "at_version": at_version})

    def still_idle(self, match_id: str, cutoff: datetime) -> bool:
        """Whether nobody has touched the match since `cutoff` (the abandonment rule)."""
        return bool(self.rows(repo.STILL_IDLE, {"the_match": match_id, "cutoff": cutoff}))

    def leave_seat(self, match_id: str, seat: str, reason: str, when: datetime, log: int) -> bool:
        """The computer takes a person's seat over (contract v1.2), counted on the match row."""
        params = {"in_match": match_id, "seat": seat, "when": when, "reason": reason}
        if self.write(repo.LEAVE_SEAT, {**params, "log_length": log}) != 1:
            return False
        seating.seats_changed(self, match_id)
        return True

    def audit(self, action: str, match_id: str, detail: dict[str, Any]) -> None:
        """The admin's record of a change it made (who, what, when)."""
        values = {"actor": "admin", "action": action, "match_id": match_id, "detail": detail}
        self.write(repo.ADD_AUDIT, {**values, "created_at": utcnow()})

    # persistence.sql.Sql, for the statements that join the transaction that ends a match

    def rows(self, stmt: ClauseElement, params: dict[str, Any]) -> list[Sequence[Any]]:
        compiled = self.moves.compiled(stmt, _keys(stmt, params))
        self._execute(compiled, params)
        return [compiled.row(raw) for raw in self.cursor.fetchall()]

    def write(self, stmt: ClauseElement, params: dict[str, Any]) -> int:
        self._execute(self.moves.compiled(stmt, _keys(stmt, params)), params)
        return int(self.cursor.rowcount)
