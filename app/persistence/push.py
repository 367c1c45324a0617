"""The SQL of Web Push: players' browser subscriptions (endpoint and keys) and the server's
VAPID key pair (one row, made on the first start)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .models import PushKey, PushSubscription

MAX_PER_PLAYER = 10  # browsers a player keeps subscribed; the oldest goes first


@dataclass(frozen=True, slots=True)
class Subscription:
    endpoint: str
    p256dh: str
    auth: str
    lang: str


def subscribe(db: Session, player: str, sub: Subscription, when: datetime) -> None:
    """Keep the browser's subscription for the player (a known endpoint moves to this player)."""
    db.execute(delete(PushSubscription).where(PushSubscription.endpoint == sub.endpoint))
    db.add(
        PushSubscription(
            player=player, endpoint=sub.endpoint, p256dh=sub.p256dh, auth=sub.auth,
            lang=sub.lang, created_at=when,
        )
    )  # fmt: skip
    db.flush()
    kept = select(PushSubscription.id).where(PushSubscription.player == player)
    ids = list(db.execute(kept.order_by(PushSubscription.id.desc())).scalars())
    if len(ids) > MAX_PER_PLAYER:
        db.execute(delete(PushSubscription).where(PushSubscription.id.in_(ids[MAX_PER_PLAYER:])))


def unsubscribe(db: Session, player: str, endpoint: str) -> bool:
    gone = db.connection().execute(
        delete(PushSubscription).where(
            PushSubscription.player == player, PushSubscription.endpoint == endpoint
        )
    )
    return gone.rowcount == 1


def drop(db: Session, endpoint: str) -> None:
    """The push service said the subscription is gone (404/410)."""
    db.execute(delete(PushSubscription).where(PushSubscription.endpoint == endpoint))


def subscriptions_of(db: Session, player: str) -> list[Subscription]:
    query = select(
        PushSubscription.endpoint, PushSubscription.p256dh, PushSubscription.auth,
        PushSubscription.lang,
    ).where(PushSubscription.player == player)  # fmt: skip
    return [Subscription(*row) for row in db.execute(query)]


def stored_key(db: Session) -> tuple[str, str] | None:
    """(private PEM, public key) of the server's VAPID key pair, if made."""
    row = db.execute(select(PushKey.private_pem, PushKey.public_key).where(PushKey.id == 1)).first()
    return None if row is None else (str(row[0]), str(row[1]))


def keep_key(db: Session, private_pem: str, public_key: str, when: datetime) -> bool:
    """Store the key pair; false when another process stored its own first (use that one)."""
    try:
        with db.begin_nested():
            db.add(PushKey(id=1, private_pem=private_pem, public_key=public_key, created_at=when))
    except IntegrityError:
        return False
    return True
