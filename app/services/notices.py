"""The bell (contract v1.2 "Notifications"): a player's notifications, listed newest first in
pages, marked read, pushed live to the player's bell sockets, and sent by Web Push for the
kinds the player chose. Other services store a line with `persistence.notifications.add` in
their own transaction and publish `Notified(player, id)` after the commit (`notify` here does
both, for a caller without a transaction of its own).

A line's `data` is the producer's: by convention `name` (the other person), `match_id` and
`game` (the match it is about), `url` (a local path to open), `reason` (or the person as
`from` / `by`: {"player_id", "name"}). The bell words each kind from the locales; the server
adds `url`, where clicking the line leads, and `name`, the person it is about."""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any, Final

from starlette.concurrency import run_in_threadpool

from ..errors import ApiError
from ..games import SITES, site
from ..names import LOCALES_DIR
from ..persistence import notifications as repo
from ..persistence import push as push_repo
from ..persistence.notifications import KINDS, Line
from ..persistence.push import Subscription
from ..push.changes import Change, Notified
from .core import Core
from .matches import player_required
from .players import player_of
from .turns import Notice, TurnNotices

log = logging.getLogger("watergate.notices")
Subs = Subscription
PAGE: Final = 20  # lines in a page unless asked for fewer (at most repo.PAGE_MAX)
READ_IDS_MAX: Final = 200  # ids one "mark read" may name
COUNT_CHANGED: Final = 0  # Notified(player, 0): the unread count changed, no new line
URL_MAX: Final = 200


@dataclass(frozen=True)
class BellNotice(Notice):
    """A notification as a Web Push notice: the service worker shows it and opens `url`."""

    id: int = 0
    kind: str = ""

    def payload(self) -> bytes:
        body = {"type": "notification", "id": self.id, "kind": self.kind, "url": self.url}
        return json.dumps({**body, "title": self.title, "body": self.body}).encode()


@dataclass(frozen=True, slots=True)
class Listed:
    unread: int
    items: list[dict[str, Any]]
    next_before: int | None  # the `before` of the next page; None: this was the last


@cache
def _locale(lang: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads((LOCALES_DIR / f"{lang}.json").read_text())
    return found


def push_text(lang: str, line: Line) -> str:
    """A line in `lang` as the bell words it (static/js/bell.js): the person it is about, and
    a sanction's scopes and end (the end in UTC: a push has no browser clock to read)."""
    words, scopes = _locale(lang)["bell"], _locale(lang)["reliability"]["scopes"]
    text: str = words["kinds"].get(line.kind, words["kinds"]["other"])
    shown = line.data.get("scopes")
    listed = shown if isinstance(shown, list) else []
    named = [scopes.get(s, s) for s in listed if isinstance(s, str)]
    until = line.data.get("until")
    ends = datetime.fromisoformat(until).astimezone(UTC) if isinstance(until, str) else None
    fills = {
        "{name}": who(line.data) or words["someone"],
        "{scopes}": ", ".join(named),
        "{until}": f"{ends:%Y-%m-%d %H:%M} UTC" if ends is not None else "",
    }
    for key, value in fills.items():
        text = text.replace(key, value)
    return text


def local_path(value: object) -> str | None:
    """A producer's `url` if it is a path on this site (never another site, nor a script)."""
    if not isinstance(value, str) or not value.startswith("/") or len(value) > URL_MAX:
        return None
    if value.startswith("//") or "\\" in value or any(ord(c) < 33 for c in value):
        return None
    return value


def url_of(kind: str, data: dict[str, Any]) -> str:
    """Where clicking the line leads."""
    given = local_path(data.get("url"))
    if given is not None:
        return given
    match_id, game = data.get("match_id"), data.get("game")
    if kind.startswith("challenge") and kind != "challenge_accepted":
        return "/people"
    if isinstance(match_id, str) and match_id.isalnum():
        prefix = site(game).prefix if isinstance(game, str) and game in SITES else ""
        return f"{prefix}/match/{match_id}"
    if kind in ("report_outcome", "moderation", "sanction"):
        return "/account"  # where the player's notices and sanctions in force are shown
    return "/"


def who(data: dict[str, Any]) -> str | None:
    """The other person a line is about: `name`, or the `name` of its `from` or `by`."""
    for found in (data, data.get("from"), data.get("by")):
        name = found.get("name") if isinstance(found, dict) else None
        if isinstance(name, str) and name:
            return name
    return None


def wire(line: Line) -> dict[str, Any]:
    """A line as the API and the socket send it."""
    return {
        "id": line.id, "kind": line.kind, "at": line.at.isoformat(), "read": line.read,
        "data": line.data, "url": url_of(line.kind, line.data), "name": who(line.data),
    }  # fmt: skip


class Notices:
    def __init__(self, core: Core, turns: TurnNotices) -> None:
        self.core, self.turns = core, turns
        self._owed: list[tuple[str, int]] = []  # (player, line) still to push by Web Push
        self._owing: asyncio.Task[None] | None = None

    # ---- the API ------------------------------------------------------------------------------

    async def listed(
        self, token: str | None, unread: bool, before: int | None, limit: int
    ) -> Listed:
        return await run_in_threadpool(self._listed, token, unread, before, limit)

    def _listed(self, token: str | None, unread: bool, before: int | None, limit: int) -> Listed:
        with self.core.db.reader() as db:
            me = self._me(db, token)
            lines = repo.page(db, me, unread, before, limit + 1)
            count = repo.unread_count(db, me)
        more = len(lines) > limit
        lines = lines[:limit]
        return Listed(count, [wire(x) for x in lines], lines[-1].id if more and lines else None)

    async def read(self, token: str | None, ids: list[int] | None) -> int:
        """Mark lines read (`ids`, or all); the unread count after. Every bell of the player
        is told its new count."""
        if ids is not None and len(ids) > READ_IDS_MAX:
            raise ApiError(422, "invalid_request", f"At most {READ_IDS_MAX} ids at once.")
        player, count, changed = await run_in_threadpool(self._read, token, ids)
        if changed:
            await self.core.publish(Notified(player, COUNT_CHANGED))
        return count

    def _read(self, token: str | None, ids: list[int] | None) -> tuple[str, int, int]:
        with self.core.db.write() as db:
            me = self._me(db, token)
            changed = repo.mark_read(db, me, ids, self.core.stamp())
            return me, repo.unread_count(db, me), changed

    async def push_kinds(self, token: str | None) -> list[str]:
        return await run_in_threadpool(self._push_kinds, token)

    def _push_kinds(self, token: str | None) -> list[str]:
        with self.core.db.reader() as db:
            return repo.push_kinds(db, self._me(db, token))

    async def choose_push(self, token: str | None, kinds: list[str]) -> list[str]:
        """The kinds also sent by Web Push (an unknown kind: 422 invalid_kind)."""
        unknown = sorted(set(kinds) - set(KINDS))
        if unknown:
            raise ApiError(422, "invalid_kind", f"Unknown kinds: {', '.join(unknown[:5])}.")
        kept: list[str] = [k for k in KINDS if k in kinds]
        await run_in_threadpool(self._choose_push, token, kept)
        return kept

    def _choose_push(self, token: str | None, kinds: list[str]) -> None:
        with self.core.db.write() as db:
            repo.set_push_kinds(db, self._me(db, token), kinds)

    async def player_id(self, token: str | None) -> str:
        """The player a bell socket's auth message names (401 otherwise)."""
        return await run_in_threadpool(self._player_id, token)

    def _player_id(self, token: str | None) -> str:
        with self.core.db.reader() as db:
            return self._me(db, token)

    @staticmethod
    def _me(db: Any, token: str | None) -> str:
        found = player_of(db, token)
        if found is None:
            raise player_required()
        return str(found.id)

    # ---- storing ------------------------------------------------------------------------------

    async def notify(self, player: str, kind: str, data: dict[str, Any]) -> int:
        """Store a line in a transaction of its own and announce it."""
        made = await run_in_threadpool(self._add, player, kind, data)
        await self.core.publish(Notified(player, made))
        return made

    def _add(self, player: str, kind: str, data: dict[str, Any]) -> int:
        with self.core.db.write() as db:
            return repo.add(db, player, kind, data, self.core.stamp())

    # ---- the sockets --------------------------------------------------------------------------

    async def frames(self, player: str, notification_id: int) -> list[str]:
        """What a player's bell sockets are sent: the new line (if it is theirs and still
        there) with the unread count, or the count alone."""
        line, count = await run_in_threadpool(self._frame_parts, player, notification_id)
        if line is None:
            return [json.dumps({"type": "unread", "unread": count})]
        return [json.dumps({"type": "notification", "notification": wire(line), "unread": count})]

    def _frame_parts(self, player: str, notification_id: int) -> tuple[Line | None, int]:
        with self.core.db.reader() as db:
            found = repo.line(db, player, notification_id) if notification_id else None
            return found, repo.unread_count(db, player)

    async def hello(self, player: str) -> str:
        """The socket's first frame once authenticated: the unread count."""
        return (await self.frames(player, COUNT_CHANGED))[0]

    # ---- Web Push -----------------------------------------------------------------------------

    def on_change(self, change: Change) -> None:
        """A listener of this process's published changes: a new line is pushed to the
        player's browsers, once (by the process that stored it), if the player chose its kind.
        `your_turn` is not: the turn notices (services/turns.py) push every turn already. The
        lines announced while a read is under way are read together next (an arena's pass
        announces all its pairings at its end: a thread call a line held up the moves meanwhile)."""
        if isinstance(change, Notified) and change.notification_id != COUNT_CHANGED:
            self._owed.append((change.player_id, change.notification_id))
            if self._owing is None or self._owing.done():
                self._owing = self.turns.later(self._push())

    async def _push(self) -> None:
        while self._owed:
            owed, self._owed = self._owed, []
            for line, subs in await run_in_threadpool(self._push_parts, owed):
                for sub in subs:
                    notice = BellNotice(
                        str(line.data.get("match_id") or ""),
                        _locale(sub.lang)["bell"]["push_title"], push_text(sub.lang, line),
                        url_of(line.kind, line.data), line.id, line.kind,
                    )  # fmt: skip
                    self.turns.spawn(sub, notice)

    def _push_parts(self, owed: list[tuple[str, int]]) -> list[tuple[Line, list[Subs]]]:
        """Each line to push with its player's browsers (none: not pushed)."""
        found = []
        with self.core.db.reader() as db:
            for player, notification_id in owed:
                line = repo.line(db, player, notification_id)
                if line is None or line.kind == "your_turn":
                    continue
                if line.kind not in repo.push_kinds(db, player):
                    continue
                found.append((line, push_repo.subscriptions_of(db, player)))
        return found
