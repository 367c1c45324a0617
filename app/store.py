"""In-memory cache of match states, rebuilt by replaying stored actions on a miss or when another
process has moved a match on. The database is the truth; the cache is only ever behind it."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

import engine.watergate as engine
from engine.watergate import Event, MatchState, Role
from engine.watergate.views import events_for

from .models import Match, MatchAction


@dataclass(frozen=True)
class Entry:
    """A match at one version, with each seat's log entries already projected and serialised."""

    match_id: str
    version: int
    state: MatchState
    events: tuple[Event, ...]  # the full log (admin)
    log_json: dict[Role | None, tuple[str, ...]] = field(default_factory=dict)  # per viewer
    stamps: tuple[float, ...] = ()  # when each action was accepted (epoch seconds), for clocks
    actors: tuple[str, ...] = ()  # who made each action

    def extended(
        self,
        state: MatchState,
        new_events: tuple[Event, ...],
        stamp: float | None = None,
        actor: str | None = None,
    ) -> Entry:
        logs: dict[Role | None, tuple[str, ...]] = {
            viewer: self.log_json[viewer]
            + tuple(json.dumps(e, separators=(",", ":")) for e in events_for(new_events, viewer))
            for viewer in VIEWERS
        }
        stamps = self.stamps if stamp is None else (*self.stamps, stamp)
        actors = self.actors if actor is None else (*self.actors, actor)
        return Entry(
            self.match_id, state.version, state, self.events + new_events, logs, stamps, actors
        )


VIEWERS: tuple[Role | None, ...] = ("editor", "nixon", None)  # None: spectators


def fresh_entry(match_id: str, seed: int) -> Entry:
    step = engine.start(seed)
    logs: dict[Role | None, tuple[str, ...]] = dict.fromkeys(VIEWERS, ())
    empty = Entry(match_id, 0, step.state, (), logs)
    return empty.extended(step.state, step.events)


class StateStore:
    """A bounded LRU of Entries, safe to use from many threads."""

    def __init__(self, capacity: int) -> None:
        self._capacity = capacity
        self._entries: OrderedDict[str, Entry] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, match_id: str) -> Entry | None:
        with self._lock:
            entry = self._entries.get(match_id)
            if entry is not None:
                self._entries.move_to_end(match_id)
            return entry

    def put(self, entry: Entry) -> None:
        """Keep the newer of the cached and the given entry."""
        with self._lock:
            old = self._entries.get(entry.match_id)
            if old is None or old.version < entry.version:
                self._entries[entry.match_id] = entry
            self._entries.move_to_end(entry.match_id)
            while len(self._entries) > self._capacity:
                self._entries.popitem(last=False)

    def forget(self, match_id: str) -> None:
        with self._lock:
            self._entries.pop(match_id, None)

    def load(self, db: Session, match: Match, version: int | None = None) -> Entry:
        """The entry at the match's stored version (or `version`), replaying what is missing."""
        target = match.version if version is None else version
        entry = self.get(match.id)
        if entry is None or entry.version > target:
            entry = fresh_entry(match.id, match.seed)
        if entry.version < target:
            rows = db.scalars(
                select(MatchAction)
                .where(MatchAction.match_id == match.id, MatchAction.seq > entry.version)
                .where(MatchAction.seq <= target)
                .order_by(MatchAction.seq)
            ).all()
            for row in rows:
                step = engine.apply(entry.state, row.role, row.action)  # type: ignore[arg-type]
                entry = entry.extended(
                    step.state, step.events, row.created_at.timestamp(), row.role
                )
        self.put(entry)
        return entry
