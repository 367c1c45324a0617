"""What the admin and moderators do to a tournament (issue 46): list every tournament (private
ones too), cancel one, pause and resume its pairing, remove a player (who may not join again),
and read its record; every action is
recorded with who, when and why. A canceled tournament's games in progress play on as ordinary
matches; their results still count in nobody's standings, as the tournament has none."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from ..errors import ApiError, checked_id, not_found
from ..persistence import tournament_games as games_repo
from ..persistence import tournaments as repo
from ..persistence.models import Player
from ..push.changes import TournamentChanged
from .core import Core
from .moderation import not_moderator
from .players import player_of
from .tournaments import game_json, tournament_json

ACTIONS = ("cancel", "pause", "resume", "remove")
HISTORY = 200
MAX_PAGE = 100  # tournaments a page of the admins' list


class TournamentAdmin:
    def __init__(self, core: Core) -> None:
        self.core = core

    def _by(self, db: Session, token: str | None, admin: bool) -> str:
        if admin:
            return "admin"
        me = player_of(db, token) if token else None
        row = db.get(Player, me.id) if me is not None else None
        if row is None or not row.moderator:
            raise not_moderator()
        return row.id

    async def act(
        self, token: str | None, admin: bool, tournament_id: str, action: str,
        player: str | None, reason: str,
    ) -> None:  # fmt: skip
        if action not in ACTIONS:
            raise ApiError(422, "invalid_action", f"Actions: {', '.join(ACTIONS)}.")
        tid = checked_id(tournament_id)
        await run_in_threadpool(self._act, token, admin, tid, action, player, reason)
        await self.core.publish(TournamentChanged(tid))

    def _act(
        self, token: str | None, admin: bool, tid: str, action: str, player: str | None,
        reason: str,
    ) -> None:  # fmt: skip
        now = self.core.stamp()
        with self.core.db.write() as db:
            by = self._by(db, token, admin)
            t = repo.get(db, tid, lock=True)
            if t is None:
                raise not_found("tournament")
            if t.status in ("finished", "canceled"):
                raise ApiError(409, "tournament_closed", f"This tournament is {t.status}.")
            detail: dict[str, Any] = {"reason": reason}
            if action == "cancel":
                repo.set_status(db, tid, "canceled", finished_at=now)
            elif action in ("pause", "resume"):
                repo.set_paused(db, tid, action == "pause")
            else:
                if player is None or not repo.withdraw(db, tid, player, removed=True):
                    raise not_found("player")
                detail["player_id"] = player
            repo.add_event(db, tid, action, by, detail, now)

    async def every(
        self, token: str | None, admin: bool, status: str | None, limit: int, offset: int
    ) -> dict[str, Any]:
        """Every tournament of a status (or any), public and private, the newest first: one page
        of at most 100, and how many there are."""

        def run() -> dict[str, Any]:
            with self.core.db.reader() as db:
                self._by(db, token, admin)
                rows, total = repo.every(db, status, min(limit, MAX_PAGE), offset)
                creators = repo.names(db, {t.creator for t in rows if t.creator})
            return {
                "rows": [
                    tournament_json(t) | {
                        "created_at": t.created_at.isoformat(), "creator": t.creator,
                        "creator_name": creators.get(t.creator) if t.creator else None,
                    }
                    for t in rows
                ],
                "total": total,
            }  # fmt: skip

        return await run_in_threadpool(run)

    async def history(self, token: str | None, admin: bool, tournament_id: str) -> dict[str, Any]:
        """The actions taken and every pairing made, newest first."""

        def run() -> dict[str, Any]:
            tid = checked_id(tournament_id)
            with self.core.db.reader() as db:
                self._by(db, token, admin)
                if repo.get(db, tid) is None:
                    raise not_found("tournament")
                found = repo.events(db, tid, HISTORY)
                # who acted and whom a removal named, by name (a moderator's id alone says little)
                ids = {e.by for e in found} | {_removed(e.detail) for e in found}
                named = repo.names(db, ids - {"", "admin"})
                events = [
                    {"action": e.action, "by": e.by, "by_name": named.get(e.by),
                     "detail": e.detail, "player_name": named.get(_removed(e.detail)),
                     "at": e.created_at.isoformat()}
                    for e in found
                ]  # fmt: skip
                pairings = games_repo.games(db, tid, running=False, limit=HISTORY)
                return {"events": events, "pairings": [game_json(g) for g in pairings]}

        return await run_in_threadpool(run)


def _removed(detail: dict[str, Any]) -> str:
    """The player an event's detail names ("" when none)."""
    named = detail.get("player_id") if isinstance(detail, dict) else None
    return named if isinstance(named, str) else ""
