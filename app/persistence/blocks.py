"""The SQL of blocks (contract v1.2 "People"): who a player blocked, and whether two players
are kept apart. A block works both ways for what it forbids (challenges, joins, pairing,
follows, chat) but only its blocker ever reads the row: nothing here tells a player who
blocked them, so every caller answers a block as it would any other refusal."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import delete, func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .people_tables import Block


def block(db: Session, blocker: str, blocked: str, now: datetime) -> bool:
    """Record the block; False when it was already there (also when another transaction made
    it a moment ago: two abuse reports of one double-click)."""
    if db.get(Block, (blocker, blocked)) is not None:
        return False
    try:
        with db.begin_nested():  # a savepoint: the caller's transaction survives a duplicate
            db.add(Block(blocker=blocker, blocked=blocked, created_at=now))
    except IntegrityError:
        return False
    return True


def unblock(db: Session, blocker: str, blocked: str) -> bool:
    """Remove the block; False when there was none."""
    gone = db.execute(delete(Block).where(Block.blocker == blocker, Block.blocked == blocked))
    return bool(gone.rowcount)  # type: ignore[attr-defined]


def count(db: Session, blocker: str) -> int:
    return db.scalar(select(func.count()).where(Block.blocker == blocker)) or 0


def blocked_by(db: Session, blocker: str, limit: int, offset: int = 0) -> list[Block]:
    """The players `blocker` blocked, the newest first: only ever shown to the blocker."""
    rows = db.scalars(
        select(Block)
        .where(Block.blocker == blocker)
        .order_by(Block.created_at.desc(), Block.blocked)
        .limit(limit)
        .offset(offset)
    )
    return list(rows)


def apart(db: Session, one: str, other: str) -> bool:
    """Whether either of the two blocked the other: they may not meet outside a match already
    under way."""
    found = db.scalar(
        select(Block.blocker)
        .where(
            or_(
                (Block.blocker == one) & (Block.blocked == other),
                (Block.blocker == other) & (Block.blocked == one),
            )
        )
        .limit(1)
    )
    return found is not None


def kept_apart(db: Session, player: str, others: Iterable[str]) -> set[str]:
    """Of `others`, those `player` blocked or who blocked `player` (a lobby list or a chat's
    readers filtered in one query)."""
    wanted = set(others) - {player}
    if not wanted:
        return set()
    rows = db.execute(
        select(Block.blocker, Block.blocked).where(
            or_(
                (Block.blocker == player) & Block.blocked.in_(wanted),
                (Block.blocked == player) & Block.blocker.in_(wanted),
            )
        )
    )
    return {blocked if blocker == player else blocker for blocker, blocked in rows}


def apart_among(db: Session, players: Iterable[str], others: Iterable[str]) -> set[tuple[str, str]]:
    """(player, other) for each of `players` kept apart from one of `others` (either blocked
    the other): a lobby list filtered for every player who looks on, in one query."""
    mine, theirs = set(players), set(others)
    if not mine or not theirs:
        return set()
    rows = db.execute(
        select(Block.blocker, Block.blocked).where(
            or_(
                Block.blocker.in_(mine) & Block.blocked.in_(theirs),
                Block.blocked.in_(mine) & Block.blocker.in_(theirs),
            )
        )
    )
    found = set()
    for blocker, blocked in rows:
        if blocker in mine and blocked in theirs:
            found.add((blocker, blocked))
        if blocked in mine and blocker in theirs:
            found.add((blocked, blocker))
    return found
