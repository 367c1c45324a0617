"""Revision 0019 (API tokens and bot accounts, contract v1.2 "Bots") adds the table of personal API
tokens and the players' bot flag: a database made before it keeps its players, who are people
(not bots), takes tokens for them, and downgrading to 0018 takes exactly those away. On SQLite
and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

from alembic import command

from tests.app.test_migration_0008 import run
from tests.app.test_migration_0016 import tables
from tests.app.test_migration_0017 import insert_match
from tests.app.test_migrations import alembic_config, empty_url, inspected

__all__ = ["empty_url"]  # the fixture, used by name below

NOW = "2026-12-07 13:00:00"


def test_0019_adds_tokens_and_the_bot_flag_and_takes_only_them_away(empty_url: str) -> None:
    if empty_url.startswith("sqlite:///"):  # the fixture's folder is made by migrate() only
        Path(empty_url.removeprefix("sqlite:///")).parent.mkdir(parents=True)
    config = alembic_config(empty_url)
    command.upgrade(config, "0018")
    before = tables(empty_url)
    run(
        empty_url,
        "insert into players (id, name, created_at) values ('ana1', 'Ana', :t)",
        {"t": NOW},
    )
    insert_match(empty_url, "m1")

    command.upgrade(config, "0019")
    assert tables(empty_url) == before | {"api_tokens"}
    assert run(empty_url, "select id, bot from players") == [("ana1", False)]
    run(
        empty_url,
        "insert into api_tokens (id, player, label, scopes, digest, created_at)"
        " values ('t1', 'ana1', 'bot', '[\"bot:play\"]', :d, :t)",
        {"d": "d" * 64, "t": NOW},
    )
    assert run(empty_url, "select player, label from api_tokens") == [("ana1", "bot")]

    command.downgrade(config, "0018")
    assert tables(empty_url) == before
    assert run(empty_url, "select id from players") == [("ana1",)]
    assert run(empty_url, "select id from matches") == [("m1",)]
    command.upgrade(config, "head")
    assert inspected(empty_url)["diff"] == []
