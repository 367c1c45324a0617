"""Admin use cases: finding matches, one match in full, statistics in SQL, and the audited
actions (abort, delete) that tell every process through the fan-out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from starlette.concurrency import run_in_threadpool

from engine.registry import DEFAULT_GAME, game_ids, get_game

from ..errors import ApiError, checked_id, not_found
from ..persistence import admin as admin_rows
from ..persistence import records
from ..persistence import repository as repo
from ..persistence.cache import Entry, load
from ..persistence.chat import last_lines
from ..persistence.db import is_sqlite
from ..persistence.models import Match
from ..persistence.moves import MoveTransaction
from ..persistence.records import Ending, MatchInfo, SeatRow, seat_info
from ..push.changes import Deleted, MatchChanged
from ..push.frames import fairness
from . import exports
from .access import seat_and_match
from .changes import Changed, MatchChanges
from .core import Core

STATUSES = ("waiting", "active", "finished", "abandoned")
ADMIN_CHAT_LINES = 1000  # the admin reads a match's chat this far back


@dataclass(frozen=True)
class MatchRow:
    """One line of the admin's match list."""

    match_id: str
    status: str
    version: int
    round: int
    winner: str | None
    win_reason: str | None
    kinds: dict[str, str]  # seat name -> human | bot
    created_at: str
    updated_at: str
    players: dict[str, dict[str, object]]  # seat name -> as views show it
    game: str = "watergate"


def _row(m: Match, seats: list[SeatRow]) -> MatchRow:
    return MatchRow(
        m.id,
        m.status,
        m.version,
        m.round,
        m.winner,
        m.win_reason,
        {s.name: s.kind for s in seats},
        m.created_at.isoformat(),
        m.updated_at.isoformat(),
        {s.name: seat_info(s, m.options).wire_player() for s in seats},
        m.game,
    )


class Admin:
    def __init__(self, core: Core) -> None:
        self.core = core
        self.db = core.db

    async def page(self, f: admin_rows.MatchFilter) -> tuple[list[MatchRow], int]:
        """One page of matches and the total count."""

        def run() -> tuple[list[MatchRow], int]:
            with self.db.reader() as db:
                rows, total = admin_rows.find_matches(db, f)
                seats = repo.seats_of_many(db, [m.id for m in rows])
                return [_row(m, seats[m.id]) for m in rows], total

        return await run_in_threadpool(run)

    async def detail(self, match_id: str) -> dict[str, Any]:
        """Everything about one match: full hidden state, seed, and the ordered command list."""
        return await run_in_threadpool(self._detail, match_id)

    def _detail(self, match_id: str) -> dict[str, Any]:
        with self.db.reader() as db:
            match = repo.get_match(db, checked_id(match_id))
            found = load(db, self.core.cache, match_id) if match is not None else None
            if match is None or found is None:
                raise not_found()
            _, entry = found
            row = _row(match, repo.seats_of(db, match.id))
            actions = repo.actions_between(db, match.id, 0, None)
            game = get_game(entry.game)
            return {
                "match": row,
                "seed": match.seed,
                "seed_text": str(match.seed),  # exact even where JSON numbers are doubles
                # the admin sees the seed at once; players and spectators once the match ended
                "fairness": fairness(
                    match.game, match.rules_version, match.commitment, match.seed, True
                ),
                "rules_version": match.rules_version,
                "options": match.options,
                "ended_by": match.ended_by,
                "state": game.admin_view(entry.state),
                "view": game.open_view(entry.state),
                "actions": [
                    {
                        "seq": a.seq,
                        "role": a.role,
                        "action": a.action,
                        "created_at": a.created_at.isoformat(),
                    }
                    for a in actions
                ],
                "log": exports.full_log(game, entry.events),
                "chat": [line.wire() for line in last_lines(db, match.id, ADMIN_CHAT_LINES)],
            }

    async def step(self, match_id: str, k: int) -> dict[str, Any]:
        """The match after its first k actions, everything shown."""
        return await run_in_threadpool(lambda: exports.step(exports.stored(self.db, match_id), k))

    async def replay(self, token: str | None, match_id: str, k: int) -> dict[str, Any]:
        """A seat of a finished match steps through it with everything revealed."""

        def run() -> dict[str, Any]:
            _, info, _ = seat_and_match(self.core, token, match_id)
            if info.status != "finished":
                raise ApiError(409, "match_not_finished", "Replays open when the match has ended.")
            return exports.step(exports.stored(self.db, match_id), k)

        return await run_in_threadpool(run)

    async def export(self, match_id: str) -> dict[str, Any]:
        return await run_in_threadpool(lambda: exports.export(exports.stored(self.db, match_id)))

    async def verify(self, data: dict[str, Any]) -> dict[str, Any]:
        return await run_in_threadpool(exports.verify, data)

    async def stats(self) -> dict[str, Any]:
        """Aggregates computed by the database: matches per day and by status over every game;
        the outcomes (v1's fields, named after Watergate's sides) over Watergate's matches; and
        the same per game under "games" (v1.1: a win rate mixing two games' seats means nothing).
        """
        sqlite = is_sqlite(self.db.url)

        def run() -> tuple[admin_rows.Totals, dict[str, admin_rows.Totals]]:
            with self.db.reader() as db:
                every = admin_rows.totals(db, sqlite, ())
                per_game = {
                    g: admin_rows.totals(db, sqlite, get_game(g).seats, g) for g in game_ids()
                }
                return every, per_game

        every, per_game = await run_in_threadpool(run)
        main = per_game[DEFAULT_GAME]
        first, second = get_game(DEFAULT_GAME).seats[:2]
        return {
            "matches_per_day": _per_day(every),
            "by_status": _by_status(every),
            f"{first}_wins": main.wins[first],
            f"{second}_wins": main.wins[second],
            **_outcomes(main),
            "games": {
                g: {"matches_per_day": _per_day(t), "by_status": _by_status(t), "wins": t.wins,
                    **_outcomes(t)}
                for g, t in per_game.items()
            },
        }  # fmt: skip

    async def abort(self, match_id: str) -> None:
        """End a waiting or active match; both seats see that the host ended it."""
        await run_in_threadpool(self._abort, match_id)
        self.core.cache.drop_info(match_id)
        await self.core.publish(MatchChanged(match_id))

    def _abort(self, match_id: str) -> None:
        """The host's end of a match, in the match transaction: nobody is ranked or rated."""

        def abort(
            tx: MoveTransaction, row: records.MatchRow, info: MatchInfo, entry: Entry
        ) -> Changed:
            if row.status not in ("waiting", "active"):
                raise ApiError(409, "not_active", "Only a waiting or active match can be aborted.")
            tx.audit("abort", row.id, {})
            return Changed(info, ending=Ending("finished", None, None, "host"))

        MatchChanges(self.core).run(match_id, abort, self.core.stamp(), missing=not_found)

    async def remove(self, match_id: str) -> None:
        """Delete a match and everything stored about it; every process forgets it."""
        await run_in_threadpool(self._remove, match_id)
        await self.core.publish(Deleted(match_id))

    def _remove(self, match_id: str) -> None:
        with self.db.write() as db:
            match = repo.get_match(db, checked_id(match_id))
            if match is None:
                raise not_found()
            detail = {"status": match.status, "version": match.version}
            repo.delete_match(db, match)
            admin_rows.add_audit(db, "delete", match_id, detail)

    async def audit(self) -> list[dict[str, Any]]:
        """The newest admin actions."""

        def run() -> list[dict[str, Any]]:
            with self.db.reader() as db:
                return [
                    {
                        "id": a.id,
                        "actor": a.actor,
                        "action": a.action,
                        "match_id": a.match_id,
                        "detail": a.detail,
                        "created_at": a.created_at.isoformat(),
                    }
                    for a in admin_rows.audit_log(db)
                ]

        return await run_in_threadpool(run)


def _per_day(t: admin_rows.Totals) -> list[dict[str, Any]]:
    return [{"day": day, "count": n} for day, n in t.per_day]


def _by_status(t: admin_rows.Totals) -> dict[str, int]:
    return {status: t.by_status.get(status, 0) for status in STATUSES}


def _outcomes(t: admin_rows.Totals) -> dict[str, Any]:
    """How the decided matches ended; the first seat's win rate is the balance figure."""
    first = next(iter(t.wins))
    return {
        "decided": t.decided,
        f"{first}_win_rate": (t.wins[first] / t.decided) if t.decided else None,
        "avg_rounds": t.avg_rounds,
        "avg_duration_seconds": t.avg_seconds,
        "end_reasons": t.reasons,
    }
