"""Revision 0009 moves each player's token into player_sessions (one row per device) and adds
accounts, ratings and their history: a database at 0008 holding a player seated in a match is
upgraded to head, the player's old token still names it (and can take an account), its seat
keeps it; downgrading to 0008 gives each player its first session's token back (seats kept)
and drops the rest; upgrading again gives the models' schema. On SQLite and on PostgreSQL."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

from alembic import command
from fastapi.testclient import TestClient

from tests.app.test_migration_0007 import run
from tests.app.test_migrations import alembic_config, empty_url, inspected

__all__ = ["empty_url"]  # the fixture, used by name below

NOW = "2026-12-01 10:00:00+00:00"
OLD_TOKEN = "T" * 43  # shaped like a player token the browser kept from before 0009


def test_0009_keeps_old_player_tokens_working_and_round_trips(
    empty_url: str, make_client: Callable[..., TestClient]
) -> None:
    if empty_url.startswith("sqlite:///"):  # the fixture's folder is made by migrate() only
        Path(empty_url.removeprefix("sqlite:///")).parent.mkdir(parents=True)
    config = alembic_config(empty_url)
    command.upgrade(config, "0008")
    digest = hashlib.sha256(OLD_TOKEN.encode()).hexdigest()
    run(
        empty_url,
        "insert into players (id, name, token_hash, created_at) values ('p1', 'Ana', :d, :now)",
        d=digest,
        now=NOW,
    )
    run(
        empty_url,
        "insert into matches (id, game, seed, commitment, rules_version, options, status,"
        " version, round, created_at, updated_at) values ('m1', 'watergate', '7', :c, '2',"
        " '{}', 'waiting', 0, 1, :now, :now)",
        c="c" * 64,
        now=NOW,
    )
    run(
        empty_url,
        "insert into seats (match_id, name, kind, token_hash, player, created_at) values"
        " ('m1', 'editor', 'human', :s, 'p1', :now), ('m1', 'nixon', 'human', NULL, NULL, :now)",
        s="s" * 64,
        now=NOW,
    )

    command.upgrade(config, "head")
    assert inspected(empty_url)["diff"] == []
    assert run(empty_url, "select player_id, token_hash from player_sessions") == [("p1", digest)]
    assert run(empty_url, "select player from seats where name = 'editor'") == [("p1",)]
    client = make_client(empty_url)
    old = {"X-Player-Token": OLD_TOKEN}
    mine = client.get("/api/players/me/matches", headers=old)
    assert mine.status_code == 200, mine.text
    assert [m["match_id"] for m in mine.json()["ongoing"]] == ["m1"]
    made = client.post(
        "/api/accounts", json={"username": "ana", "password": "correct horse"}, headers=old
    )
    assert made.status_code == 201, made.text
    assert made.json()["player_id"] == "p1" and made.json()["name"] == "Ana"
    other = client.post(
        "/api/accounts/login", json={"username": "ANA", "password": "correct horse"}
    )
    assert other.status_code == 200, other.text
    assert run(empty_url, "select count(*) from player_sessions") == [(2,)]
    client.__exit__(None, None, None)

    command.downgrade(config, "0008")
    down = inspected(empty_url)
    assert down["revision"] == "0008" and "player_sessions" not in down["tables"]
    assert "ratings" not in down["tables"]
    assert run(empty_url, "select id, name, token_hash from players") == [("p1", "Ana", digest)]
    assert run(empty_url, "select player from seats where name = 'editor'") == [("p1",)]
    command.upgrade(config, "head")
    assert inspected(empty_url)["diff"] == []
