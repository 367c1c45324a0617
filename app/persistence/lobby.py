"""The SQL of the lobby: open public challenges (with their creators' names), the invite each
one is joined through, and when each creator was last seen connected."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.orm import Session

from .models import Challenge, Invite, Match, Player

MAX_LISTED = 100  # the lobby shows the oldest this many (contract v1.1)


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    """An open challenge as the lobby lists it, with its creator's current name."""

    match_id: str
    game: str
    open_role: str
    clock: str
    rated: bool
    created_at: datetime
    creator: str
    creator_name: str
    players: int = 2  # the table's size (contract v1.2)
    rules_version: str | None = None  # its match's rules edition (issue 41)


LISTED = (
    select(
        Challenge.match_id, Challenge.game, Challenge.open_role, Challenge.clock, Challenge.rated,
        Challenge.created_at, Challenge.creator, Player.name, Challenge.players,
        Match.rules_version,
    )
    .join(Player, Player.id == Challenge.creator)
    .join(Match, Match.id == Challenge.match_id)
    .order_by(Challenge.created_at, Challenge.match_id)
)  # fmt: skip


def _row(columns: Any) -> ChallengeRow:
    """A LISTED row (ten columns: past what SQLAlchemy's select types count)."""
    return ChallengeRow(*columns)


def add_challenge(
    db: Session, match_id: str, creator: str, game: str, open_role: str, clock: str, rated: bool,
    when: datetime, players: int = 2, address: str | None = None,
) -> None:  # fmt: skip
    db.add(
        Challenge(
            match_id=match_id, creator=creator, game=game, open_role=open_role, clock=clock,
            rated=rated, created_at=when, seen_at=when, players=players, address=address,
        )
    )  # fmt: skip
    db.flush()


def hold_creator(db: Session, creator: str, address: str | None) -> None:
    """Until the transaction ends, no other transaction opens a challenge for this creator or
    from this address, so that two at once count each other. PostgreSQL: transaction-scoped
    advisory locks, always the player's first; SQLite's writers take turns anyway."""
    if db.get_bind().dialect.name != "postgresql":
        return
    keys = ["challenges:player:" + creator] + (["challenges:address:" + address] if address else [])
    for key in keys:
        db.execute(select(func.pg_advisory_xact_lock(func.hashtext(key))))


def open_count(db: Session, creator: str | None = None, address: str | None = None) -> int:
    """Open challenges of `creator` (or from `address`)."""
    query = select(func.count()).select_from(Challenge)
    if creator is not None:
        query = query.where(Challenge.creator == creator)
    if address is not None:
        query = query.where(Challenge.address == address)
    return int(db.execute(query).scalar_one())


def open_challenges(db: Session, limit: int = MAX_LISTED) -> list[ChallengeRow]:
    return [_row(row) for row in db.execute(LISTED.limit(limit))]


def compatible(
    db: Session, game: str, clock: str, rated: bool, roles: Collection[str], besides: str | None,
    players: int = 2,
) -> list[ChallengeRow]:  # fmt: skip
    """Open challenges a quick pairing may join, oldest first: the same game, table size, clock
    and rating, an open seat among `roles`, not created by `besides`."""
    query = LISTED.where(
        Challenge.game == game,
        Challenge.players == players,
        Challenge.clock == clock,
        Challenge.rated == rated,
        Challenge.open_role.in_(roles),
    )
    if besides is not None:
        query = query.where(Challenge.creator != besides)
    return [_row(row) for row in db.execute(query.limit(MAX_LISTED))]


def challenge(db: Session, match_id: str) -> ChallengeRow | None:
    row = db.execute(LISTED.where(Challenge.match_id == match_id)).first()
    return None if row is None else _row(row)


def remove_challenge(db: Session, match_id: str) -> bool:
    """Take the challenge out of the lobby; false when it was not (or no longer) there."""
    removed = db.connection().execute(delete(Challenge).where(Challenge.match_id == match_id))
    return removed.rowcount == 1


def invite_of(db: Session, match_id: str, seat: str | None = None) -> str | None:
    """The code of the match's unclaimed invite (for `seat`, else its first open seat's): a
    lobby join claims it as a link would."""
    query = select(Invite.code).where(Invite.match_id == match_id, Invite.claimed_at.is_(None))
    if seat is not None:
        query = query.where(Invite.seat == seat)
    return db.execute(query.order_by(Invite.seat).limit(1)).scalar()


def open_seats(db: Session, match_ids: Collection[str]) -> dict[str, list[str]]:
    """match id -> its seats still open to a joiner (unclaimed invites), in seat order."""
    found: dict[str, list[str]] = {m: [] for m in match_ids}
    if match_ids:
        query = (
            select(Invite.match_id, Invite.seat)
            .where(Invite.match_id.in_(match_ids), Invite.claimed_at.is_(None))
            .order_by(Invite.match_id, Invite.seat)
        )
        for match_id, seat in db.execute(query):
            found[match_id].append(seat)
    return found


def seen(db: Session, creators: Collection[str], matches: Collection[str], when: datetime) -> None:
    """The creators (of any challenge) and the challenges (whose creator sits at its table) seen
    connected now."""
    if not creators and not matches:
        return
    db.execute(
        update(Challenge)
        .where(or_(Challenge.creator.in_(creators), Challenge.match_id.in_(matches)))
        .values(seen_at=when)
    )


def expire(db: Session, cutoff: datetime) -> list[str]:
    """Remove the challenges whose creator was last seen before `cutoff`; their match ids."""
    stale = list(db.execute(select(Challenge.match_id).where(Challenge.seen_at < cutoff)).scalars())
    if stale:
        db.execute(delete(Challenge).where(Challenge.match_id.in_(stale)))
    return stale


def open_ids(db: Session) -> list[str]:
    """Every open challenge's match id (a process checks which of their tables it serves)."""
    return list(db.execute(select(Challenge.match_id)).scalars())
