"""The statements of a seat taken (by an invite's link, a lobby join, a rematch's seat) and of a
seat's change counted on its match row, written once against `Sql` so that they run in the match
transaction (persistence.moves) like every other change of a match. Each statement is a module
constant: the move path compiles each once."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import bindparam, delete, func, literal_column, select, update

from .repository import INVITES, MATCHES, SEATS
from .sql import Sql

CHALLENGES = MATCHES.metadata.tables["challenges"]

# Every change of a match's seats counts itself here, in its own transaction: a process whose
# cached seats are of another count reads them again (persistence.cache.current).
SEATS_CHANGED = (
    update(MATCHES)
    .where(MATCHES.c.id == bindparam("the_match"))
    .values(seats_version=MATCHES.c.seats_version + literal_column("1"))  # inline: no bind
)
CLAIM_INVITE = (
    update(INVITES)
    .where(INVITES.c.code == bindparam("the_code"), INVITES.c.claimed_at.is_(None))
    .values(claimed_at=bindparam("when"))
)
# A seat that already names its player (a rematch's, say) keeps it when a guest takes it.
CLAIM_SEAT = (
    update(SEATS)
    .where(
        SEATS.c.match_id == bindparam("the_match"),
        SEATS.c.name == bindparam("seat"),
        SEATS.c.kind == literal_column("'human'"),  # inline: the move path binds names only
        SEATS.c.token_hash.is_(None),
    )
    .values(
        token_hash=bindparam("digest"),
        player=func.coalesce(bindparam("new_player", type_=SEATS.c.player.type), SEATS.c.player),
    )
)
START = (
    update(MATCHES)
    .where(MATCHES.c.id == bindparam("the_match"))
    .values(
        status=literal_column("'active'"),
        activated_at=bindparam("when"),
        updated_at=bindparam("when"),
    )
)
LISTED = select(CHALLENGES.c.match_id).where(CHALLENGES.c.match_id == bindparam("the_match"))
REOPEN = (
    update(CHALLENGES)
    .where(CHALLENGES.c.match_id == bindparam("the_match"))
    .values(open_role=bindparam("next_seat"))
)
UNLIST = delete(CHALLENGES).where(CHALLENGES.c.match_id == bindparam("the_match"))


def seats_changed(sql: Sql, match_id: str) -> None:
    sql.write(SEATS_CHANGED, {"the_match": match_id})


def claim_invite(sql: Sql, code: str, when: datetime) -> bool:
    """Mark the invite claimed; false when someone claimed it first."""
    return sql.write(CLAIM_INVITE, {"the_code": code, "when": when}) == 1


def claim_seat(sql: Sql, match_id: str, seat: str, digest: str, player: str | None) -> bool:
    """Give a person's free seat to the token with this hash (and to the player, if one takes
    it), counting the change; false when it was taken first."""
    params = {"the_match": match_id, "seat": seat, "digest": digest, "new_player": player}
    if sql.write(CLAIM_SEAT, params) != 1:
        return False
    seats_changed(sql, match_id)
    return True


def start(sql: Sql, match_id: str, when: datetime) -> None:
    """The last person sat down: the match starts now."""
    sql.write(START, {"the_match": match_id, "when": when})


def listed(sql: Sql, match_id: str) -> bool:
    """Whether the table is in the lobby."""
    return bool(sql.rows(LISTED, {"the_match": match_id}))


def relist(sql: Sql, match_id: str, still_open: list[str]) -> bool:
    """After a seat is taken, the lobby offers the table's next open seat, or drops the table
    once full; whether it was listed (its lobby entry changed)."""
    if still_open:
        offered = listed(sql, match_id)
        if offered:
            sql.write(REOPEN, {"the_match": match_id, "next_seat": still_open[0]})
        return offered
    return sql.write(UNLIST, {"the_match": match_id}) == 1
