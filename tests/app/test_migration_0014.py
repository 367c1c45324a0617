"""Revision 0014 (a match's seats version) counts each change of a match's seats on its row: a
database made before it keeps its matches, each starting at 0; a waiting match made then is
still joined by its invite link, which counts the seat taken and starts it; downgrading to 0013
takes exactly that column away. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from alembic import command
from fastapi.testclient import TestClient

from tests.app.test_migration_0008 import run
from tests.app.test_migration_0013 import add_old_match, columns
from tests.app.test_migrations import alembic_config, empty_url, inspected

__all__ = ["empty_url"]  # the fixture, used by name below


def test_0014_counts_seats_from_zero_serves_an_old_invite_and_takes_only_its_column_away(
    empty_url: str, make_client: Callable[..., TestClient]
) -> None:
    if empty_url.startswith("sqlite:///"):  # the fixture's folder is made by migrate() only
        Path(empty_url.removeprefix("sqlite:///")).parent.mkdir(parents=True)
    config = alembic_config(empty_url)
    command.upgrade(config, "0013")
    before = columns(empty_url, "matches")
    now = "2026-12-06 10:00:00"
    add_old_match(empty_url, "old1", "5", now)
    run(
        empty_url,
        "insert into seats (match_id, name, kind, token_hash, created_at) values"
        " ('old1', 'editor', 'human', 'h1', :now), ('old1', 'nixon', 'human', null, :now)",
        {"now": now},
    )
    run(
        empty_url,
        "insert into invites (code, match_id, seat, created_at) values"
        " ('oldinvite1', 'old1', 'nixon', :now)",
        {"now": now},
    )

    command.upgrade(config, "0014")
    assert columns(empty_url, "matches") == before | {"seats_version"}
    assert run(empty_url, "select seats_version from matches") == [(0,)]
    command.upgrade(config, "head")

    client = make_client(empty_url)
    claimed = client.post("/api/invites/oldinvite1/claim")
    assert claimed.status_code == 200, claimed.text
    assert claimed.json()["role"] == "nixon"
    assert run(empty_url, "select status, seats_version from matches") == [("active", 1)]
    client.__exit__(None, None, None)

    command.downgrade(config, "0013")
    assert columns(empty_url, "matches") == before
    assert run(empty_url, "select status from matches") == [("active",)]
    command.upgrade(config, "head")
    assert inspected(empty_url)["diff"] == []
