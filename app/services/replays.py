"""Public replays of ended matches (contract v1.1): the spectator projection (or a seat's own) at
every step with the log kept in step, the export with the revealed seed, and the deal's check.

A live match is answered exactly as a missing one (404 not_found): a replay link must not tell
that a match exists, nor its seed, before it has ended."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar, cast

from starlette.concurrency import run_in_threadpool

from engine.core.errors import EngineError
from engine.core.game import Viewer
from engine.registry import get_game

from ..bounded import BoundedCache
from ..games import played, start_match
from ..jsontext import dumps
from ..push.frames import ending_entry
from . import exports, fairness
from .access import seat_for
from .core import Core
from .exports import Stored

T = TypeVar("T")
KEPT_REPLAYS = 32  # replays (about 200 KB of text each) and verdicts kept


def ended(core: Core, match_id: str) -> Stored:
    """The stored match, if it has ended; else (live, or no such match) 404 alike."""
    return exports.stored(core.db, match_id, ended=True)


def steps(match: Stored, viewer: Viewer) -> dict[str, Any]:
    """Every step as `viewer` sees it: its state, the action that led to it, and how much of the
    log had been written by then (the log is given once, whole)."""
    game = get_game(match.game)
    done = start_match(match.game, match.seed, match.rules_version, match.options)
    state = done.state
    log: list[Any] = game.events_for(done.events, viewer)
    shown = [
        {"step": 0, "action": None, "state": game.view_for(state, viewer), "log_length": len(log)}
    ]
    for seq, seat, action, _ in match.actions:
        try:
            done = played(game, state, seat, action)
        except EngineError:  # a damaged action list: the replay stops where it fails (see verify)
            break
        state = done.state
        log += game.events_for(done.events, viewer)
        step = {"seq": seq, "role": seat, "action": action}
        shown.append(
            {
                "step": seq,
                "action": step,
                "state": game.view_for(state, viewer),
                "log_length": len(log),
            }
        )
    end = match.ending
    if end.ended_by is not None and game.outcome(state) is None:  # resigned, time, abort, idle
        log.append(ending_entry(end.ended_by, end.win_reason, end.winner))
        shown[-1]["log_length"] = len(log)
    return {
        "match_id": match.match_id,
        "role": viewer,
        "status": "finished",
        "winner": end.winner,
        "win_reason": end.win_reason,
        "ended_by": end.ended_by,
        "rules_version": match.rules_version,
        "fairness": fairness.published(match),
        "steps": shown,
        "log": log,
    }


class Replays:
    def __init__(self, core: Core) -> None:
        self.core = core
        # an ended match never changes: its replays and its verdict are kept, the newest few
        self._kept: BoundedCache[tuple[str, str, int, Viewer, str], Any] = BoundedCache(
            "replays", KEPT_REPLAYS, match_of=lambda key: key[1], caches=core.metrics.caches
        )
        self._lock = threading.Lock()
        # one build per key at a time: callers who ask for what is being built wait for it
        # rather than each replaying the match (24 at once slowed every player down)
        self._building: dict[tuple[str, str, int, Viewer, str], threading.Lock] = {}

    async def replay(self, token: str | None, match_id: str) -> str:
        """The ended match at every step, as JSON text: a spectator's, or with a seat's token
        that seat's own."""

        def run() -> str:
            viewer = seat_for(self.core, token, match_id) if token else None
            match = ended(self.core, match_id)
            return self._keep("replay", match, viewer, lambda: dumps(steps(match, viewer)))

        return await run_in_threadpool(run)

    async def export(self, match_id: str) -> dict[str, Any]:
        """The ended match as the admin export has it (seed, rules version, every action with a
        fingerprint), with its fairness facts."""

        def run() -> dict[str, Any]:
            match = ended(self.core, match_id)
            return self._keep(
                "export",
                match,
                None,
                lambda: {
                    **exports.export(match),
                    "seed_text": str(match.seed),  # exact where JSON numbers are doubles
                    "fairness": fairness.published(match),
                },
            )

        return await run_in_threadpool(run)

    async def verify(self, match_id: str) -> dict[str, Any]:
        """Both checks of the deal, recomputed from what is stored (once per ended match: a
        replay through the engine is too dear to repeat for every caller)."""

        def run() -> dict[str, Any]:
            match = ended(self.core, match_id)
            return self._keep("verify", match, None, lambda: fairness.verdict(match))

        return await run_in_threadpool(run)

    def _keep(self, kind: str, match: Stored, viewer: Viewer, build: Callable[[], T]) -> T:
        """What `build` makes of this ended match, from the kept ones when it is there."""
        # who sat there is part of the key: a player renamed or deleted since is shown as now
        seated = repr([s.wire_player() for s in match.seats])
        key = (kind, match.match_id, match.version, viewer, seated)
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None:
                return cast(T, kept)
            building = self._building.setdefault(key, threading.Lock())
        with building:
            with self._lock:
                kept = self._kept.get(key)  # built while this caller waited
                if kept is not None:
                    return cast(T, kept)
            try:
                made = build()
            finally:
                with self._lock:
                    self._building.pop(key, None)
            with self._lock:
                self._kept.put(key, made)
        return made
