"""Revision 0016 (account devices, issue 40 finding 10) adds the table of the browsers that have
signed in to each account: a database made before it keeps its players, takes device rows for
them (deleted with the player), and downgrading to 0015 takes exactly that table away. On SQLite
and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

from alembic import command

from tests.app.test_migration_0008 import run
from tests.app.test_migrations import alembic_config, empty_url, inspected

__all__ = ["empty_url"]  # the fixture, used by name below

NOW = "2026-12-06 10:00:00"


def tables(url: str) -> set[str]:
    if url.startswith("sqlite"):
        found = run(url, "select name from sqlite_master where type = 'table'")
    else:
        found = run(url, "select tablename from pg_tables where schemaname = 'public'")
    return {str(row[0]) for row in found}


def test_0016_adds_account_devices_for_old_players_and_takes_only_it_away(empty_url: str) -> None:
    if empty_url.startswith("sqlite:///"):  # the fixture's folder is made by migrate() only
        Path(empty_url.removeprefix("sqlite:///")).parent.mkdir(parents=True)
    config = alembic_config(empty_url)
    command.upgrade(config, "0015")
    before = tables(empty_url)
    run(
        empty_url,
        "insert into players (id, name, created_at) values ('ana1', 'Ana', :n)",
        {"n": NOW},
    )

    command.upgrade(config, "0016")
    assert tables(empty_url) == before | {"account_devices"}
    run(
        empty_url,
        "insert into account_devices (player_id, digest, created_at, seen_at)"
        " values ('ana1', :d, :n, :n)",
        {"d": "a" * 64, "n": NOW},
    )
    assert run(empty_url, "select player_id from account_devices") == [("ana1",)]

    command.downgrade(config, "0015")
    assert tables(empty_url) == before
    assert run(empty_url, "select name from players") == [("Ana",)]  # the players stay
    command.upgrade(config, "head")
    assert inspected(empty_url)["diff"] == []
