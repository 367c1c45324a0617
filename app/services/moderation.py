"""Use cases of moderators (issue 43, contract v1.2 "People"): the queue of reported players (the
most reported and newest first, with the chat around each reported line and the player's
history), actions on a player (dismiss, warn, mute, ban, lift, reset_name, close) each recorded
with who, when and why, and the moderator flag, which only the admin grants. The admin token may
do everything a moderator may. A player reads their own warnings and sanctions in force, and
acknowledges a warning."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from ..auth import new_player_id
from ..errors import ApiError, checked_id
from ..persistence import notifications, sanctions
from ..persistence import players as player_rows
from ..persistence import reports as store
from ..persistence.models import Player
from ..persistence.people_tables import ModerationAction, Report
from ..persistence.sql import OnSession
from ..push.changes import MatchChanged, Notified
from .core import Core
from .players import player_of, unknown_player
from .reports import has_controls
from .sanctions import BAN_SCOPES, SCOPES, started

ACTIONS: Final = ("dismiss", "warn", "mute", "ban", "lift", "reset_name", "close")
QUEUE_MAX: Final = 50  # reported players a page of the queue shows
REPORTS_SHOWN: Final = 20  # open reports shown per player
CONTEXT_LINES: Final = 5  # chat lines before and after a reported one
HISTORY_SHOWN: Final = 50  # actions and reports in a player's history
MAX_MINUTES: Final = 60 * 24 * 366  # a mute or a ban lasts at most a year ...
FOREVER: Final = timedelta(days=365 * 100)  # ... a closed account's, for good
REASON_MAX: Final = 500


def not_moderator() -> ApiError:
    return ApiError(403, "not_moderator", "Only moderators and the admin may do this.")


def invalid_action(message: str) -> ApiError:
    return ApiError(422, "invalid_action", message)


@dataclass(frozen=True, slots=True)
class Act:
    """A moderator's action as asked for (POST /api/mod/actions)."""

    player_id: str
    action: str
    reason: str
    scope: str | None = None
    minutes: int | None = None
    report_ids: tuple[int, ...] = ()


def _iso(at: datetime | None) -> str | None:
    return None if at is None else at.isoformat()


def action_json(row: ModerationAction) -> dict[str, Any]:
    return {
        "action_id": row.id, "action": row.action, "scope": row.scope, "until": _iso(row.until),
        "reason": row.reason, "by": row.by, "at": _iso(row.created_at),
        "report_ids": list(row.report_ids or []), "acknowledged_at": _iso(row.acknowledged_at),
    }  # fmt: skip


def _report_json(db: Session, row: Report, with_context: bool) -> dict[str, Any]:
    reporter = db.get(Player, row.reporter) if row.reporter is not None else None
    found: dict[str, Any] = {
        "report_id": row.id, "reporter": row.reporter,
        "reporter_name": reporter.name if reporter is not None else None,
        "reason": row.reason, "text": row.text,
        "match_id": row.match_id, "chat_id": row.chat_id, "status": row.status,
        "outcome": row.outcome, "at": _iso(row.created_at),
    }  # fmt: skip
    if with_context and row.chat_id is not None and row.match_id is not None:
        found["chat"] = [
            {"id": c.id, "role": c.role, "name": c.name, "text": c.text, "hidden": c.hidden,
             "player": c.player, "at": _iso(c.created_at), "reported": c.id == row.chat_id}
            for c in store.context(db, row.match_id, row.chat_id, CONTEXT_LINES)
        ]  # fmt: skip
    return found


def _sanctions_json(db: Session, player: str, now: datetime) -> list[dict[str, Any]]:
    return [
        {"scope": s.scope, "until": _iso(s.until), "reason": s.reason, "source": s.source}
        for s in sanctions.in_force(db, player, SCOPES, now)
    ]


def history(db: Session, player: str, now: datetime) -> dict[str, Any]:
    """A player's moderation history: the actions taken, their reports, sanctions in force."""
    return {
        "actions": [action_json(a) for a in store.actions_of(db, player, HISTORY_SHOWN)],
        "reports": [_report_json(db, r, False) for r in store.of_player(db, player, HISTORY_SHOWN)],
        "sanctions": _sanctions_json(db, player, now),
    }


class Moderation:
    def __init__(self, core: Core) -> None:
        self.core = core

    def _by(self, db: Session, token: str | None, admin: bool) -> str:
        """Who acts: "admin" for the admin token, else a moderator's player id."""
        if admin:
            return "admin"
        me = player_of(db, token)
        if me is None:
            raise unknown_player()
        row = db.get(Player, me.id)
        if row is None or not row.moderator:
            raise not_moderator()
        return me.id

    async def queue(
        self, token: str | None, admin: bool, limit: int, offset: int, newest: bool
    ) -> list[dict[str, Any]]:
        return await run_in_threadpool(self._queue, token, admin, limit, offset, newest)

    def _queue(
        self, token: str | None, admin: bool, limit: int, offset: int, newest: bool
    ) -> list[dict[str, Any]]:
        now = self.core.stamp()
        with self.core.db.reader() as db:
            self._by(db, token, admin)
            limit = max(1, min(limit, QUEUE_MAX))
            return [
                {
                    "player_id": r.player,
                    "name": r.name,
                    "open_reports": r.count,
                    "newest_at": _iso(r.newest),
                    "reports": [
                        _report_json(db, row, True)
                        for row in store.open_of(db, r.player, REPORTS_SHOWN)
                    ],
                    "history": history(db, r.player, now),
                }
                for r in store.queue(db, limit, max(0, offset), newest)
            ]

    async def player(self, token: str | None, admin: bool, player_id: str) -> dict[str, Any]:
        return await run_in_threadpool(self._player, token, admin, checked_id(player_id, "player"))

    def _player(self, token: str | None, admin: bool, player_id: str) -> dict[str, Any]:
        now = self.core.stamp()
        with self.core.db.reader() as db:
            self._by(db, token, admin)
            row = db.get(Player, player_id)
            if row is None or row.deleted_at is not None:
                raise ApiError(404, "not_found", "No such player.")
            return {
                "player_id": row.id, "name": row.name, "account": row.username is not None,
                "moderator": row.moderator, **history(db, row.id, now),
            }  # fmt: skip

    async def act(self, token: str | None, admin: bool, act: Act) -> int:
        """Carry the action out; its record's id. Reporters of the reports it closes, and the
        player (unless it was a dismissal), are told on their bells."""
        if act.action not in ACTIONS:
            raise invalid_action(f"An action is one of {', '.join(ACTIONS)}.")
        if not 1 <= len(act.reason.strip()) <= REASON_MAX or has_controls(act.reason):
            raise invalid_action(f"An action needs a reason of 1-{REASON_MAX} characters.")
        if act.action in ("mute", "ban") and not (
            act.minutes is not None and 1 <= act.minutes <= MAX_MINUTES
        ):
            raise invalid_action(f"A mute or a ban lasts 1-{MAX_MINUTES} minutes.")
        if act.action == "ban" and act.scope not in (*BAN_SCOPES, "all"):
            raise invalid_action(f"A ban's scope is one of {', '.join(BAN_SCOPES)}, all.")
        if act.action == "lift" and act.scope not in (*SCOPES, "all"):
            raise invalid_action(f"What to lift is one of {', '.join(SCOPES)}, all.")
        checked_id(act.player_id, "player")
        action_id, told, tables = await run_in_threadpool(self._act, token, admin, act)
        for match_id in tables:  # a reset name shows on the player's open tables at once
            self.core.cache.drop_info(match_id)
            await self.core.publish(MatchChanged(match_id))
        for player, notification_id in told:
            await self.core.publish(Notified(player, notification_id))
        return action_id

    def _act(
        self, token: str | None, admin: bool, act: Act
    ) -> tuple[int, list[tuple[str, int]], list[str]]:
        now = self.core.stamp()
        with self.core.db.write() as db:
            by = self._by(db, token, admin)
            row = db.get(Player, act.player_id)
            if row is None or row.deleted_at is not None:
                raise ApiError(404, "not_found", "No such player.")
            if by == row.id:
                raise invalid_action("Moderators do not act on themselves.")
            reason, scope, until = act.reason.strip(), act.scope, None
            tables: list[str] = []
            imposed: tuple[str, ...] = ()
            if act.action in ("mute", "ban", "close"):
                scope = "chat" if act.action == "mute" else scope
                length = FOREVER if act.action == "close" else timedelta(minutes=act.minutes or 0)
                until = now + length
                if act.action == "close" or scope is None or scope == "all":
                    imposed = SCOPES
                else:
                    imposed = (scope,)
                for what in imposed:
                    sanctions.impose(db, row.id, what, until, reason, "moderator", now)
                row.moderator = row.moderator and act.action != "close"
            elif act.action == "lift":
                for each in SCOPES if scope == "all" else (scope,):
                    assert each is not None
                    sanctions.lift(db, row.id, each, now)
            elif act.action == "reset_name":
                player_rows.rename_player(db, row.id, f"Player {new_player_id()[:6]}")
                tables = player_rows.open_matches_of(db, row.id)
            closed = store.close(
                db, list(act.report_ids), row.id,
                "dismissed" if act.action == "dismiss" else "actioned", now,
            )  # fmt: skip
            action_id = store.record(
                db, row.id, act.action, reason, by, now, scope=scope, until=until,
                report_ids=[r.id for r in closed],
            )  # fmt: skip
            told: list[tuple[str, int]] = []
            for report in closed:
                if report.reporter is not None:
                    outcome = {"report_id": report.id, "outcome": report.outcome or "actioned"}
                    kept = notifications.add(db, report.reporter, "report_outcome", outcome, now)
                    told.append((report.reporter, kept))
            if act.action != "dismiss":
                about = {
                    "action": act.action, "action_id": action_id, "scope": scope,
                    "until": _iso(until), "reason": reason,
                }  # fmt: skip
                told.append((row.id, notifications.add(db, row.id, "moderation", about, now)))
            if imposed and until is not None:  # what it closes, until when: the bell's own line
                line = started(OnSession(db), row.id, imposed, until, now)
                told.append((line.player_id, line.notification_id))
        return action_id, told, tables

    async def set_moderator(self, player_id: str, flag: bool) -> None:
        """The admin grants (or takes back) the moderator flag of an account."""
        await run_in_threadpool(self._set_moderator, checked_id(player_id, "player"), flag)

    def _set_moderator(self, player_id: str, flag: bool) -> None:
        with self.core.db.write() as db:
            row = db.get(Player, player_id)
            if row is None or row.deleted_at is not None:
                raise ApiError(404, "not_found", "No such player.")
            if flag and row.username is None:
                raise ApiError(422, "not_an_account", "Only an account can be a moderator.")
            row.moderator = flag

    async def standing(self, token: str | None) -> dict[str, Any]:
        """The player's own: warnings to acknowledge, sanctions in force, moderator or not."""
        return await run_in_threadpool(self._standing, token)

    def _standing(self, token: str | None) -> dict[str, Any]:
        now = self.core.stamp()
        with self.core.db.reader() as db:
            me = player_of(db, token)
            if me is None:
                raise unknown_player()
            row = db.get(Player, me.id)
            return {
                "moderator": bool(row and row.moderator),
                "warnings": [
                    {k: v for k, v in action_json(a).items() if k not in ("by", "report_ids")}
                    for a in store.unacknowledged(db, me.id)
                ],
                "sanctions": _sanctions_json(db, me.id, now),
            }

    async def acknowledge(self, token: str | None, action_id: int) -> None:
        await run_in_threadpool(self._acknowledge, token, action_id)

    def _acknowledge(self, token: str | None, action_id: int) -> None:
        with self.core.db.write() as db:
            me = player_of(db, token)
            if me is None:
                raise unknown_player()
            if not store.acknowledge(db, me.id, action_id, self.core.stamp()):
                raise ApiError(404, "not_found", "No such warning waiting.")
