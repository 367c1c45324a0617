"""The one in-memory cache of matches: per match its row facts, its state at a version (with each
viewer's log and view already serialised) and its seats' token hashes. Bounded by the matches'
estimated bytes; the database is the truth and the cache is only ever behind it."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from engine.core.game import Viewer
from engine.registry import get_game

from ..bounded import BoundedCache, Caches
from ..games import configured, played
from ..jsontext import dumps
from . import repository as repo
from .records import MatchFacts, MatchInfo, SeatRow, info_of, refreshed

AnyState = Any  # a game's state: opaque to the app
AnyEvent = Any
ENTRY_BASE_BYTES = 2048
PART_CHARS = 2500  # a typical serialised view with its legal actions
SLOT_BYTES = 1024  # a slot's row facts and tokens, before its game state


@dataclass(frozen=True)
class Entry:
    """A match's game state at one version, with each viewer's log entries already projected and
    serialised, and (filled on first use) each viewer's view and legal actions as JSON text."""

    match_id: str
    game: str
    version: int
    state: AnyState
    events: tuple[AnyEvent, ...]  # the full log (admin)
    log_json: dict[Viewer, tuple[str, ...]]
    stamps: tuple[float, ...] = ()  # when each action was accepted (epoch seconds), for clocks
    actors: tuple[str, ...] = ()  # who made each action
    log_chars: int = 0  # the length of every serialised log entry, for the cache's weight
    parts: dict[Viewer, tuple[str, str]] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )  # not carried over by dataclasses.replace: a new state needs its own

    def extended(
        self, state: AnyState, new: tuple[AnyEvent, ...], stamp: float | None, actor: str | None
    ) -> Entry:
        game = get_game(self.game)
        added = {
            viewer: tuple(dumps(e) for e in game.events_for(new, viewer))
            for viewer in self.log_json
        }
        logs = {viewer: self.log_json[viewer] + added[viewer] for viewer in self.log_json}
        return Entry(
            self.match_id,
            self.game,
            game.version(state),
            state,
            self.events + new,
            logs,
            self.stamps if stamp is None else (*self.stamps, stamp),
            self.actors if actor is None else (*self.actors, actor),
            self.log_chars + sum(len(text) for texts in added.values() for text in texts),
        )

    def part(self, viewer: Viewer) -> tuple[str, str]:
        """(view JSON, legal actions JSON) for the viewer, serialised once per version."""
        found = self.parts.get(viewer)
        if found is None:
            game = get_game(self.game)
            legal = (
                [game.action_to_json(a) for a in game.legal_actions(self.state, viewer)]
                if viewer is not None
                else []
            )
            found = self.parts[viewer] = (dumps(game.view_for(self.state, viewer)), dumps(legal))
        return found

    def weight(self) -> int:
        """About how many bytes of memory the entry holds: measured (tracemalloc) at about
        twice its serialised text, plus a little for the state, from a fresh match to a
        finished one (tests/app/test_push.py checks the estimate)."""
        parts = sum(len(view) + len(legal) for view, legal in self.parts.values())
        unmade = PART_CHARS * (len(self.log_json) - len(self.parts))  # views not yet serialised
        return 2 * (self.log_chars + parts + unmade) + ENTRY_BASE_BYTES

    def warm(self, viewers: Iterable[Viewer] | None = None) -> Entry:
        """Serialise the viewers' parts now (every viewer's by default), while the move is made
        rather than when its frames are pushed; anyone else's part is made when first asked for."""
        for viewer in self.log_json if viewers is None else viewers:
            self.part(viewer)
        return self


def fresh_entry(
    match_id: str,
    game_id: str,
    seed: int,
    rules_version: str | None,
    options: Mapping[str, Any] | None = None,
) -> Entry:
    """The match as dealt (its options set the table: how many seats, Nations' handicaps)."""
    game = configured(game_id, options or {})
    step = game.start(seed, rules_version)
    empty = Entry(match_id, game_id, 0, step.state, (), dict.fromkeys((*game.seats, None), ()))
    return empty.extended(step.state, tuple(step.events), None, None)


@dataclass
class _Slot:
    info: MatchInfo | None = None
    entry: Entry | None = None
    tokens: dict[str, str] = field(default_factory=dict)  # token hash -> seat name
    weight: int = SLOT_BYTES


class MatchCache:
    """An LRU of matches bounded by their estimated bytes (a finished match weighs about
    fifteen times a fresh one), safe to use from many threads. The newest slot always stays."""

    def __init__(self, capacity_bytes: int, caches: Caches | None = None) -> None:
        self._capacity = capacity_bytes
        self._slots: BoundedCache[str, _Slot] = BoundedCache(
            "matches",
            budget=capacity_bytes,
            weigh=lambda slot: slot.weight,
            on_evict=lambda _, slot: self._drop_tokens(slot),
        )
        self._by_token: dict[str, str] = {}  # token hash -> match id, for cached slots only
        # its own lock too: a slot's parts and the token index change together
        self._lock = threading.Lock()
        if caches is not None:
            caches.add(self._slots)
            caches.on_match_deleted(self.forget)  # with its seats' tokens

    @property
    def capacity(self) -> int:
        """The budget in bytes (CACHE_MB)."""
        return self._capacity

    @property
    def weight(self) -> int:
        """The sum of the slots' weights."""
        return self._slots.weight

    def _slot(self, match_id: str) -> _Slot:
        slot = self._slots.get(match_id)
        if slot is None:
            slot = _Slot()
            self._slots.put(match_id, slot)  # (the new slot is the newest: it stays)
        return slot

    def _weigh(self, match_id: str, slot: _Slot, weight: int) -> None:
        """The slot weighs this much now; evict the least recently used beyond the budget."""
        slot.weight = weight
        self._slots.put(match_id, slot)

    def _drop_tokens(self, slot: _Slot) -> None:
        for digest in slot.tokens:
            self._by_token.pop(digest, None)

    def info(self, match_id: str) -> MatchInfo | None:
        with self._lock:
            slot = self._slots.peek(match_id)
            return None if slot is None else slot.info

    def entry(self, match_id: str) -> Entry | None:
        with self._lock:
            slot = self._slots.peek(match_id)
            return None if slot is None else slot.entry

    def get(self, match_id: str) -> tuple[MatchInfo, Entry] | None:
        with self._lock:
            slot = self._slots.peek(match_id)
            if slot is None or slot.info is None or slot.entry is None:
                return None
            self._slots.touch(match_id)
            return slot.info, slot.entry

    def holds(self, row: MatchFacts) -> bool:
        """Whether the match's facts as of the row's seats and its state at exactly the row's
        version are cached."""
        with self._lock:
            slot = self._slots.peek(row.id)
            if slot is None or slot.info is None or slot.entry is None:
                return False
            return (slot.entry.version, slot.info.seats_version) == (
                row.version,
                row.seats_version,
            )

    def put_info(self, info: MatchInfo) -> None:
        with self._lock:
            self._slot(info.match_id).info = info

    def put_entry(self, entry: Entry) -> None:
        """Keep the newer of the cached and the given entry."""
        with self._lock:
            slot = self._slot(entry.match_id)
            if slot.entry is None or slot.entry.version < entry.version:
                slot.entry = entry
                self._weigh(entry.match_id, slot, SLOT_BYTES + entry.weight())

    def drop_info(self, match_id: str) -> None:
        """The row changed elsewhere: read it again next time (the game state stays good)."""
        with self._lock:
            slot = self._slots.peek(match_id)
            if slot is not None:
                slot.info = None

    def seen(self, match_id: str, seat: str, when: float) -> None:
        with self._lock:
            slot = self._slots.peek(match_id)
            if slot is not None and slot.info is not None:
                slot.info = slot.info.seen(seat, when)

    def put_token(self, match_id: str, digest: str, seat: str) -> None:
        with self._lock:
            self._slot(match_id).tokens[digest] = seat
            self._by_token[digest] = match_id

    def token(self, digest: str) -> tuple[str, str] | None:
        """(match id, seat) of a token this process has seen, if the match is still cached."""
        with self._lock:
            match_id = self._by_token.get(digest)
            slot = None if match_id is None else self._slots.peek(match_id)
            if match_id is None or slot is None:
                return None
            return match_id, slot.tokens[digest]

    def forget(self, match_id: str) -> None:
        """Drop everything about the match, its seat tokens included (deleted)."""
        with self._lock:
            slot = self._slots.pop(match_id)
            if slot is not None:
                self._drop_tokens(slot)

    def __len__(self) -> int:
        return len(self._slots)


def read_info(db: Session, match: MatchFacts) -> MatchInfo:
    """The match row's facts, with its seats and rematch, from the database."""
    rematch = repo.get_rematch(db, match.id) if match.status == "finished" else None
    new_seats = repo.seats_of(db, rematch.new_match_id) if rematch and rematch.new_match_id else []
    seats = sorted(repo.seats_of(db, match.id), key=_seat_order(match.game))
    return info_of(match, seats, rematch, new_seats)


def row_info(db: Session, cache: MatchCache, match: MatchFacts) -> MatchInfo:
    """The facts of a row just read (or locked): the cached seats and rematch with the row's own
    columns, without reading the seats again while the row counts no change of them since
    (a seat is taken, or a leaver's given to the computer, in the transaction that counts it)."""
    known = cache.info(match.id)
    if known is not None and known.seats_version == match.seats_version:
        return refreshed(known, match)
    return read_info(db, match)


def current(
    cache: MatchCache, reader: Callable[[], AbstractContextManager[Session]], row: MatchFacts
) -> tuple[MatchInfo, Entry]:
    """The row's facts and its game state at the row's version: from the cache when it holds
    them (a move's usual case, with no read at all), else read in a reader session."""
    known, entry = cache.info(row.id), cache.entry(row.id)
    if (
        known is not None
        and entry is not None
        and (entry.version, known.seats_version) == (row.version, row.seats_version)
    ):
        return refreshed(known, row), entry
    with reader() as db:
        info = row_info(db, cache, row)
        return info, catch_up(
            db, cache, row.id, info.game, row.seed, row.rules_version, row.version, info.options
        )


def _seat_order(game_id: str) -> Callable[[SeatRow], int]:
    """Seats in the game's order (views and clocks list them so)."""
    game = get_game(game_id)
    names = game.with_players(max(game.player_counts)).seats
    return lambda seat: names.index(seat.name) if seat.name in names else len(names)


def catch_up(
    db: Session,
    cache: MatchCache,
    match_id: str,
    game_id: str,
    seed: int,
    rules: str,
    upto: int,
    options: Mapping[str, Any],
) -> Entry:
    """The entry at version `upto`, replaying the stored actions the cache does not hold yet."""
    entry = cache.entry(match_id)
    if entry is None or entry.version > upto:
        entry = fresh_entry(match_id, game_id, seed, rules, options)
    if entry.version < upto:
        game = get_game(game_id)
        for row in repo.actions_between(db, match_id, entry.version, upto):
            step = played(game, entry.state, row.role, row.action)
            entry = entry.extended(
                step.state, tuple(step.events), row.created_at.timestamp(), row.role
            )
    cache.put_entry(entry)
    return entry


def load(db: Session, cache: MatchCache, match_id: str) -> tuple[MatchInfo, Entry] | None:
    """The match as stored now, into the cache (None: no such match, and none is cached)."""
    match = repo.match_row(db, match_id)
    if match is None:
        cache.forget(match_id)
        return None
    info = read_info(db, match)
    cache.put_info(info)
    entry = catch_up(
        db, cache, match_id, info.game, match.seed, match.rules_version, match.version, info.options
    )
    return info, entry
