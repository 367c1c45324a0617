"""Revision 0013 (tables of N seats) adds a seat's leaving (`left_at`, `left_reason`,
`left_log`), a challenge's table size and a rematch's answers: a database made before it keeps
its matches, seats, challenges and rematches (an old challenge is a duel, an old seat has not
left), serves a table of three on them, and downgrading to 0012 takes exactly those columns
away. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from alembic import command
from fastapi.testclient import TestClient

from engine.core.fairness import commitment
from tests.app.test_migration_0008 import INSERT, run
from tests.app.test_migrations import alembic_config, empty_url, inspected
from tests.app.test_players import as_player, new_player

__all__ = ["empty_url"]  # the fixture, used by name below

NEW_COLUMNS = {
    "seats": {"left_at", "left_reason", "left_log"},
    "challenges": {"players"},
    "rematches": {"answers"},
}


def columns(url: str, table: str) -> set[str]:
    if url.startswith("sqlite"):
        return {str(row[1]) for row in run(url, f"pragma table_info({table})")}
    found = run(
        url,
        "select column_name from information_schema.columns where table_name = :t",
        {"t": table},
    )
    return {str(row[0]) for row in found}


def add_old_match(url: str, match_id: str, rules: str, now: str) -> None:
    """A waiting Watergate match row as revisions 0008 and later store one (its commitment)."""
    old = INSERT.replace("created_at, updated_at)", "created_at, updated_at, commitment)").replace(
        ":now, :now)", ":now, :now, :commitment)"
    )
    seed = 4242
    run(url, old, {"id": match_id, "seed": str(seed), "rules": rules, "now": now,
                   "commitment": commitment(match_id, seed)})  # fmt: skip


def test_0013_adds_its_columns_keeps_old_rows_and_takes_only_them_away(
    empty_url: str, make_client: Callable[..., TestClient]
) -> None:
    if empty_url.startswith("sqlite:///"):  # the fixture's folder is made by migrate() only
        Path(empty_url.removeprefix("sqlite:///")).parent.mkdir(parents=True)
    config = alembic_config(empty_url)
    command.upgrade(config, "0012")
    before = {table: columns(empty_url, table) for table in NEW_COLUMNS}
    now = "2026-12-01 10:00:00"
    add_old_match(empty_url, "old1", "2", now)
    run(
        empty_url,
        "insert into players (id, name, created_at) values ('ana1', 'Ana', :now)",
        {"now": now},
    )
    run(
        empty_url,
        "insert into seats (match_id, name, kind, token_hash, player, created_at) values"
        " ('old1', 'editor', 'human', 'h1', 'ana1', :now), ('old1', 'nixon', 'human', null,"
        " null, :now)",
        {"now": now},
    )
    run(
        empty_url,
        "insert into challenges (match_id, creator, game, open_role, clock, rated, created_at,"
        " seen_at) values ('old1', 'ana1', 'watergate', 'nixon', 'none', false, :now, :now)",
        {"now": now},
    )

    command.upgrade(config, "0013")
    for table, added in NEW_COLUMNS.items():
        assert columns(empty_url, table) == before[table] | added, table
    assert run(empty_url, "select players from challenges") == [(2,)]  # an old one is a duel
    assert run(empty_url, "select left_at, left_reason from seats where name = 'editor'") == [
        (None, None)
    ]
    command.upgrade(config, "head")

    client = make_client(empty_url)
    listed = client.get("/api/lobby").json()["challenges"]
    assert [(c["match_id"], c["players"], c["open_seats"]) for c in listed] == [
        ("old1", 2, [])  # an old challenge's invite row was never made here: no seat to offer
    ]
    bo = new_player(client, "Bo")
    made = client.post(
        "/api/matches",
        json={"game": "nations", "players": 3, "visibility": "public"},
        headers=as_player(bo),
    )
    assert made.status_code == 201, made.text
    assert len(made.json()["invites"]) == 2
    client.__exit__(None, None, None)

    command.downgrade(config, "0012")
    for table in NEW_COLUMNS:
        assert columns(empty_url, table) == before[table], table
    assert len(run(empty_url, "select id from seats")) == 5  # the old and the new seats stay
    command.upgrade(config, "head")
    assert inspected(empty_url)["diff"] == []
