"""Blocks as stored (contract v1.2 "People"): a block keeps two players apart whichever of them
made it, and only its blocker's list shows it. On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

from app.persistence import blocks
from app.persistence.db import Database
from app.persistence.models import Player

NOW = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)


def test_a_block_keeps_both_apart_and_only_its_blocker_lists_it(any_db_url: str) -> None:
    db = Database(any_db_url)
    try:
        with db.write() as session:
            session.add_all(Player(id=f"p{n}", name=f"P{n}", created_at=NOW) for n in range(4))
        with db.write() as session:
            assert blocks.block(session, "p0", "p1", NOW)
            assert not blocks.block(session, "p0", "p1", NOW)  # twice is once
            assert blocks.block(session, "p2", "p0", NOW)
        with db.reader() as session:
            assert blocks.apart(session, "p0", "p1") and blocks.apart(session, "p1", "p0")
            assert not blocks.apart(session, "p1", "p2")
            assert blocks.kept_apart(session, "p0", ["p1", "p2", "p3", "p0"]) == {"p1", "p2"}
            assert blocks.kept_apart(session, "p1", ["p0", "p2"]) == {"p0"}
            assert [b.blocked for b in blocks.blocked_by(session, "p0", 10)] == ["p1"]
            assert blocks.blocked_by(session, "p1", 10) == []  # p1 never learns p0 blocked them
            assert blocks.count(session, "p0") == 1
        with db.write() as session:
            assert blocks.unblock(session, "p0", "p1")
            assert not blocks.unblock(session, "p0", "p1")
        with db.reader() as session:
            assert not blocks.apart(session, "p0", "p1")
    finally:
        db.dispose()
