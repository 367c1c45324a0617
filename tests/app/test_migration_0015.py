"""Revision 0015 (a challenge's creator address, issue 40 finding 5) adds `challenges.address`:
a challenge opened before it keeps its place in the lobby and counts for its creator's cap but
for no address, and downgrading to 0014 takes exactly that column away. On SQLite and
PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from alembic import command
from fastapi.testclient import TestClient

from tests.app.test_migration_0008 import run
from tests.app.test_migration_0013 import add_old_match, columns
from tests.app.test_migrations import alembic_config, empty_url, inspected
from tests.app.test_players import as_player

__all__ = ["empty_url"]  # the fixture, used by name below

NOW = "2026-12-01 10:00:00"


def an_old_challenge(url: str) -> None:
    """Ana's challenge, opened before 0015."""
    add_old_match(url, "old1", "2", NOW)
    run(
        url, "insert into players (id, name, created_at) values ('ana1', 'Ana', :now)", {"now": NOW}
    )
    run(
        url,
        "insert into seats (match_id, name, kind, token_hash, player, created_at) values"
        " ('old1', 'editor', 'human', 'h1', 'ana1', :now), ('old1', 'nixon', 'human', null,"
        " null, :now)",
        {"now": NOW},
    )
    run(
        url,
        "insert into challenges (match_id, creator, game, open_role, clock, rated, created_at,"
        " seen_at) values ('old1', 'ana1', 'watergate', 'nixon', 'none', false, :now, :now)",
        {"now": NOW},
    )


def test_0015_adds_the_address_keeps_old_challenges_and_takes_only_it_away(
    empty_url: str, make_client: Callable[..., TestClient]
) -> None:
    if empty_url.startswith("sqlite:///"):  # the fixture's folder is made by migrate() only
        Path(empty_url.removeprefix("sqlite:///")).parent.mkdir(parents=True)
    config = alembic_config(empty_url)
    command.upgrade(config, "0014")
    before = columns(empty_url, "challenges")
    an_old_challenge(empty_url)

    command.upgrade(config, "0015")
    assert columns(empty_url, "challenges") == before | {"address"}
    assert run(empty_url, "select address from challenges") == [(None,)]
    command.upgrade(config, "head")

    client = make_client(empty_url, max_challenges_per_player=2, max_challenges_per_address=1)
    assert [c["match_id"] for c in client.get("/api/lobby").json()["challenges"]] == ["old1"]
    bo = client.post("/api/players", json={"name": "Bo"}).json()
    made = client.post("/api/matches", json={"visibility": "public"}, headers=as_player(bo))
    assert made.status_code == 201, "the old challenge counts for no address"
    client.__exit__(None, None, None)

    command.downgrade(config, "0014")
    assert columns(empty_url, "challenges") == before
    assert len(run(empty_url, "select match_id from challenges")) == 2  # both stay
    command.upgrade(config, "head")
    assert inspected(empty_url)["diff"] == []
