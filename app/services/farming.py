"""Rating farming (issue 40, finding 22): one person with two accounts could feed one of them
rating points. A player remembers a keyed hash of the address it was made from; when a rated
match starts between two players made from one address within a day, it plays unrated instead
(its view says so at once) and the site files a report for the moderators. Addresses that tell
nothing about the person (loopback: a proxy the server is not told to trust; no address at all)
are not recorded, so a misconfigured proxy does not make every new pair of accounts unrated."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
from datetime import datetime, timedelta
from typing import Any, Final, Protocol

from sqlalchemy.orm import Session

from ..config import Settings
from ..persistence import origins as store
from ..persistence import push as push_keys
from ..persistence.sql import Sql

TOGETHER: Final = timedelta(hours=24)  # players made this close together from one address


def telling(address: str) -> bool:
    """Whether an address (as the rate limits count it: IPv4, or an IPv6 /64) names a client."""
    try:
        network = ipaddress.ip_network(address, strict=False)
    except ValueError:
        return False  # not an address: a test client, a socket file
    return not (network.is_loopback or network.is_unspecified)


def origin_digest(db: Session, settings: Settings, address: str | None) -> str | None:
    """The keyed hash of `address` a new player keeps (None for an address telling nothing).
    The key is the server's own secret VAPID key (configured, or made on the first start and
    kept in the database), so the database alone does not give the addresses back."""
    if address is None or not telling(address):
        return None
    stored = push_keys.stored_key(db)
    secret = settings.vapid_private_key or (stored[0] if stored else "")
    key = hashlib.sha256(b"created-from:" + secret.encode()).digest()
    return hmac.new(key, address.encode(), hashlib.sha256).hexdigest()


def remember_origin(db: Session, settings: Settings, player_id: str, address: str | None) -> None:
    digest = origin_digest(db, settings, address)
    if digest is not None:
        store.set_origin(db, player_id, digest)


def twins(sql: Sql, players: list[str]) -> list[tuple[str, str]]:
    """Pairs (older, newer) of `players` made from one address within a day."""
    made = {p: found for p in set(players) if (found := store.origin(sql, p)) is not None}
    pairs = []
    ordered = sorted(made.items(), key=lambda item: (item[1][1], item[0]))
    for i, (older, (where, when)) in enumerate(ordered):
        for newer, (there, then) in ordered[i + 1 :]:
            if where is not None and where == there and then - when <= TOGETHER:
                pairs.append((older, newer))
    return pairs


class MatchRow(Protocol):
    """What unrating needs of a match: its id and options (a locked row, or a new match)."""

    @property
    def id(self) -> str: ...

    @property
    def options(self) -> dict[str, Any]: ...


def unrate_twins(
    sql: Sql, row: MatchRow, seated: dict[str, str | None], when: datetime
) -> dict[str, Any] | None:
    """In the transaction that starts a rated match (`seated`: seat -> player, the one just
    taken included; a tournament's game as it is made): if two of its players were made from
    one address within a day, the match is made unrated and a report about the newer one is
    filed. Its new options if it was."""
    players = [p for p in seated.values() if p is not None]
    pairs = twins(sql, players)
    if not pairs:
        return None
    options = {**row.options, "rated": False, "unrated_by": "same_origin"}
    store.set_options(sql, row.id, options)
    for older, newer in pairs:
        text = (
            f"Automatic: a rated match between {older} and {newer}, players made from one "
            "address within a day, was played unrated (possible rating farming)."
        )
        store.file_report(sql, newer, row.id, text, when)
    return options
