"""Revision 0006 adds the admin sessions table: a database at 0005 holding a match is upgraded to
head, keeps its match, and the app signs an admin in and out on it (the session row comes and
goes); downgrading to 0005 drops only that table, and upgrading again rebuilds it. On SQLite and
on PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy.pool import NullPool

from app.persistence.db import driver_url
from tests.app.conftest import ADMIN_TOKEN
from tests.app.test_migrations import alembic_config, empty_url, inspected

__all__ = ["empty_url"]  # the fixture, used by name below


def scalar(url: str, sql: str) -> object:
    engine = sa.create_engine(driver_url(url), poolclass=NullPool)
    try:
        with engine.connect() as conn:
            return conn.scalar(sa.text(sql))
    finally:
        engine.dispose()


def session_indexes(url: str) -> set[str]:
    engine = sa.create_engine(driver_url(url), poolclass=NullPool)
    try:
        with engine.connect() as conn:
            return {str(i["name"]) for i in sa.inspect(conn).get_indexes("admin_sessions")}
    finally:
        engine.dispose()


def test_0006_adds_admin_sessions_and_keeps_the_data(
    empty_url: str, make_client: Callable[..., TestClient]
) -> None:
    if empty_url.startswith("sqlite:///"):  # the fixture's folder is made by migrate() only
        Path(empty_url.removeprefix("sqlite:///")).parent.mkdir(parents=True)
    config = alembic_config(empty_url)
    command.upgrade(config, "0005")
    assert "admin_sessions" not in inspected(empty_url)["tables"]
    engine = sa.create_engine(driver_url(empty_url), poolclass=NullPool)
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "insert into matches (id, game, seed, rules_version, options, status, version,"
                " round, created_at, updated_at) values ('m1', 'watergate', '7', '2', '{}',"
                " 'waiting', 0, 1, :now, :now)"
            ),
            {"now": "2026-12-01 10:00:00+00:00"},
        )
    engine.dispose()

    command.upgrade(config, "head")
    found = inspected(empty_url)
    assert "admin_sessions" in found["tables"] and found["diff"] == []
    assert "ix_admin_sessions_expires_at" in session_indexes(empty_url)
    assert scalar(empty_url, "select count(*) from matches") == 1

    client = make_client(empty_url)
    signed_in = client.post("/admin/login", data={"token": ADMIN_TOKEN}, follow_redirects=False)
    assert signed_in.status_code == 303
    assert scalar(empty_url, "select count(*) from admin_sessions") == 1
    assert client.get("/api/admin/matches").json()[0]["match_id"] == "m1"
    client.post("/admin/logout")
    assert scalar(empty_url, "select count(*) from admin_sessions") == 0

    command.downgrade(config, "0005")
    down = inspected(empty_url)
    assert "admin_sessions" not in down["tables"] and down["revision"] == "0005"
    assert scalar(empty_url, "select count(*) from matches") == 1
    command.upgrade(config, "head")
    assert inspected(empty_url)["diff"] == []
