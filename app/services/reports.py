"""Use cases of reports (issue 43, contract v1.2 "People"): a player reports another (reporting
abuse also blocks them), sees the status of their own reports and nothing else of them, and the
chat word list files a report of its own for every line it marks; repeated marks mute the
writer in all chat, for 15 minutes and then longer."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Final

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from ..errors import ApiError, checked_id
from ..names import REFUSED_CATEGORIES
from ..persistence import blocks, notifications, sanctions
from ..persistence import players as player_rows
from ..persistence import reports as store
from ..persistence.models import Match
from ..persistence.seat_keys import held_seat
from ..persistence.sql import OnSession
from ..push.changes import Notified
from .core import Core
from .players import player_of, unknown_player
from .sanctions import started

REASONS: Final = ("abuse", "name", "cheating", "stalling", "other")
TEXT_MAX: Final = 500
REPORTS_A_DAY: Final = 20  # reports one player may file in a day
MINE_SHOWN: Final = 50  # a player's own reports listed, the newest first
MARKS_TO_MUTE: Final = 3  # every third marked line within a day mutes its writer ...
MARK_WINDOW: Final = timedelta(days=1)
MUTE_FIRST: Final = timedelta(minutes=15)  # ... for 15 minutes, four times longer each time
MUTE_GROWTH: Final = 4
MUTE_MAX: Final = timedelta(days=3)
MUTES_REMEMBERED: Final = timedelta(days=30)  # earlier word-list mutes that lengthen the next


def has_controls(text: str) -> bool:
    """Control or invisible characters (a NUL would not even store): refused in reports' and
    moderators' texts; a line break is fine."""
    return any(unicodedata.category(c) in REFUSED_CATEGORIES and c != "\n" for c in text)


def invalid_report(message: str) -> ApiError:
    return ApiError(422, "invalid_report", message)


@dataclass(frozen=True, slots=True)
class NewReport:
    """What a player reports: whom, why, a short text, and optionally where."""

    player_id: str
    reason: str
    text: str | None = None
    match_id: str | None = None
    chat_id: int | None = None


@dataclass(frozen=True, slots=True)
class MyReport:
    """What a reporter sees of their report: whom, why, and its status; never anything back."""

    report_id: int
    player_id: str
    reason: str
    status: str
    outcome: str | None
    created_at: datetime
    resolved_at: datetime | None


def mute_for(earlier_mutes: int) -> timedelta:
    """How long the next word-list mute lasts after that many in the last 30 days."""
    longer: timedelta = MUTE_FIRST * (MUTE_GROWTH ** min(earlier_mutes, 8))
    return min(longer, MUTE_MAX)


def line_marked(
    db: Session, player: str, match_id: str, chat_id: int, now: datetime
) -> tuple[Notified, ...]:
    """A chat line the word list marked: file its report (no reporter); on every third mark in
    a day, mute the writer in all chat (recorded as the site's action, and told to the writer:
    its `moderation` notice and the bell's line that chat is closed until then). The writer's
    new bell lines, to publish after the commit (none unless a mute began)."""
    store.hold_player(db, player)
    store.file(db, None, player, "abuse", None, match_id, chat_id, now)
    marks = store.marks_since(db, player, now - MARK_WINDOW)
    if marks % MARKS_TO_MUTE:
        return ()
    earlier = store.word_list_mutes_since(db, player, now - MUTES_REMEMBERED)
    until = now + mute_for(earlier)
    reason = "Repeated chat lines marked by the word list"
    sanctions.impose(db, player, "chat", until, reason, "word_list", now)
    action_id = store.record(db, player, "mute", reason, "site", now, scope="chat", until=until)
    notice = notifications.add(
        db, player, "moderation",
        {"action": "mute", "action_id": action_id, "scope": "chat", "until": until.isoformat(),
         "reason": reason},
        now,
    )  # fmt: skip
    return Notified(player, notice), started(OnSession(db), player, ("chat",), until, now)


class Reports:
    def __init__(self, core: Core) -> None:
        self.core = core

    async def file(self, token: str | None, report: NewReport) -> int:
        """File a report; reporting abuse also blocks the player for the reporter."""
        if report.reason not in REASONS:
            raise invalid_report(f"A report's reason is one of {', '.join(REASONS)}.")
        text = (report.text or "").strip() or None
        if text is not None and (len(text) > TEXT_MAX or has_controls(text)):
            raise invalid_report(f"A report's text is 1-{TEXT_MAX} plain characters.")
        checked_id(report.player_id, "player")
        if report.match_id is not None:
            checked_id(report.match_id)
        return await run_in_threadpool(self._file, token, replace(report, text=text))

    def _file(self, token: str | None, report: NewReport) -> int:
        player_id, reason, text = report.player_id, report.reason, report.text
        match_id, chat_id = report.match_id, report.chat_id
        now = self.core.stamp()
        with self.core.db.write() as db:
            me = player_of(db, token)
            if me is None:
                raise unknown_player()
            if player_id == me.id:
                raise invalid_report("You cannot report yourself.")
            if player_rows.player_by_id(db, player_id) is None:
                raise ApiError(404, "not_found", "No such player.")
            if match_id is not None and db.get(Match, match_id) is None:
                raise ApiError(404, "not_found", "No such match.")
            if chat_id is not None:
                line = store.chat_line(db, chat_id)
                # a line of a table the reporter sat at: naming any line id would otherwise tell
                # whose it is, and bring a stranger's table before the moderators
                seen = line is not None and held_seat(db, line.match_id, me.id) is not None
                if line is None or not seen or line.player != player_id or line.hidden:
                    raise invalid_report("That chat line is not one of the player's.")
                if match_id is not None and line.match_id != match_id:
                    raise invalid_report("That chat line is not in that match.")
                match_id = line.match_id
            store.hold_player(db, me.id)  # one count of the day's reports at a time
            if store.filed_since(db, me.id, now - timedelta(days=1)) >= REPORTS_A_DAY:
                raise ApiError(
                    429, "too_many_reports", f"{REPORTS_A_DAY} reports a day; thank you."
                )
            report_id = store.file(db, me.id, player_id, reason, text, match_id, chat_id, now)
            if reason == "abuse":
                blocks.block(db, me.id, player_id, now)
        return report_id

    async def mine(self, token: str | None) -> list[MyReport]:
        return await run_in_threadpool(self._mine, token)

    def _mine(self, token: str | None) -> list[MyReport]:
        with self.core.db.reader() as db:
            me = player_of(db, token)
            if me is None:
                raise unknown_player()
            return [
                MyReport(r.id, r.player, r.reason, r.status, r.outcome, r.created_at, r.resolved_at)
                for r in store.mine(db, me.id, MINE_SHOWN)
            ]

    async def told(self, player: str, notification_id: int | None) -> None:
        """After the commit: the player's bell sockets, on every process, are due it."""
        if notification_id is not None:
            await self.core.publish(Notified(player, notification_id))
