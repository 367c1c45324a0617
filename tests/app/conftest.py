"""App test fixtures: a fresh database per test (SQLite file, or a new PostgreSQL database when
TEST_DATABASE_URL is set), copied from one migrated with Alembic at the start of each test
process; apps made with their own Settings."""

from __future__ import annotations

import os
import secrets
import sqlite3
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import closing, contextmanager
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from app.__main__ import migrate
from app.config import Settings
from app.main import create_app
from app.passwords import MIN_MEMORY_KIB
from app.persistence.db import driver_url

ADMIN_TOKEN = "test-admin-token-" + "x" * 16
IN_CI = os.environ.get("CI") == "true"


def _missing(what: str) -> None:
    """Outside CI a missing service skips with a reason; in CI it is a failure."""
    if IN_CI:
        pytest.fail(f"{what} is required in CI")
    pytest.skip(f"{what} not available (set it to run these tests)")


def _postgres_server() -> str:
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        _missing("TEST_DATABASE_URL (PostgreSQL)")
    assert url is not None
    try:
        engine = create_engine(driver_url(url), isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            conn.execute(text("select 1"))
        engine.dispose()
    except Exception as err:  # pragma: no cover - depends on the machine
        _missing(f"PostgreSQL at TEST_DATABASE_URL ({err.__class__.__name__})")
    return url


@contextmanager
def _database(server: str, name: str) -> Iterator[str]:
    """A new PostgreSQL database on `server`: its URL; dropped on the way out, whoever is still
    connected."""
    admin = create_engine(driver_url(server), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    base, _, _ = server.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


class _Copies:
    """Copies of a migrated template database on a PostgreSQL server, each made before the test
    that takes it asks (while the test before it runs) and dropped after it, on a thread of its
    own: a copy and a drop took about 0.2 s each of every test's own time. What a drop raises is
    raised at the end of the test process."""

    def __init__(self, server: str, template: str) -> None:
        self.template = template
        self.base = server.rpartition("/")[0]
        self.admin = create_engine(driver_url(server), isolation_level="AUTOCOMMIT")
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="postgres-copies")
        self.next: Future[str] | None = None
        self.drops: list[Future[None]] = []

    def _copy(self) -> str:
        name = "wg_test_" + secrets.token_hex(6)
        with self.admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{self.template}"'))
        return name

    def _drop(self, name: str) -> None:
        with self.admin.connect() as conn:  # whoever is still connected
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))

    @contextmanager
    def database(self) -> Iterator[str]:
        """The URL of a brand-new copy, dropped once the block is left."""
        mine = self.next or self.thread.submit(self._copy)
        self.next = self.thread.submit(self._copy)
        name = mine.result()
        try:
            yield f"{self.base}/{name}"
        finally:
            self.drops.append(self.thread.submit(self._drop, name))

    def close(self) -> None:
        if self.next is not None:
            self.drops.append(self.thread.submit(self._drop, self.next.result()))
        self.thread.shutdown(wait=True)
        self.admin.dispose()
        for dropped in self.drops:
            dropped.result()


@pytest.fixture(scope="session")
def _postgres_copies() -> Iterator[_Copies]:
    """Copies of a PostgreSQL database migrated once for this test process: every test's
    database is one (creating and migrating each took about 0.3 s)."""
    server = _postgres_server()
    name = "wg_template_" + secrets.token_hex(6)
    with _database(server, name) as url:
        migrate(url)  # its engine is disposed: no session stays on the template
        copies = _Copies(server, name)
        try:
            yield copies
        finally:
            copies.close()


@pytest.fixture
def postgres_url(_postgres_copies: _Copies) -> Iterator[str]:
    """A brand-new, migrated PostgreSQL database (a copy of the migrated template), dropped
    afterwards."""
    with _postgres_copies.database() as url:
        yield url


@pytest.fixture(scope="session")
def _sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database migrated once for this test process (migrating took 0.2 s a test)."""
    path = tmp_path_factory.mktemp("template") / "migrated.db"
    migrate(f"sqlite:///{path}")
    return path


@pytest.fixture
def sqlite_url(tmp_path: Path, _sqlite_template: Path) -> str:
    """A brand-new, migrated SQLite file: a page-for-page copy of the migrated template."""
    path = tmp_path / "test.db"
    with closing(sqlite3.connect(_sqlite_template)) as src, closing(sqlite3.connect(path)) as dst:
        src.backup(dst)
    return f"sqlite:///{path}"


@pytest.fixture(params=["sqlite", "postgres"])
def any_db_url(request: pytest.FixtureRequest) -> str:
    """Runs the test once on SQLite and once on PostgreSQL."""
    name = "sqlite_url" if request.param == "sqlite" else "postgres_url"
    return str(request.getfixturevalue(name))


@pytest.fixture
def redis_url() -> str:
    url = os.environ.get("TEST_REDIS_URL")
    if not url:
        _missing("TEST_REDIS_URL (Redis)")
    assert url is not None
    import redis

    try:
        redis.from_url(url).ping()
    except Exception as err:  # pragma: no cover - depends on the machine
        _missing(f"Redis at TEST_REDIS_URL ({err.__class__.__name__})")
    return url


def make_settings(url: str, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "database_url": url,
        "admin_token": ADMIN_TOKEN,
        "bot_delay_ms": 0,
        "bot_kind": "heuristic",  # quick; the search bot is tested on its own
        "bot_budget_ms": 50,
        "base_url": "http://testserver",
        # off by default, as for benchmarks: tests make many requests from one client address;
        # test_ratelimit.py turns them on
        "rate_limits": "off",
        # likewise the sockets' message budget: tests play whole matches over sockets as fast as
        # the server answers; test_message_budget.py turns it on
        "ws_messages_per_second": 0,
        # argon2id at OWASP's minimum (19 MiB, 2 passes), the cheapest the app accepts, instead
        # of the host's size (64 MiB here): a third of the time a hash, the same code;
        # test_accounts.py checks the sizing itself
        "password_hash_memory_kib": MIN_MEMORY_KIB,
    }
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


@pytest.fixture
def make_client() -> Iterator[Callable[..., TestClient]]:
    """make_client(url, **settings) -> a started TestClient; all are closed at the end."""
    clients: list[TestClient] = []

    def make(url: str, **overrides: object) -> TestClient:
        client = TestClient(create_app(make_settings(url, **overrides)))
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


@pytest.fixture
def client(sqlite_url: str, make_client: Callable[..., TestClient]) -> TestClient:
    return make_client(sqlite_url)
