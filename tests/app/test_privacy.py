"""Privacy (issue 43) beyond the export (tests/app/test_reliability.py): a player deleting itself
takes its follows, blocks, bell lines and direct challenges with it, both ways; reports,
moderation actions, sanctions and abandonment records are kept their retention time (a year
after a report is closed, an action taken, a sanction ended, a record written) and then pruned,
on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from app.persistence.people_tables import (
    Abandonment,
    Block,
    Follow,
    ModerationAction,
    Notification,
    Report,
    Sanction,
)
from app.services.privacy import RETENTION, Privacy

from .accounts_helpers import rows
from .test_lifecycle import serve
from .test_reliability import guest, me


@pytest.fixture
def url(any_db_url: str) -> str:
    return any_db_url


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    with serve(url) as c:
        yield c


def add(c: TestClient, *made: object) -> None:
    with c.app.state.ctx.db.write() as db:  # type: ignore[attr-defined]
        db.add_all(made)


def count(url: str, table: str) -> int:
    return int(rows(url, f"select count(*) from {table}")[0][0])


def test_deleting_a_player_takes_its_follows_blocks_and_bell_both_ways(
    client: TestClient, url: str
) -> None:
    ana, bea, cid = guest(client, "Ana"), guest(client, "Bea"), guest(client, "Cid")
    a, b, c = ana["player_id"], bea["player_id"], cid["player_id"]
    add(
        client,
        Follow(follower=a, followee=b), Follow(follower=b, followee=a),
        Follow(follower=b, followee=c),
        Block(blocker=a, blocked=c), Block(blocker=c, blocked=a),
        Notification(player=a, kind="challenge", data={}),
        Notification(player=b, kind="challenge", data={}),
        Report(reporter=b, player=a, reason="abuse"),
        Abandonment(player=a, reason="clock"),
    )  # fmt: skip
    deleted = client.request("DELETE", "/api/players/me", json={}, headers=me(ana))
    assert deleted.status_code == 200, deleted.text
    assert rows(url, "select follower, followee from follows") == [(b, c)]
    assert count(url, "blocks") == 0
    assert rows(url, "select player from notifications") == [(b,)]
    # kept for their retention time: the report about Ana, her abandonment record
    assert count(url, "reports") == 1 and count(url, "abandonments") == 1


def test_records_past_their_retention_time_are_pruned(client: TestClient, url: str) -> None:
    ana, bea = guest(client, "Ana"), guest(client, "Bea")
    a, b = ana["player_id"], bea["player_id"]
    now = datetime.now(UTC)
    old, recent = now - RETENTION - timedelta(days=1), now - RETENTION + timedelta(days=1)
    add(
        client,
        Report(reporter=b, player=a, reason="abuse", text="old", status="closed",
               outcome="dismissed", created_at=old, resolved_at=old),
        Report(reporter=b, player=a, reason="abuse", text="recent", status="closed",
               outcome="dismissed", created_at=old, resolved_at=recent),
        Report(reporter=b, player=a, reason="abuse", text="open", created_at=old),
        ModerationAction(player=a, action="warn", reason="old", by="admin", created_at=old),
        ModerationAction(player=a, action="warn", reason="recent", by="admin", created_at=recent),
        Sanction(player=a, scope="lobby", until=old, reason="old", source="abandonment"),
        Sanction(player=a, scope="lobby", until=recent, reason="recent", source="abandonment"),
        Abandonment(player=a, reason="clock", created_at=old),
        Abandonment(player=a, reason="abandoned", created_at=recent),
    )  # fmt: skip
    assert client.portal is not None
    done = client.portal.call(Privacy(client.app.state.ctx.core).prune)  # type: ignore[attr-defined]
    assert done == {"reports": 1, "moderation_actions": 1, "sanctions": 1, "abandonments": 1}
    assert sorted(r[0] for r in rows(url, "select text from reports")) == ["open", "recent"]
    assert rows(url, "select reason from moderation_actions") == [("recent",)]
    assert rows(url, "select reason from sanctions") == [("recent",)]
    assert rows(url, "select reason from abandonments") == [("abandoned",)]
