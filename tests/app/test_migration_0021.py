"""Revision 0021 (a correspondence round's own time, issue 46) adds two empty columns to the
tournaments: a database made before it keeps its tournaments, their entrants and games, each
without a round length or deadline (their rounds still wait for their games), takes a round
length and deadline for a new one, and downgrading to 0020 takes exactly those columns away. On
SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

from alembic import command

from tests.app.test_migration_0008 import run
from tests.app.test_migration_0013 import columns
from tests.app.test_migration_0017 import insert_match
from tests.app.test_migrations import alembic_config, empty_url, inspected

__all__ = ["empty_url"]  # the fixture, used by name below

NOW = "2026-12-07 18:30:00"
LATER = "2026-12-10 18:30:00"


def add_tournament(url: str, tid: str, extra: str = "", values: str = "") -> None:
    run(
        url,
        "insert into tournaments (id, name, game, format, clock, players_per_game, rated,"
        f" starts_at, rounds, max_players, status, paused, round, created_at{extra})"
        f" values ('{tid}', 'Mail Swiss', 'watergate', 'swiss', 'turn-3', 2, true, :t, 5,"
        f" 100, 'running', false, 1, :t{values})",
        {"t": NOW, "later": LATER},
    )


def test_0021_adds_the_round_length_and_deadline_and_takes_only_them_away(
    empty_url: str,
) -> None:
    if empty_url.startswith("sqlite:///"):  # the fixture's folder is made by migrate() only
        Path(empty_url.removeprefix("sqlite:///")).parent.mkdir(parents=True)
    config = alembic_config(empty_url)
    command.upgrade(config, "0020")
    before = columns(empty_url, "tournaments")
    run(
        empty_url,
        "insert into players (id, name, created_at) values ('ana1', 'Ana', :t)",
        {"t": NOW},
    )
    insert_match(empty_url, "m1")
    add_tournament(empty_url, "t1")
    run(
        empty_url,
        "insert into tournament_players (tournament_id, player, joined_at, rating, score, games,"
        " wins, streak, vp, first_seats, second_seats, match_id, present, withdrawn, removed)"
        " values ('t1', 'ana1', :t, 1500, 2, 1, 1, 0, 0, 1, 0, 'm1', true, false, false)",
        {"t": NOW},
    )
    run(
        empty_url,
        "insert into tournament_games (tournament_id, match_id, round, created_at)"
        " values ('t1', 'm1', 1, :t)",
        {"t": NOW},
    )

    command.upgrade(config, "0021")
    assert columns(empty_url, "tournaments") == before | {"round_days", "round_ends_at"}
    # the tournament made before: no round time, its round waits for its game as it did
    assert run(empty_url, "select id, round, round_days, round_ends_at from tournaments") == [
        ("t1", 1, None, None)
    ]
    assert run(empty_url, "select player, score, match_id from tournament_players") == [
        ("ana1", 2, "m1")
    ]
    add_tournament(empty_url, "t2", ", round_days, round_ends_at", ", 3, :later")
    found = run(empty_url, "select round_days, round_ends_at from tournaments where id = 't2'")
    assert found[0][0] == 3 and str(found[0][1]).startswith("2026-12-10 18:30:00")

    command.downgrade(config, "0020")
    assert columns(empty_url, "tournaments") == before
    assert run(empty_url, "select id from tournaments order by id") == [("t1",), ("t2",)]
    assert run(empty_url, "select match_id from tournament_games") == [("m1",)]
    command.upgrade(config, "head")
    assert inspected(empty_url)["diff"] == []
