"""Around the game itself: resigning, rematches with roles swapped, spectators, clock expiry and
abandonment. None of it touches the rules: a match can end here without the engine knowing."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select, update

import engine.watergate as engine
from engine.watergate import Role

from .clock import REALTIME_MINUTES, TURN_DAYS, rule_from_options
from .errors import ApiError, checked_id, not_found
from .matches import MatchService, end_on_time, out_of_time
from .models import Match, Rematch, Seat
from .security import new_token, token_hash
from .store import fresh_entry
from .wire import MatchInfo

ABANDON_AFTER = timedelta(days=30)


def clock_option(kind: str | None, amount: int | None) -> dict[str, Any] | None:
    """Validate the clock chosen at creation: none, realtime 15/30 min, or turn-based 1/3 days."""
    if kind in (None, "", "none"):
        return None
    if kind == "realtime" and amount in REALTIME_MINUTES:
        return {"kind": "realtime", "minutes": amount, "increment_s": 10}
    if kind == "turn" and amount in TURN_DAYS:
        return {"kind": "turn", "days": amount}
    raise ApiError(
        422, "invalid_clock", "Clocks: realtime with 15 or 30 minutes, or turn with 1 or 3 days."
    )


@dataclass(frozen=True)
class NewSeat:
    match_id: str
    role: Role
    seat_token: str


class Lifecycle:
    """Use cases that change a match's status from outside the rules (run in worker threads)."""

    def __init__(self, service: MatchService) -> None:
        self.service = service
        self.db = service.db

    def resign(self, match_id: str, role: Role) -> None:
        """The player gives up; the opponent wins."""
        with self.db.write() as db:
            match = db.get(Match, checked_id(match_id), with_for_update=True)
            if match is None:
                raise not_found()
            if match.status not in ("active", "waiting"):
                raise ApiError(422, "match_over", "The match has already ended.")
            match.status = "finished"
            match.winner = engine.other(role)
            match.win_reason = "resigned"
            match.ended_by = role
            match.updated_at = self.service.stamp()

    def offer_rematch(self, match_id: str, role: Role) -> NewSeat | None:
        """Offer a rematch with roles swapped; against the computer it starts at once."""
        with self.db.write() as db:
            match = db.get(Match, checked_id(match_id), with_for_update=True)
            if match is None:
                raise not_found()
            if match.status != "finished":
                raise ApiError(409, "match_not_finished", "A rematch is offered after the end.")
            if db.get(Rematch, checked_id(match_id)) is not None:
                raise ApiError(409, "rematch_offered", "A rematch has already been offered.")
            db.add(Rematch(old_match_id=match_id, offered_by=role))
            vs_bot = "bot" in (match.editor_kind, match.nixon_kind)
        return self.accept_rematch(match_id, engine.other(role), by_bot=True) if vs_bot else None

    def accept_rematch(self, match_id: str, role: Role, by_bot: bool = False) -> NewSeat:
        """Accept the other seat's offer: a new match with roles swapped; returns my new seat."""
        with self.db.write() as db:
            match = db.get(Match, checked_id(match_id), with_for_update=True)
            rematch = db.get(Rematch, checked_id(match_id), with_for_update=True)
            if match is None or rematch is None:
                raise ApiError(404, "not_found", "No rematch has been offered.")
            if rematch.offered_by == role and not by_bot:
                raise ApiError(409, "own_offer", "Your opponent has to accept your offer.")
            if rematch.new_match_id is not None:
                raise ApiError(409, "rematch_started", "The rematch has already started.")
            # roles swapped: each seat's kind moves to the other role
            new = self.service.new_row(
                dict(match.options or {}),
                editor_kind=match.nixon_kind,
                nixon_kind=match.editor_kind,
            )
            db.add(new)
            db.flush()
            rematch.new_match_id = new.id
        self.service.store.put(fresh_entry(new.id, new.seed))
        human: Role = "editor" if (rematch.offered_by if by_bot else role) == "editor" else "nixon"
        return self.claim_rematch(match_id, human)

    def claim_rematch(self, match_id: str, role: Role) -> NewSeat:
        """The old seat `role` takes its seat (the other role) in the rematch, once."""
        token = new_token()
        flag = Rematch.claimed_editor if role == "editor" else Rematch.claimed_nixon
        with self.db.write() as db:
            rematch = db.get(Rematch, checked_id(match_id))
            if rematch is None or rematch.new_match_id is None:
                raise ApiError(404, "not_found", "No rematch has started.")
            won = db.execute(
                update(Rematch)
                .where(Rematch.old_match_id == match_id, flag.is_(False))
                .values({flag: True})
            )
            if won.rowcount != 1:  # type: ignore[attr-defined]
                raise ApiError(409, "rematch_claimed", "This seat of the rematch is already taken.")
            new_role = engine.other(role)
            db.add(Seat(match_id=rematch.new_match_id, role=new_role, token_hash=token_hash(token)))
            new = db.get(Match, rematch.new_match_id, with_for_update=True)
            assert new is not None
            seats = db.scalars(select(Seat.role).where(Seat.match_id == new.id)).all()
            if new.status == "waiting" and len(seats) == 2:
                new.status = "active"
                new.activated_at = new.updated_at = self.service.stamp()
            return NewSeat(new.id, new_role, token)

    def spectate(self, match_id: str, key: str | None) -> tuple[MatchInfo, Any]:
        """The match for a spectator holding the match's spectator key."""
        info, entry = self.service.current(match_id)
        if (
            not key
            or not info.spectator_key
            or not secrets.compare_digest(key.encode(), info.spectator_key.encode())
        ):
            raise ApiError(403, "wrong_key", "This spectator link is not valid.")
        return info, entry

    def sweep(self, now: float) -> list[str]:
        """End matches whose deciding seat ran out of time; mark long-idle human matches
        abandoned. Returns the ids that changed (to push)."""
        changed = []
        cutoff = datetime.fromtimestamp(now, UTC) - ABANDON_AFTER
        with self.db.write() as db:
            idle = db.scalars(
                select(Match).where(
                    Match.status.in_(("waiting", "active")),
                    Match.updated_at < cutoff,
                    Match.editor_kind == "human",
                    Match.nixon_kind == "human",
                )
            ).all()
            for match in idle:
                match.status = "abandoned"
                match.ended_by = "abandoned"
                changed.append(match.id)
            clocked = [
                m
                for m in db.scalars(select(Match).where(Match.status == "active")).all()
                if rule_from_options(m.options) is not None
            ]
            for match in clocked:
                entry = self.service.store.load(db, match)
                loser = out_of_time(match, entry, now)
                if loser is not None:
                    end_on_time(match, loser, datetime.fromtimestamp(now, UTC))
                    changed.append(match.id)
        return changed

    def touch_seat(self, match_id: str, role: Role) -> None:
        """Remember when a seat was last connected."""
        with self.db.write() as db:
            db.execute(
                update(Seat)
                .where(Seat.match_id == match_id, Seat.role == role)
                .values(last_seen_at=self.service.stamp())
            )

    def last_seen(self, match_id: str, role: Role) -> float | None:
        with self.db.reader() as db:
            seen = db.scalar(
                select(Seat.last_seen_at).where(Seat.match_id == match_id, Seat.role == role)
            )
        return seen.timestamp() if seen else None
