"""Use cases: create a match, claim an invite, read a seat's view, submit an action.

Submitting is one transaction: lock, check version, run the engine, insert the action, commit —
and only then publish."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

import engine.watergate as engine
from engine import EngineError
from engine.watergate import Role

from .clock import Clock, SystemClock, remaining, rule_from_options
from .db import Database
from .errors import ApiError, checked_id, from_engine, not_found, unauthorized
from .models import Invite, Match, MatchAction, Rematch, Seat
from .security import new_invite_code, new_match_id, new_seed, new_token, token_hash
from .store import Entry, StateStore, fresh_entry
from .wire import MatchInfo

Kind = Literal["human", "bot"]


@dataclass(frozen=True)
class Created:
    match_id: str
    role: Role
    seat_token: str
    invite_code: str | None


@dataclass(frozen=True)
class SeatRef:
    match_id: str
    role: Role


class MatchService:
    """Owns the use cases; every method runs in a worker thread (blocking database I/O)."""

    def __init__(self, db: Database, store: StateStore, clock: Clock | None = None) -> None:
        self.db = db
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self._seats: dict[str, SeatRef] = {}  # token hash -> seat (seats never change)
        self._infos: dict[str, MatchInfo] = {}  # match id -> row facts as last read or written

    # ---- creating and joining ----------------------------------------------------------------

    def create(self, role: str, opponent: Kind, clock: dict[str, Any] | None = None) -> Created:
        mine: Role = secrets.choice(("editor", "nixon")) if role == "random" else role  # type: ignore[assignment]
        theirs = engine.other(mine)
        token, code = new_token(), new_invite_code() if opponent == "human" else None
        match = self.new_row(
            {"opponent": opponent, **({"clock": clock} if clock else {})},
            editor_kind="human" if mine == "editor" or opponent == "human" else "bot",
            nixon_kind="human" if mine == "nixon" or opponent == "human" else "bot",
        )
        with self.db.write() as db:
            db.add(match)
            db.flush()
            db.add(Seat(match_id=match.id, role=mine, token_hash=token_hash(token)))
            if code is not None:
                db.add(Invite(code=code, match_id=match.id, role=theirs))
        self.store.put(fresh_entry(match.id, match.seed))
        self._infos[match.id] = MatchInfo.of(match)
        return Created(match.id, mine, token, code)

    def new_row(self, options: dict[str, Any], editor_kind: str, nixon_kind: str) -> Match:
        """A fresh match row: new id, seed and spectator key; active at once against a bot,
        waiting for the second person otherwise."""
        vs_bot = "bot" in (editor_kind, nixon_kind)
        return Match(
            id=new_match_id(),
            seed=new_seed(),
            rules_version=engine.RULES_VERSION,
            options=options,
            spectator_key=new_invite_code(),
            activated_at=self.stamp() if vs_bot else None,
            status="active" if vs_bot else "waiting",
            version=0,
            round=1,
            editor_kind=editor_kind,
            nixon_kind=nixon_kind,
        )

    def claim(self, code: str) -> Created:
        """Seat the invited player; exactly one claim of a code succeeds."""
        token = new_token()
        with self.db.write() as db:
            invite = db.get(Invite, checked_id(code, "invite"))
            if invite is None:
                raise not_found("invite")
            claimed = db.execute(
                update(Invite)
                .where(Invite.code == code, Invite.claimed_at.is_(None))
                .values(claimed_at=self.stamp())
            )
            if claimed.rowcount != 1:  # type: ignore[attr-defined]
                raise ApiError(409, "invite_claimed", "This invite link has already been used.")
            db.add(Seat(match_id=invite.match_id, role=invite.role, token_hash=token_hash(token)))
            match = db.get(Match, invite.match_id, with_for_update=True)
            assert match is not None
            if match.status == "waiting":
                match.status = "active"
                match.updated_at = match.activated_at = self.stamp()
            role: Role = "editor" if invite.role == "editor" else "nixon"
            self._infos[match.id] = MatchInfo.of(match)
            return Created(invite.match_id, role, token, None)

    # ---- reading --------------------------------------------------------------------------------

    def stamp(self) -> datetime:
        """Now, from the injected clock (tests control time; clocks are computed from stamps)."""
        return _utc(self.clock.now())

    def seat_for(self, token: str | None, match_id: str) -> Role:
        """The role a seat token holds in this match: 401 unknown token, 403 another match's."""
        if not token:
            raise unauthorized()
        digest = token_hash(token)
        ref = self._seats.get(digest)
        if ref is None:
            with self.db.reader() as db:
                seat = db.scalar(select(Seat).where(Seat.token_hash == digest))
            if seat is None:
                raise unauthorized()
            role: Role = "editor" if seat.role == "editor" else "nixon"
            ref = self._seats[digest] = SeatRef(seat.match_id, role)
        if ref.match_id != match_id:
            raise ApiError(403, "wrong_match", "This seat token belongs to another match.")
        return ref.role

    def current(self, match_id: str) -> tuple[MatchInfo, Entry]:
        """The match as stored now (catching the cache up with other processes' actions)."""
        with self.db.reader() as db:
            match = db.get(Match, checked_id(match_id))
            if match is None:
                raise not_found()
            entry = self.store.load(db, match)
            rematch = None
            if (
                match.status == "finished"
                and (row := db.get(Rematch, checked_id(match_id))) is not None
            ):
                rematch = {
                    "offered_by": row.offered_by,
                    "match_id": row.new_match_id,
                    "claimed": {"editor": row.claimed_editor, "nixon": row.claimed_nixon},
                }
            info = self._infos[match_id] = MatchInfo.of(match, rematch)
            return info, entry

    def known_info(self, match_id: str) -> MatchInfo | None:
        """The match row as last seen by this process, if any (no database round trip)."""
        return self._infos.get(match_id)

    def cached(self, match_id: str, version: int) -> tuple[MatchInfo, Entry] | None:
        """The match from memory if it is known at `version` or later (no database round trip)."""
        info, entry = self._infos.get(match_id), self.store.get(match_id)
        if info is None or entry is None or entry.version < version:
            return None
        return info, entry

    # ---- acting ---------------------------------------------------------------------------------

    def submit(
        self,
        match_id: str,
        role: Role,
        action: Any,
        expected_version: int | None,
        now: float | None = None,
    ) -> tuple[MatchInfo, Entry]:
        """Apply one action in one transaction; raises ApiError. Publishing is the caller's job.

        A move that arrives after its seat's clock ran out is refused and ends the match."""
        now = self.clock.now() if now is None else now
        timed_out = False
        try:
            with self.db.write() as db:
                match = db.get(Match, checked_id(match_id), with_for_update=True)
                if match is None:
                    raise not_found()
                if match.status == "waiting":
                    raise ApiError(409, "match_not_started", "The opponent has not joined yet.")
                if match.status != "active":
                    raise ApiError(422, "match_over", "The match has ended.")
                if expected_version is not None and expected_version != match.version:
                    raise ApiError(
                        409,
                        "stale_version",
                        f"The match is at version {match.version}, not {expected_version}.",
                    )
                entry = self.store.load(db, match)
                if out_of_time(match, entry, now) == role:
                    end_on_time(match, role, _utc(now))
                    timed_out = True
                else:
                    try:
                        step = engine.apply(entry.state, role, action)
                    except EngineError as err:
                        raise from_engine(err) from None
                    new = entry.extended(step.state, step.events, now, role)
                    db.add(
                        MatchAction(
                            match_id=match_id,
                            seq=new.version,
                            role=role,
                            action=action,
                            created_at=_utc(now),
                        )
                    )
                    _record_progress(match, new, _utc(now))
        except IntegrityError:
            raise ApiError(409, "stale_version", "Another move was accepted first.") from None
        if timed_out:
            self._infos[match_id] = MatchInfo.of(match)
            raise ApiError(422, "match_over", "Your time ran out: the match is over.")
        self.store.put(new)
        info = self._infos[match_id] = MatchInfo.of(match)
        return info, new

    def list_bot_turns(self) -> list[str]:
        """Active matches waiting for a computer seat (to resume bots after a restart)."""
        with self.db.reader() as db:
            rows = db.scalars(
                select(Match.id).where(
                    Match.status == "active",
                    (Match.editor_kind == "bot") | (Match.nixon_kind == "bot"),
                )
            ).all()
        return list(rows)


def _utc(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, UTC)


def out_of_time(match: Match, entry: Entry, now: float) -> Role | None:
    """The deciding seat if its clock has run out at `now` (clocked, active matches only)."""
    rule = rule_from_options(match.options)
    decider = engine.current_role(entry.state)
    if rule is None or match.status != "active" or match.activated_at is None or decider is None:
        return None
    left = remaining(rule, match.activated_at.timestamp(), entry.stamps, entry.actors, decider, now)
    return decider if left[decider] <= 0 else None


def end_on_time(match: Match, loser: Role, when: datetime) -> None:
    """The seat that ran out of time loses."""
    match.status = "finished"
    match.winner = engine.other(loser)
    match.win_reason = "timeout"
    match.ended_by = loser
    match.updated_at = when


def _record_progress(match: Match, entry: Entry, when: datetime) -> None:
    s = entry.state
    match.version = entry.version
    match.round = s.round
    match.updated_at = when
    if s.winner is not None:
        match.status = "finished"
        match.winner = s.winner
        match.win_reason = s.win_reason
