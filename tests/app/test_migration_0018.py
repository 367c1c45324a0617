"""Revision 0018 (seat keys, contract v1.2 "Your seats on every device") adds the table of the
extra seat tokens given to a signed-in player's other devices: a database made before it keeps
its matches, seats and sessions, takes keys for them (gone with their session), and downgrading
to 0017 takes exactly that table away. On SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

from alembic import command

from tests.app.test_migration_0008 import run
from tests.app.test_migration_0016 import tables
from tests.app.test_migration_0017 import insert_match
from tests.app.test_migrations import alembic_config, empty_url, inspected

__all__ = ["empty_url"]  # the fixture, used by name below

NOW = "2026-12-07 10:00:00"


def test_0018_adds_seat_keys_beside_old_seats_and_takes_only_it_away(empty_url: str) -> None:
    if empty_url.startswith("sqlite:///"):  # the fixture's folder is made by migrate() only
        Path(empty_url.removeprefix("sqlite:///")).parent.mkdir(parents=True)
    config = alembic_config(empty_url)
    command.upgrade(config, "0017")
    before = tables(empty_url)
    run(
        empty_url,
        "insert into players (id, name, created_at) values ('ana1', 'Ana', :t)",
        {"t": NOW},
    )
    run(
        empty_url,
        "insert into player_sessions (id, player_id, token_hash, created_at)"
        " values ('s1', 'ana1', :h, :t)",
        {"h": "h" * 64, "t": NOW},
    )
    insert_match(empty_url, "m1")

    command.upgrade(config, "0018")
    assert tables(empty_url) == before | {"seat_keys"}
    run(
        empty_url,
        "insert into seat_keys (digest, match_id, seat, session_id, created_at)"
        " values (:d, 'm1', 'editor', 's1', :t)",
        {"d": "k" * 64, "t": NOW},
    )
    assert run(empty_url, "select match_id, seat from seat_keys") == [("m1", "editor")]
    if not empty_url.startswith("sqlite"):  # SQLite enforces keys only per connection
        run(empty_url, "delete from player_sessions where id = 's1'")  # signed out
        assert run(empty_url, "select count(*) from seat_keys") == [(0,)]

    command.downgrade(config, "0017")
    assert tables(empty_url) == before
    assert run(empty_url, "select id from matches") == [("m1",)]
    command.upgrade(config, "head")
    assert inspected(empty_url)["diff"] == []
