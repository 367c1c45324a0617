"""Revision 0010 adds the lobby's challenges, the table chat, push subscriptions and the VAPID
key as four tables of their own: a database made before it keeps every match, gets the schema the
models describe, serves a challenge and a chat line on it, and downgrading to 0009 drops exactly
those tables. On SQLite and PostgreSQL."""

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

NEW_TABLES = {"challenges", "chat_messages", "push_subscriptions", "push_keys"}


def test_0010_adds_its_tables_and_takes_only_them_away(
    empty_url: str, make_client: Callable[..., TestClient]
) -> None:
    if empty_url.startswith("sqlite:///"):  # the fixture's folder is made by migrate() only
        Path(empty_url.removeprefix("sqlite:///")).parent.mkdir(parents=True)
    config = alembic_config(empty_url)
    command.upgrade(config, "0009")  # the revision before it
    before = inspected(empty_url)["tables"]
    params = {"id": "old1", "seed": "4242", "rules": "2", "now": "2026-12-01 10:00:00"}
    old = (
        INSERT.replace("'waiting'", "'finished'")
        .replace("created_at, updated_at)", "created_at, updated_at, commitment)")
        .replace(":now, :now)", ":now, :now, :commitment)")
    )  # 0008 makes every row carry one
    run(empty_url, old, {**params, "commitment": commitment("old1", 4242)})

    command.upgrade(config, "0010")
    assert inspected(empty_url)["tables"] == before | NEW_TABLES
    command.upgrade(config, "head")  # what the app runs on
    assert run(empty_url, "select id, status from matches") == [("old1", "finished")]

    client = make_client(empty_url)
    ana = new_player(client, "Ana")
    made = client.post("/api/matches", json={"visibility": "public"}, headers=as_player(ana))
    assert made.status_code == 201, made.text
    assert [c["match_id"] for c in client.get("/api/lobby").json()["challenges"]] == [
        made.json()["match_id"]
    ]
    assert client.get("/api/push/key").status_code == 200  # the VAPID key row is made
    client.__exit__(None, None, None)

    command.downgrade(config, "0009")
    assert inspected(empty_url)["tables"] == before
    assert len(run(empty_url, "select id from matches")) == 2  # the new match stays, as a match
    command.upgrade(config, "head")
    assert inspected(empty_url)["diff"] == []
