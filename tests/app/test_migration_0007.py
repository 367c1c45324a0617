"""Revision 0007 adds the players table and makes seats.player a reference to it: a database at
0006 holding a match with its seats is upgraded to head, keeps them (a stray seats.player value,
which named no player, is cleared), and the app then records players on seats; the reference
refuses a seat naming no player. Downgrading to 0006 drops only the players (the match and its
seats stay), and upgrading again gives the models' schema. On SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import NullPool

from app.persistence.db import driver_url
from tests.app.test_migrations import alembic_config, empty_url, inspected

__all__ = ["empty_url"]  # the fixture, used by name below


def run(url: str, sql: str, **params: object) -> list[Any]:
    engine = sa.create_engine(driver_url(url), poolclass=NullPool)
    try:
        with engine.begin() as conn:
            if url.startswith("sqlite"):
                conn.exec_driver_sql("PRAGMA foreign_keys=ON")
            found = conn.execute(sa.text(sql), params)
            return list(found.all()) if found.returns_rows else []
    finally:
        engine.dispose()


def seat_schema(url: str) -> tuple[set[str], list[dict[str, Any]]]:
    engine = sa.create_engine(driver_url(url), poolclass=NullPool)
    try:
        with engine.connect() as conn:
            found = sa.inspect(conn)
            indexes = {str(i["name"]) for i in found.get_indexes("seats")}
            return indexes, list(found.get_foreign_keys("seats"))
    finally:
        engine.dispose()


def test_0007_adds_players_on_seats_and_keeps_the_data(
    empty_url: str, make_client: Callable[..., TestClient]
) -> None:
    if empty_url.startswith("sqlite:///"):  # the fixture's folder is made by migrate() only
        Path(empty_url.removeprefix("sqlite:///")).parent.mkdir(parents=True)
    config = alembic_config(empty_url)
    command.upgrade(config, "0006")
    run(
        empty_url,
        "insert into matches (id, game, seed, rules_version, options, status, version, round,"
        " created_at, updated_at) values ('m1', 'watergate', '7', '2', '{}', 'waiting', 0, 1,"
        " :now, :now)",
        now="2026-12-01 10:00:00+00:00",
    )
    run(
        empty_url,
        "insert into seats (match_id, name, kind, token_hash, player, created_at) values"
        " ('m1', 'editor', 'human', :digest, 'stray', :now), ('m1', 'nixon', 'human', NULL,"
        " NULL, :now)",
        digest="a" * 64,
        now="2026-12-01 10:00:00+00:00",
    )

    command.upgrade(config, "head")
    found = inspected(empty_url)
    assert "players" in found["tables"] and found["diff"] == []
    indexes, keys = seat_schema(empty_url)
    assert "ix_seats_player" in indexes
    assert any(
        k["referred_table"] == "players" and k["constrained_columns"] == ["player"] for k in keys
    )
    assert run(empty_url, "select name, token_hash, player from seats order by name") == [
        ("editor", "a" * 64, None),
        ("nixon", None, None),
    ]
    with pytest.raises(IntegrityError):  # the reference holds
        run(empty_url, "update seats set player = 'nobody' where name = 'nixon'")

    client = make_client(empty_url)
    bob = client.post("/api/players", json={"name": "Bob"}).json()
    made = client.post("/api/matches", json={}, headers={"X-Player-Token": bob["player_token"]})
    assert made.status_code == 201
    assert run(
        empty_url,
        "select player from seats where match_id = :m and player is not null",
        m=made.json()["match_id"],
    ) == [(bob["player_id"],)]
    client.__exit__(None, None, None)

    command.downgrade(config, "0006")
    down = inspected(empty_url)
    assert "players" not in down["tables"] and down["revision"] == "0006"
    assert run(empty_url, "select count(*) from matches") == [(2,)]
    assert run(empty_url, "select count(*) from seats where player is not null") == [(0,)]
    command.upgrade(config, "head")
    assert inspected(empty_url)["diff"] == []
