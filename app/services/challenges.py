"""Use cases of direct challenges (contract v1.2 "People"): one player challenges another to a
match. The challenge makes a waiting match in the same transaction (the challenger's seat taken,
the target's seat kept by an invite nobody is shown) and stores the target's `challenge`
notification; the target accepts (takes that seat, by the invite path every seat-taking uses)
or declines with a reason; the challenger may cancel; an unanswered one expires. Whoever closes
a challenge first wins: the target seat's invite is claimed exactly once, by an accept or by the
close that withdraws it, and a closed challenge's match is ended unplayed."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from ..auth import new_match_id
from ..errors import ApiError, checked_id, not_found
from ..persistence import blocks, follows, notifications
from ..persistence import challenges as rows
from ..persistence import lobby as lobby_rows
from ..persistence import players as player_rows
from ..persistence.challenges import ChallengeRow
from ..persistence.models import Player
from ..persistence.people_tables import DirectChallenge
from ..persistence.records import PlayerRow
from ..push.changes import Notified
from .core import Core
from .matches import Matches, SeatTaken, player_required
from .players import PlayerRef, player_of, whose
from .unplayed import end_unplayed

log = logging.getLogger("watergate.challenges")
REASONS = ("generic", "later", "too_fast", "too_slow", "rated", "casual", "game")
MAX_OPEN = 10  # open challenges one player has sent
LISTED = 50  # of each list
ANSWERED_SHOWN = timedelta(hours=24)  # the challenger sees what became of a challenge this long
LIVE_EXPIRY = timedelta(minutes=20)  # a challenge to a live game (a real-time clock)
SLOW_EXPIRY = timedelta(days=3)  # untimed or correspondence
SWEPT = 100  # expired challenges closed per sweep


@dataclass(frozen=True)
class Wanted:
    """What a challenge asks for."""

    to: str
    game: str
    players: int | None
    role: str
    clock: str
    clock_option: dict[str, Any] | None
    rated: bool
    seats: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Made:
    challenge_id: str
    taken: SeatTaken  # the challenger's seat; `invites` without the target's


def refused() -> ApiError:
    """The target's setting, or a block either way: one answer for both, so a block is never
    told apart from a setting."""
    return ApiError(403, "challenge_refused", "This player does not take your challenges.")


def closed(row: ChallengeRow) -> ApiError:
    return ApiError(409, "challenge_closed", f"This challenge is {row.status}.")


def may_challenge(db: Session, me: PlayerRow, target: Player) -> bool:
    """Whether `me` may send `target` a challenge: no block either way, and the target's
    "who may challenge me" lets them."""
    if blocks.apart(db, me.id, target.id):
        return False
    setting = target.challenges_from
    if setting == "nobody":
        return False
    if setting == "registered":
        return me.has_account
    if setting == "friends":
        return follows.friends(db, me.id, target.id)
    return True


class _Lost(Exception):
    """An expiry that an accept overtook: its transaction is rolled back."""


class Challenges:
    def __init__(self, core: Core, matches: Matches) -> None:
        self.core, self.matches = core, matches

    async def create(self, token: str | PlayerRef | None, wanted: Wanted) -> Made:
        """The challenge, by a player token's player or a bot's API token's account (a
        `PlayerRef`): its match made with the challenger seated, the target told."""
        if not token:
            raise player_required()
        target_id = checked_id(wanted.to, "player")
        challenge_id = new_match_id()
        noted: list[tuple[str, int]] = []

        def also(
            db: Session, me: PlayerRow | None, match_id: str, mine: str, codes: dict[str, str]
        ) -> None:
            if me is None:
                raise player_required()
            noted.append(self._record(db, me, match_id, codes, challenge_id, target_id, wanted))

        made = await self.matches.create(
            wanted.game, wanted.role, "human", wanted.clock_option, token,
            rated=wanted.rated, players=wanted.players, seats=wanted.seats, also=also,
        )  # fmt: skip
        target, notification = noted[0]
        await self.core.publish(Notified(target, notification))
        target_seat = next(iter(made.invites))
        others = {s: c for s, c in made.invites.items() if s != target_seat}
        first = next(iter(others.values()), None)
        return Made(
            challenge_id, SeatTaken(made.match_id, made.seat, made.seat_token, first, False, others)
        )

    def _record(
        self, db: Session, me: PlayerRow, match_id: str, codes: dict[str, str], challenge_id: str,
        target_id: str, wanted: Wanted,
    ) -> tuple[str, int]:  # fmt: skip
        """The checks and rows of a challenge, in its match's transaction (a refusal writes
        nothing): the challenge and the target's notification."""
        if target_id == me.id:
            raise ApiError(422, "invalid_request", "You cannot challenge yourself.")
        lobby_rows.hold_creator(db, me.id, None)  # two challenges at once count each other
        target = db.get(Player, target_id)
        if target is None or target.deleted_at is not None:
            raise not_found("player")
        if not may_challenge(db, me, target):
            raise refused()
        if wanted.rated and target.password_hash is None:
            raise ApiError(422, "rated_needs_accounts", "A rated match is between two accounts.")
        if not codes:
            raise ApiError(422, "invalid_request", "The challenged player needs a seat.")
        now = self.core.stamp()
        if rows.open_to(db, me.id, target.id, now):
            raise ApiError(409, "challenge_open", "You have already challenged this player.")
        if rows.open_count(db, me.id, now) >= MAX_OPEN:
            raise ApiError(429, "too_many_challenges", f"You have {MAX_OPEN} open challenges.")
        seat = next(iter(codes))
        live = wanted.clock.startswith("realtime")
        row = DirectChallenge(
            id=challenge_id, challenger=me.id, target=target.id, match_id=match_id,
            game=wanted.game, players=wanted.players or 2, clock=wanted.clock,
            rated=wanted.rated, target_seat=seat, status=rows.OPEN, created_at=now,
            expires_at=now + (LIVE_EXPIRY if live else SLOW_EXPIRY),
        )  # fmt: skip
        rows.add(db, row)
        data = {
            "challenge_id": challenge_id, "from": {"player_id": me.id, "name": me.name},
            "game": row.game, "players": row.players, "clock": row.clock, "rated": row.rated,
        }  # fmt: skip
        return target.id, notifications.add(db, target.id, "challenge", data, now)

    async def between_bots(self, token: str | PlayerRef | None, target: str) -> str | None:
        """The challenger's id when it and `target` are both bot accounts (bots challenging
        bots are counted apart, a few an hour: an endless bot-against-bot loop would fill the
        tables and the bot leaderboard); None otherwise, or when the target is unknown (the
        challenge itself then answers 404)."""
        if not token:
            return None
        wanted = checked_id(target, "player")

        def run() -> str | None:
            with self.core.db.reader() as db:
                me = whose(db, token)
                them = player_rows.player_by_id(db, wanted)
            return me.id if me and me.bot and them and them.bot else None

        return await run_in_threadpool(run)

    async def listed(self, token: str | None) -> tuple[list[ChallengeRow], list[ChallengeRow]]:
        """(incoming, outgoing) of the player."""
        if not token:
            raise player_required()
        return await run_in_threadpool(self._listed, token)

    def _listed(self, token: str) -> tuple[list[ChallengeRow], list[ChallengeRow]]:
        now = self.core.stamp()
        with self.core.db.reader() as db:
            me = player_of(db, token)
            assert me is not None
            return (
                rows.incoming(db, me.id, now, LISTED),
                rows.outgoing(db, me.id, now - ANSWERED_SHOWN, LISTED),
            )

    async def accept(self, token: str | PlayerRef | None, challenge_id: str) -> SeatTaken:
        """The target takes its seat: the match starts once every person sits."""
        if not token:
            raise player_required()
        wanted = checked_id(challenge_id, "challenge")
        row, code = await run_in_threadpool(self._acceptable, token, wanted)
        try:
            taken = await self.matches.claim(code, token)
        except ApiError as err:
            if err.status == 409:
                raise ApiError(409, "challenge_closed", "This challenge was closed.") from err
            raise
        noted = await run_in_threadpool(self._close, row, "accepted", None, row.challenger)
        if noted is not None:
            await self.core.publish(Notified(row.challenger, noted))
        return taken

    def _party(
        self, db: Session, token: str | PlayerRef, challenge_id: str
    ) -> tuple[PlayerRow, ChallengeRow]:
        me = whose(db, token)
        assert me is not None
        row = rows.get(db, challenge_id)
        if row is None or me.id not in (row.challenger, row.target):
            raise not_found("challenge")  # nobody else learns that it exists
        return me, row

    def _acceptable(self, token: str | PlayerRef, challenge_id: str) -> tuple[ChallengeRow, str]:
        with self.core.db.reader() as db:
            me, row = self._party(db, token, challenge_id)
            if me.id != row.target:
                raise ApiError(403, "not_your_challenge", "Only the challenged player accepts.")
            if row.status != rows.OPEN:
                raise closed(row)
            if row.expires_at <= self.core.stamp():
                raise ApiError(409, "challenge_expired", "This challenge has expired.")
            if blocks.apart(db, row.challenger, row.target):
                raise refused()
            code = rows.target_code(db, row.match_id, row.target_seat)
        if code is None:
            raise closed(row)
        return row, code

    def _close(
        self, row: ChallengeRow, status: str, reason: str | None, tell: str | None
    ) -> int | None:
        """Mark an accepted challenge so, telling the challenger; the notification's id."""
        with self.core.db.write() as db:
            now = self.core.stamp()
            if not rows.answer(db, row.id, status, now, reason):
                return None
            return self._note(db, row, status, reason, tell, now)

    def _note(
        self, db: Session, row: ChallengeRow, status: str, reason: str | None, tell: str | None,
        now: Any,
    ) -> int | None:  # fmt: skip
        if tell is None:
            return None
        other = row.target if tell == row.challenger else row.challenger
        name = row.target_name if tell == row.challenger else row.challenger_name
        data: dict[str, Any] = {
            "challenge_id": row.id, "match_id": row.match_id, "game": row.game,
            "by": {"player_id": other, "name": name},
        }  # fmt: skip
        if reason is not None:
            data["reason"] = reason
        return notifications.add(db, tell, f"challenge_{status}", data, now)

    async def decline(self, token: str | PlayerRef | None, challenge_id: str, reason: str) -> None:
        if reason not in REASONS:
            raise ApiError(422, "invalid_reason", f"reason must be one of {', '.join(REASONS)}.")
        await self._end(token, challenge_id, "declined", reason)

    async def cancel(self, token: str | PlayerRef | None, challenge_id: str) -> None:
        await self._end(token, challenge_id, "canceled", None)

    async def _end(
        self, token: str | PlayerRef | None, challenge_id: str, status: str, reason: str | None
    ) -> None:
        if not token:
            raise player_required()
        row, tell, noted = await run_in_threadpool(
            self._withdraw, token, checked_id(challenge_id, "challenge"), status, reason
        )
        await self.end_matches([row.match_id])
        if noted is not None:
            await self.core.publish(Notified(tell, noted))

    def _withdraw(
        self, token: str | PlayerRef, challenge_id: str, status: str, reason: str | None
    ) -> tuple[ChallengeRow, str, int | None]:
        with self.core.db.write() as db:
            me, row = self._party(db, token, challenge_id)
            by = row.target if status == "declined" else row.challenger
            if me.id != by:
                who = "challenged player declines" if by == row.target else "challenger cancels"
                raise ApiError(403, "not_your_challenge", f"Only the {who}.")
            now = self.core.stamp()
            if not rows.answer(db, row.id, status, now, reason):
                raise closed(rows.get(db, row.id) or row)
            if not rows.withdraw_seat(db, row.match_id, row.target_seat, now):
                raise ApiError(409, "challenge_closed", "This challenge was just accepted.")
            tell = row.challenger if status == "declined" else row.target
            return row, tell, self._note(db, row, status, reason, tell, now)

    async def expire(self) -> list[str]:
        """Close the challenges past their expiry and end their matches (the sweep)."""
        ended = await run_in_threadpool(self._expire)
        await self.end_matches(ended)
        return ended

    def _expire(self) -> list[str]:
        now = self.core.stamp()
        with self.core.db.reader() as db:
            due = rows.due(db, now, SWEPT)
        ended = []
        for row in due:
            try:
                with self.core.db.write() as db:
                    if not rows.answer(db, row.id, "expired", now):
                        continue  # answered meanwhile
                    if not rows.withdraw_seat(db, row.match_id, row.target_seat, now):
                        raise _Lost  # accepted meanwhile: undo the expiry
            except _Lost:
                continue
            ended.append(row.match_id)
        return ended

    async def end_matches(self, match_ids: list[str]) -> None:
        """End the waiting matches of closed challenges, unplayed (nobody is ranked)."""
        await end_unplayed(self.core, match_ids)
