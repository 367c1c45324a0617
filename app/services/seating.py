"""Taking a seat of a match that exists: by an invite's link, from the lobby (the open seat's
invite, as its link would), or in an accepted rematch. Each is a change run in the match
transaction (services.changes) like a move: under the row's lock it checks who may sit, claims
the invite and the seat (counted on the row, so every process sees the seats changed), starts
the match when its last person sits down, and offers the lobby the table's next open seat."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..auth import new_token, token_hash
from ..errors import ApiError, not_found
from ..persistence import seating
from ..persistence.cache import Entry
from ..persistence.moves import MoveTransaction
from ..persistence.records import MatchInfo, MatchRow, PlayerRow
from .changes import Changed, MatchChanges
from .core import Core
from .farming import unrate_twins
from .ratings import check_may_sit, is_rated


@dataclass(frozen=True)
class Refusals:
    """The codes a seat-taking path answers with: a link's, the lobby's, a rematch's."""

    own: tuple[str, str]
    taken: tuple[str, str]


BY_LINK = Refusals(
    ("own_invite", "This is your own invite: send it to a friend."),
    ("invite_claimed", "This invite link has already been used."),
)
FROM_LOBBY = Refusals(
    ("own_challenge", "This is your own challenge: wait for someone to join it."),
    ("taken", "Someone else has just taken this challenge."),
)
IN_REMATCH = Refusals(
    ("rematch_claimed", "This seat of the rematch is already taken."),
    ("rematch_claimed", "This seat of the rematch is already taken."),
)


@dataclass(frozen=True)
class Seated:
    """A seat just taken: its token (secret: for the person only), and whether the lobby's
    entry of the table changed (it offers another seat, or left the lobby when full)."""

    match_id: str
    seat: str
    token: str
    listed: bool


@dataclass(frozen=True)
class Seating:
    """Who takes which seat, and how: `code` is the invite claimed (None in a rematch, whose
    seats name their players already); `lobby`: only while the table is listed."""

    seat: str
    player: PlayerRow | None
    refuse: Refusals
    code: str | None = None
    lobby: bool = False


def take_seat(core: Core, match_id: str, asked: Seating) -> Seated:
    """Run the seat-taking change (in a worker thread); once committed, this process's cache
    knows the seat's token."""
    token = new_token()
    digest = token_hash(token)
    listed: list[bool] = []

    def change(tx: MoveTransaction, row: MatchRow, info: MatchInfo, entry: Entry) -> Changed:
        listed.append(_sit(tx, row, info, asked, digest, core.stamp()))
        return Changed(info, seats="taken")

    MatchChanges(core).run(match_id, change, core.stamp(), missing=not_found)
    core.cache.put_token(match_id, digest, asked.seat)
    return Seated(match_id, asked.seat, token, listed[0])


def _sit(
    tx: MoveTransaction, row: MatchRow, info: MatchInfo, asked: Seating, digest: str, when: datetime
) -> bool:
    """The checks and writes of taking the seat, under the row's lock; whether the lobby's entry
    of the table changed."""
    taken = ApiError(409, *asked.refuse.taken)
    if row.status not in ("waiting", "active"):
        raise taken  # (a link to a match that ended, or was aborted, before anyone took it)
    if asked.lobby and not seating.listed(tx, row.id):
        raise taken  # joined, cancelled or expired since the lobby showed it
    mine = asked.player.id if asked.player is not None else None
    if asked.code is not None:
        if mine is not None and any(s.player_id == mine for s in info.seats):
            # the creator opened their own link: claiming would hand them two seats
            raise ApiError(409, *asked.refuse.own)
        check_may_sit(row.options, asked.player)  # rated: accounts only
        if not seating.claim_invite(tx, asked.code, when):
            raise taken
    if not seating.claim_seat(tx, row.id, asked.seat, digest, mine):
        raise taken
    waiting = [
        s.name for s in info.seats if s.kind == "human" and not s.claimed and s.name != asked.seat
    ]
    if row.status == "waiting" and not waiting:  # the last person sat down: it starts
        seating.start(tx, row.id, when)
        if is_rated(row.options):  # two accounts made together do not rate each other (#40, 22)
            seated = {s.name: s.player_id for s in info.seats if s.kind == "human"}
            unrate_twins(tx, row, {**seated, asked.seat: mine}, when)
    return asked.code is not None and seating.relist(tx, row.id, waiting)
