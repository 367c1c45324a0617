"""Revision 0008 stores each match's commitment to its seed: matches made before it (a
first-edition 53-bit seed and a 256-bit one) get theirs computed from their own id and seed, the
admin reads it back, and downgrading to 0007 drops only that column. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy.pool import NullPool

from app.persistence.db import driver_url
from engine.core.fairness import commitment
from tests.app.conftest import ADMIN_TOKEN
from tests.app.test_migrations import alembic_config, empty_url, inspected

__all__ = ["empty_url"]  # the fixture, used by name below

SEEDS = {"old1": ("1", 4242), "new1": ("2", (1 << 256) - 12345)}
INSERT = (
    "insert into matches (id, game, seed, rules_version, options, status, version, round,"
    " created_at, updated_at) values (:id, 'watergate', :seed, :rules, '{}', 'waiting', 0, 1,"
    " :now, :now)"
)


def run(url: str, sql: str, params: dict[str, object] | None = None) -> list[tuple[object, ...]]:
    engine = sa.create_engine(driver_url(url), poolclass=NullPool)
    try:
        with engine.begin() as conn:
            found = conn.execute(sa.text(sql), params or {})
            return [tuple(row) for row in found] if found.returns_rows else []
    finally:
        engine.dispose()


def column_names(url: str) -> set[str]:
    engine = sa.create_engine(driver_url(url), poolclass=NullPool)
    try:
        with engine.connect() as conn:
            return {str(c["name"]) for c in sa.inspect(conn).get_columns("matches")}
    finally:
        engine.dispose()


def test_0008_computes_the_commitment_of_every_match(
    empty_url: str, make_client: Callable[..., TestClient]
) -> None:
    if empty_url.startswith("sqlite:///"):  # the fixture's folder is made by migrate() only
        Path(empty_url.removeprefix("sqlite:///")).parent.mkdir(parents=True)
    config = alembic_config(empty_url)
    command.upgrade(config, "0007")
    for match_id, (rules, seed) in SEEDS.items():
        params = {"id": match_id, "seed": str(seed), "rules": rules, "now": "2026-12-01 10:00:00"}
        run(empty_url, INSERT, params)

    command.upgrade(config, "head")
    assert inspected(empty_url)["diff"] == []
    stored = dict(run(empty_url, "select id, commitment from matches"))
    assert stored == {m: commitment(m, seed) for m, (_, seed) in SEEDS.items()}

    client = make_client(empty_url)
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    for match_id, (rules, seed) in SEEDS.items():
        detail = client.get(f"/api/admin/matches/{match_id}", headers=admin).json()
        algorithm = {"1": "splitmix64/v1", "2": "sha256-ctr/v1"}[rules]
        assert detail["fairness"] == {
            "commitment": commitment(match_id, seed),
            "algorithm": algorithm,
            "seed": f"{seed:064x}",
        }
    if empty_url.startswith("postgresql"):  # a row without its commitment is refused
        params = {"id": "bare", "seed": "7", "rules": "2", "now": "2026-12-01 10:00:00"}
        with pytest.raises(sa.exc.IntegrityError):
            run(empty_url, INSERT, params)

    command.downgrade(config, "0007")
    assert inspected(empty_url)["revision"] == "0007"
    columns = column_names(empty_url)
    assert "commitment" not in columns and "seed" in columns
    assert len(run(empty_url, "select id from matches")) == 2
    command.upgrade(config, "head")
    assert dict(run(empty_url, "select id, commitment from matches")) == stored
