"""Schema changes go through Alembic (product.md, architecture.md 3.2): `alembic upgrade head` on an
empty database builds exactly the schema of the models (no autogenerate diff left), on SQLite and on
PostgreSQL, and the migrations run down to base and up again."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.pool import NullPool

from app.__main__ import ROOT, migrate
from app.persistence import api_tokens, models, sessions  # noqa: F401 (registers every table)
from app.persistence.db import Base, driver_url
from engine.core.fairness import commitment
from tests.app.conftest import _postgres_server

APP_TABLES = {"matches", "seats", "invites", "match_actions"}  # architecture.md 3.2


def model_tables() -> set[str]:
    return set(Base.metadata.tables)


@pytest.fixture(params=["sqlite", "postgres"])
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database with nothing in it: a SQLite file not yet made (in a folder not yet made), or a
    new PostgreSQL database on the TEST_DATABASE_URL server (skipped, as conftest does, without)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/not-yet/empty.db"
        return
    server = _postgres_server()
    name = "wg_empty_" + secrets.token_hex(6)
    admin = create_engine(driver_url(server), isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield server.rpartition("/")[0] + "/" + name
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def alembic_config(url: str) -> Config:
    """The configuration `migrate` uses, for the other commands."""
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.attributes["url"] = url
    return config


def inspected(url: str) -> dict[str, Any]:
    """Tables, the unique column sets of match_actions, the stored revision and the schema diff."""
    engine = create_engine(driver_url(url), poolclass=NullPool)
    try:
        with engine.connect() as conn:
            tables = set(inspect(conn).get_table_names())
            unique: set[tuple[str, ...]] = set()
            if "match_actions" in tables:
                found = inspect(conn).get_unique_constraints("match_actions")
                unique = {tuple(c["column_names"]) for c in found}
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            return {
                "tables": tables,
                "unique": unique,
                "revision": context.get_current_revision(),
                "diff": compare_metadata(context, Base.metadata),
            }
    finally:
        engine.dispose()


def test_there_is_one_head() -> None:
    heads = ScriptDirectory.from_config(alembic_config("sqlite://")).get_heads()
    assert len(heads) == 1


def test_upgrade_head_on_an_empty_database_builds_the_models_schema(empty_url: str) -> None:
    if not empty_url.startswith("sqlite"):
        assert inspected(empty_url)["tables"] == set()
    migrate(empty_url)

    found = inspected(empty_url)
    assert model_tables() >= APP_TABLES
    assert found["tables"] == model_tables() | {"alembic_version"}
    assert ("match_id", "seq") in found["unique"]  # the final guard against a double accept
    head = ScriptDirectory.from_config(alembic_config(empty_url)).get_current_head()
    assert found["revision"] == head
    assert found["diff"] == [], "the migrations and app.models disagree"


def test_downgrade_to_base_then_upgrade_to_head(empty_url: str) -> None:
    migrate(empty_url)
    command.downgrade(alembic_config(empty_url), "base")
    down = inspected(empty_url)
    assert down["tables"] & model_tables() == set()
    assert down["revision"] is None

    command.upgrade(alembic_config(empty_url), "head")
    up = inspected(empty_url)
    assert up["tables"] == model_tables() | {"alembic_version"}
    assert up["diff"] == []


def test_migrating_at_every_start_keeps_the_data(empty_url: str) -> None:
    """`python -m app` migrates each time it starts: at head, that changes nothing."""
    migrate(empty_url)
    engine = create_engine(driver_url(empty_url), poolclass=NullPool)
    try:
        with engine.begin() as conn:
            conn.execute(
                text(
                    "insert into matches (id, game, seed, commitment, rules_version, options,"
                    " status, version, round, created_at, updated_at) values ('m1', 'watergate',"
                    " 7, :commitment, '1', '{}', 'active', 0, 1, :now, :now)"
                ),
                {"now": "2026-01-02 03:04:05+00:00", "commitment": commitment("m1", 7)},
            )
        migrate(empty_url)
        with engine.connect() as conn:
            assert conn.scalar(text("select count(*) from matches")) == 1
    finally:
        engine.dispose()
    assert inspected(empty_url)["diff"] == []
