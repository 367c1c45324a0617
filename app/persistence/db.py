"""Database engine and sessions: SQLite by default, PostgreSQL by URL; the app picks its drivers."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from sqlalchemy import Engine, MetaData, create_engine, event
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


SQLITE_BUSY_MS = 30_000  # how long a writer waits for another process's write lock
STATEMENT_TIMEOUT_MS = 15_000  # PostgreSQL: no statement of ours takes near this long
IDLE_IN_TRANSACTION_MS = 60_000  # PostgreSQL: a transaction a dead client left open is ended
POOL_WAIT_S = 10  # a request waits this long for a free connection, then fails (a 503)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


def driver_url(url: str) -> str:
    """Accept the plain forms of product.md and choose our drivers (psycopg 3 for PostgreSQL)."""
    for plain in ("postgresql://", "postgres://"):
        if url.startswith(plain):
            return "postgresql+psycopg://" + url[len(plain) :]
    return url


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def postgres_timeouts(connect_timeout_s: float) -> dict[str, Any]:
    """libpq settings that turn a database host that stopped answering into an error (a 503)
    within seconds, instead of a request and its worker thread held for the minutes TCP waits:
    connecting, a statement, a transaction left idle, and a connection whose packets go
    unacknowledged (a partition) or that falls silent (keepalives)."""
    return {
        "connect_timeout": max(1, round(connect_timeout_s)),
        "options": f"-c statement_timeout={STATEMENT_TIMEOUT_MS}"
        f" -c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_MS}",
        "tcp_user_timeout": STATEMENT_TIMEOUT_MS,
        "keepalives": 1,
        "keepalives_idle": 10,
        "keepalives_interval": 5,
        "keepalives_count": 3,
    }


def make_engine(url: str, *, writer: bool = True, connect_timeout_s: float = 5.0) -> Engine:
    """An engine for `url`. On SQLite (WAL mode) a writer engine starts every transaction with
    BEGIN IMMEDIATE so that writers queue at once; readers keep deferred transactions."""
    url = driver_url(url)
    if not is_sqlite(url):
        return create_engine(
            url,
            pool_size=10,
            max_overflow=20,
            pool_pre_ping=True,
            pool_timeout=POOL_WAIT_S,
            connect_args=postgres_timeouts(connect_timeout_s),
        )
    # Readers run in the worker threads (40 at most): with SQLAlchemy's default pool of 5, a
    # burst of reads opened and closed extra connections, each paying for its PRAGMAs again.
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_MS / 1000},
        pool_size=5 if writer else 20,
        max_overflow=10 if writer else 20,
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        # No checkpoint inside a commit: a checkpoint writes the database file and syncs it,
        # and a move may commit on the event loop. Database.checkpoint runs them instead.
        cur.execute("PRAGMA wal_autocheckpoint=0")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if writer else "BEGIN")

    return engine


class Database:
    """The session factories: `writer` for transactions that change a match, `reader` for views."""

    def __init__(self, url: str, connect_timeout_s: float = 5.0) -> None:
        self.url = driver_url(url)
        self.writer_engine = make_engine(url, writer=True, connect_timeout_s=connect_timeout_s)
        self.reader_engine = (
            make_engine(url, writer=False) if is_sqlite(self.url) else self.writer_engine
        )
        self.writer: sessionmaker[Session] = sessionmaker(
            self.writer_engine, expire_on_commit=False
        )
        self.reader: sessionmaker[Session] = sessionmaker(
            self.reader_engine, expire_on_commit=False
        )
        # SQLite has one writer at a time: this process's writers queue on this lock first
        self.write_lock: threading.Lock | None = threading.Lock() if is_sqlite(self.url) else None
        self.disposed = False
        for engine in {self.writer_engine, self.reader_engine}:
            event.listen(engine, "checkin", self._close_after_dispose)

    def _close_after_dispose(self, dbapi_connection: Any, record: Any) -> None:
        """Work still in flight when the process stopped hands its connection back after
        dispose(), to a pool nobody holds any more: close it now, rather than leave it open on
        the server until the garbage collector finds that pool."""
        if self.disposed and dbapi_connection is not None:
            record.invalidate()

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A write transaction. On SQLite this process's writers queue on a lock first: SQLite's
        own busy handler sleeps in steps of up to 100 ms, which showed as latency spikes under
        load; other processes still meet the database lock (BEGIN IMMEDIATE)."""
        with self.write_lock or nullcontext(), self.writer.begin() as session:
            yield session

    @contextmanager
    def write_probe(self) -> Iterator[Session]:
        """A write transaction that is always rolled back (readiness asks whether the database
        takes writes, and writes nothing)."""
        with self.write_lock or nullcontext(), self.writer() as session:
            try:
                yield session
            finally:
                session.rollback()

    def checkpoint(self) -> tuple[int, int] | None:
        """Copy the write-ahead log into the SQLite file (a worker thread calls this every
        second): (frames in the log, frames copied), or None on PostgreSQL. PASSIVE: it never
        waits for, nor blocks, readers and writers."""
        if not is_sqlite(self.url):
            return None
        raw = self.writer_engine.raw_connection()
        try:
            cursor = raw.cursor()
            cursor.execute("PRAGMA wal_checkpoint(PASSIVE)")
            row = cursor.fetchone()
            assert row is not None  # the pragma always answers one row: (busy, frames, copied)
            return int(row[1]), int(row[2])
        finally:
            raw.close()

    def dispose(self) -> None:
        """Close every connection: the idle ones now, those in use as they are handed back."""
        self.disposed = True
        self.writer_engine.dispose()
        self.reader_engine.dispose()
