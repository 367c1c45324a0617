"""Revision 0017 (people, issue 43) adds follows, blocks, direct challenges, notifications,
reports, moderation actions, sanctions and abandonments, and new columns on players and chat
lines: a database made before it keeps its players and chat lines, which take the defaults
(anyone may challenge, not a moderator; an old line has no known writer and is not hidden), the
new tables take rows for the old players, and downgrading to 0016 takes exactly that away. On
SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

from alembic import command

from tests.app.test_migration_0008 import run
from tests.app.test_migration_0016 import tables
from tests.app.test_migrations import alembic_config, empty_url, inspected

__all__ = ["empty_url"]  # the fixture, used by name below

NOW = "2026-12-07 10:00:00"
NEW_TABLES = {
    "follows",
    "blocks",
    "direct_challenges",
    "notifications",
    "reports",
    "moderation_actions",
    "sanctions",
    "abandonments",
}


def insert_match(url: str, match_id: str) -> None:
    """An active Watergate match row as the schema of 0016 and later holds it."""
    run(
        url,
        "insert into matches (id, game, seed, commitment, rules_version, options, status,"
        " version, round, created_at, updated_at, seats_version)"
        " values (:m, 'watergate', '7', :c, '5', '{}', 'active', 0, 1, :t, :t, 0)",
        {"m": match_id, "c": "c" * 64, "t": NOW},
    )


def test_0017_keeps_old_players_and_lines_with_their_defaults_and_takes_only_it_away(
    empty_url: str,
) -> None:
    if empty_url.startswith("sqlite:///"):  # the fixture's folder is made by migrate() only
        Path(empty_url.removeprefix("sqlite:///")).parent.mkdir(parents=True)
    config = alembic_config(empty_url)
    command.upgrade(config, "0016")
    before = tables(empty_url)
    for pid, name in (("ana1", "Ana"), ("bo2", "Bo")):
        run(
            empty_url,
            "insert into players (id, name, created_at) values (:p, :n, :t)",
            {"p": pid, "n": name, "t": NOW},
        )
    insert_match(empty_url, "m1")
    run(
        empty_url,
        "insert into chat_messages (match_id, role, name, text, created_at)"
        " values ('m1', 'editor', 'Ana', 'good luck', :t)",
        {"t": NOW},
    )

    command.upgrade(config, "0017")
    assert tables(empty_url) == before | NEW_TABLES
    found = run(empty_url, "select id, challenges_from, moderator, created_from from players")
    assert sorted((p, c, bool(m), f) for p, c, m, f in found) == [
        ("ana1", "everyone", False, None),
        ("bo2", "everyone", False, None),
    ]
    lines = run(empty_url, "select text, player, hidden from chat_messages")
    assert [(t, p, bool(h)) for t, p, h in lines] == [("good luck", None, False)]
    run(
        empty_url,
        "insert into follows (follower, followee, created_at) values ('ana1', 'bo2', :t)",
        {"t": NOW},
    )
    run(
        empty_url,
        "insert into sanctions (player, scope, until, reason, source, created_at)"
        " values ('bo2', 'chat', :t, 'word list', 'word_list', :t)",
        {"t": NOW},
    )
    if not empty_url.startswith("sqlite"):  # SQLite enforces keys only per connection
        run(empty_url, "delete from players where id = 'bo2'")  # the rows go with the player
        assert run(empty_url, "select count(*) from follows") == [(0,)]
        assert run(empty_url, "select count(*) from sanctions") == [(0,)]

    command.downgrade(config, "0016")
    assert tables(empty_url) == before
    assert ("Ana",) in run(empty_url, "select name from players")
    assert run(empty_url, "select text from chat_messages") == [("good luck",)]
    command.upgrade(config, "head")
    assert inspected(empty_url)["diff"] == []
