"""Revision 0020 (tournaments, issue 46) adds only new tables: a database made before it keeps
its players and matches, takes a tournament with an entrant, a game on an old match and an admin
event, and downgrading to 0019 takes exactly those tables away. On SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

from alembic import command

from tests.app.test_migration_0008 import run
from tests.app.test_migration_0016 import tables
from tests.app.test_migration_0017 import insert_match
from tests.app.test_migrations import alembic_config, empty_url, inspected

__all__ = ["empty_url"]  # the fixture, used by name below

NOW = "2026-12-07 15:00:00"
NEW = {"tournaments", "tournament_players", "tournament_games", "tournament_seats"}


def test_0020_adds_the_tournament_tables_and_takes_only_them_away(empty_url: str) -> None:
    if empty_url.startswith("sqlite:///"):  # the fixture's folder is made by migrate() only
        Path(empty_url.removeprefix("sqlite:///")).parent.mkdir(parents=True)
    config = alembic_config(empty_url)
    command.upgrade(config, "0019")
    before = tables(empty_url)
    run(
        empty_url,
        "insert into players (id, name, created_at) values ('ana1', 'Ana', :t)",
        {"t": NOW},
    )
    insert_match(empty_url, "m1")

    command.upgrade(config, "0020")
    assert tables(empty_url) == before | NEW | {"tournament_events"}
    run(
        empty_url,
        "insert into tournaments (id, name, game, format, clock, players_per_game, rated,"
        " starts_at, minutes, max_players, status, paused, round, created_at)"
        " values ('t1', 'Friday arena', 'watergate', 'arena', 'realtime-15', 2, true, :t, 60,"
        " 100, 'running', false, 0, :t)",
        {"t": NOW},
    )
    run(
        empty_url,
        "insert into tournament_players (tournament_id, player, joined_at, rating, score, games,"
        " wins, streak, vp, first_seats, second_seats, present, withdrawn, removed)"
        " values ('t1', 'ana1', :t, 1500, 4, 2, 2, 2, 0, 1, 1, true, false, false)",
        {"t": NOW},
    )
    run(
        empty_url,
        "insert into tournament_games (tournament_id, match_id, round, created_at)"
        " values ('t1', 'm1', 0, :t)",
        {"t": NOW},
    )
    run(
        empty_url,
        "insert into tournament_events (tournament_id, action, by, detail, created_at)"
        " values ('t1', 'pause', 'admin', '{}', :t)",
        {"t": NOW},
    )
    assert run(empty_url, "select player, score, streak from tournament_players") == [
        ("ana1", 4, 2)
    ]
    assert run(empty_url, "select match_id from tournament_games") == [("m1",)]

    command.downgrade(config, "0019")
    assert tables(empty_url) == before
    assert run(empty_url, "select id from players") == [("ana1",)]
    assert run(empty_url, "select id from matches") == [("m1",)]
    command.upgrade(config, "head")
    assert inspected(empty_url)["diff"] == []
