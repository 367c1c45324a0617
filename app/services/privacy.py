"""A player's own standing and data (issue 43): the sanctions running against them, as the lobby
shows them (what, until when, why) instead of buttons that fail; and the export of their data
(profile, ratings, games, the chat lines they wrote, the follows and blocks they made, the
reports they filed, their abandonment records and sanctions) as one JSON document. Nothing in
it is about the player from someone else: no report about them, no one's block of them. And
the retention: records kept `RETENTION` are pruned by an hourly sweep."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Final

from starlette.concurrency import run_in_threadpool

from ..persistence import abandonments, sanctions
from ..persistence import privacy as store
from ..persistence import ratings as rated
from ..persistence.records import PlayerRow
from .core import Core
from .players import player_of, unknown_player
from .reliability import figures

EXPORT_FORMAT: Final = 1
EXPORT_LIMIT: Final = 10_000  # rows of each list at most (a list cut short is named in "truncated")
SHOWN_SCOPES: Final = ("lobby", "pairing", "rated", "tournaments", "chat")
# How long reports (once closed), moderation actions, sanctions (once ended) and abandonment
# records are kept: README, Privacy and retention says why.
RETENTION: Final = timedelta(days=365)


@dataclass(frozen=True)
class InForce:
    """A sanction running now, as its player sees it."""

    scope: str
    until: str  # ISO 8601, UTC
    reason: str
    source: str  # moderator | word_list | abandonment


class Privacy:
    """Per request: stateless, over the core's database."""

    def __init__(self, core: Core) -> None:
        self.core = core

    async def in_force(self, token: str | None) -> list[InForce]:
        """The caller's sanctions running now, the one ending last first."""
        return await run_in_threadpool(self._in_force, token)

    def _in_force(self, token: str | None) -> list[InForce]:
        now = self.core.stamp()
        with self.core.db.reader() as db:
            me = _me(db, token)
            rows = sanctions.in_force(db, me.id, SHOWN_SCOPES, now)
            return [InForce(r.scope, r.until.isoformat(), r.reason, r.source) for r in rows]

    async def prune(self) -> dict[str, int]:
        """Remove the records whose retention time is over (an hourly sweep)."""
        return await run_in_threadpool(self._prune)

    def _prune(self) -> dict[str, int]:
        with self.core.db.write() as db:
            return store.prune(db, self.core.stamp() - RETENTION)

    async def export(self, token: str | None) -> dict[str, Any]:
        return await run_in_threadpool(self._export, token)

    def _export(self, token: str | None) -> dict[str, Any]:
        now = self.core.stamp()
        cut: list[str] = []

        def bounded(name: str, rows: list[Any]) -> list[Any]:
            if len(rows) >= EXPORT_LIMIT:
                cut.append(name)
            return rows

        with self.core.db.reader() as db:
            me = _me(db, token)
            row = store.player(db, me.id)
            assert row is not None
            profile = {
                "player_id": row.id,
                "name": row.name,
                "created_at": row.created_at.isoformat(),
                "username": row.username,
                "challenges_from": row.challenges_from,
                "push_kinds": row.push_kinds,
                "moderator": row.moderator,
                "reliability": figures(db, [row.id])[row.id],
            }
            ratings = [
                {"game": r.game, "rating": r.rating, "rd": r.rd, "games": r.games}
                for r in rated.ratings_of(db, me.id)
            ]
            records = [
                {"match_id": a.match_id, "reason": a.reason, "at": a.created_at.isoformat()}
                for a in abandonments.records_of(db, me.id, EXPORT_LIMIT)
            ]
            imposed = [
                {
                    "scope": s.scope,
                    "until": s.until.isoformat(),
                    "reason": s.reason,
                    "source": s.source,
                    "at": s.created_at.isoformat(),
                }
                for s in abandonments.sanctions_of(db, me.id, EXPORT_LIMIT)
            ]
            document = {
                "format": EXPORT_FORMAT,
                "exported_at": now.isoformat(),
                "profile": profile,
                "ratings": ratings,
                "games": bounded("games", store.games(db, me.id, EXPORT_LIMIT)),
                "chat": bounded("chat", store.chat_lines(db, me.id, EXPORT_LIMIT)),
                "following": bounded("following", store.following(db, me.id, EXPORT_LIMIT)),
                "blocks": bounded("blocks", store.blocks(db, me.id, EXPORT_LIMIT)),
                "reports_filed": bounded(
                    "reports_filed", store.reports_filed(db, me.id, EXPORT_LIMIT)
                ),
                "abandonments": bounded("abandonments", records),
                "sanctions": bounded("sanctions", imposed),
            }
        return {**document, "truncated": cut}


def _me(db: Any, token: str | None) -> PlayerRow:
    if not token:
        raise unknown_player()
    found = player_of(db, token)
    assert found is not None
    return found
