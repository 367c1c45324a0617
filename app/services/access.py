"""Who a request is: a seat token resolved to its match and seat (cached, checked against the
stored match on every use so a deleted match's tokens stop working at once), or a spectator key."""

from __future__ import annotations

import secrets

from ..auth import token_hash
from ..errors import ApiError, checked_id, not_found, unauthorized
from ..persistence import cache as cached
from ..persistence import repository as repo
from ..persistence import seat_keys
from ..persistence.cache import Entry
from ..persistence.records import MatchInfo
from .core import Core


def seat_for(core: Core, token: str | None, match_id: str) -> str:
    """The seat a token holds in this match: 401 unknown token, 403 another match's."""
    if not token:
        raise unauthorized()
    digest = token_hash(token)
    found = core.cache.token(digest)
    if found is None:
        with core.db.reader() as db:
            found = repo.seat_by_token(db, digest)
            # Not a seat's own token: maybe a key given to another device of the seat's player.
            # Never cached: signing that device out deletes the key, on every process at once.
            key = seat_keys.seat_by_key(db, digest) if found is None else None
        if key is not None:
            found = key
        elif found is None:
            raise unauthorized()
        else:
            core.cache.put_token(found[0], digest, found[1])
    if found[0] != match_id:
        raise ApiError(403, "wrong_match", "This seat token belongs to another match.")
    return found[1]


def current(core: Core, match_id: str) -> tuple[MatchInfo, Entry] | None:
    """The match as stored now, catching the cache up with other processes' changes."""
    with core.db.reader() as db:
        found = cached.load(db, core.cache, checked_id(match_id))
    if found is not None:
        found[1].warm()
    return found


def seat_and_match(core: Core, token: str | None, match_id: str) -> tuple[str, MatchInfo, Entry]:
    """The seat and the match as stored now; a token whose match was deleted is unknown (401)."""
    seat = seat_for(core, token, match_id)
    found = current(core, match_id)
    if found is None:
        raise unauthorized()
    return seat, *found


def spectated(core: Core, match_id: str, key: str | None) -> tuple[MatchInfo, Entry]:
    """The match for a spectator holding the match's spectator key."""
    found = current(core, match_id)
    if found is None:
        raise not_found()
    check_key(found[0], key)
    return found


def check_key(info: MatchInfo, key: str | None) -> None:
    """403 unless `key` is the match's spectator key (compared in constant time)."""
    if (
        not key
        or not info.spectator_key
        or not secrets.compare_digest(key.encode(), info.spectator_key.encode())
    ):
        raise ApiError(403, "wrong_key", "This spectator link is not valid.")
