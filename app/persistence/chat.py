"""Table chat storage: the SQL of a match's chat lines, and this process's bounded memory of
each followed match's last lines (what views carry), so a push never reads the database."""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, delete, func, select
from sqlalchemy.orm import Session

from ..bounded import BoundedCache, Caches, itself
from .models import ChatMessage, Seat

HISTORY = 100  # lines a view carries (contract v1.1)
LINES_KEPT = 1000  # lines a match stores: older ones are trimmed as new ones come
CHARS_KEPT = 4_000_000  # characters of chat this process keeps in memory (LRU by match)
NEWEST_KEPT = 10_000  # matches whose last lines' ids are remembered (a stale read is refused)
IDS_REMEMBERED = 16  # ids of the lines said lately, per match


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One chat line as every reader of the match sees it."""

    role: str
    name: str
    text: str
    at: float  # epoch seconds
    phrase: str | None = None  # a preset phrase's key: readers show their own translation
    id: int = 0  # the stored line's number: increasing, the same on every process
    player: str | None = None  # who wrote it (None: a guest's seat): blocks hide lines by it
    hidden: bool = False  # marked by a word list: shown only to its writer's seat

    def wire(self) -> dict[str, object]:
        said: dict[str, object] = {
            "id": self.id, "role": self.role, "name": self.name, "text": self.text, "at": self.at,
        }  # fmt: skip
        if self.phrase is not None:
            said["phrase"] = self.phrase
        if self.hidden:  # only ever in its writer's copy
            said["hidden"] = True
        return said


def shown_to(
    lines: tuple[ChatLine, ...], seat: str | None, apart: frozenset[str] = frozenset()
) -> tuple[ChatLine, ...]:
    """The lines one reader of the match may see: a hidden line only by its writer's seat (never
    by spectators), and none written by a player `apart` from the reader (a block either way)."""
    return tuple(
        line
        for line in lines
        if (not line.hidden or (seat is not None and line.role == seat))
        and (line.player is None or line.player not in apart)
    )


def add_line(db: Session, match_id: str, line: ChatLine, when: datetime) -> int:
    """Store the line, and trim the match's oldest lines beyond LINES_KEPT; its id."""
    row = ChatMessage(match_id=match_id, role=line.role, name=line.name, text=line.text)
    row.phrase, row.created_at = line.phrase, when
    row.player, row.hidden = line.player, line.hidden
    db.add(row)
    db.flush()
    oldest_kept = (
        select(ChatMessage.id)
        .where(ChatMessage.match_id == match_id)
        .order_by(ChatMessage.id.desc())
        .offset(LINES_KEPT - 1)
        .limit(1)
        .scalar_subquery()
    )
    db.execute(
        delete(ChatMessage).where(ChatMessage.match_id == match_id, ChatMessage.id < oldest_kept)
    )
    return int(row.id)


def lines_since(db: Session, match_id: str, seat: str, player: str | None, since: datetime) -> int:
    """How many lines were said since `since`: by the player, at any table (a player's seats),
    else by this seat of the match (a guest's)."""
    query = select(func.count()).select_from(ChatMessage).where(ChatMessage.created_at >= since)
    if player is None:
        query = query.where(ChatMessage.match_id == match_id, ChatMessage.role == seat)
    else:
        query = query.join(
            Seat, and_(Seat.match_id == ChatMessage.match_id, Seat.name == ChatMessage.role)
        ).where(Seat.player == player)
    return int(db.execute(query).scalar_one())


def last_lines(db: Session, match_id: str, limit: int = HISTORY) -> tuple[ChatLine, ...]:
    """The match's last `limit` lines, oldest first."""
    query = (
        select(ChatMessage.role, ChatMessage.name, ChatMessage.text, ChatMessage.created_at)
        .add_columns(ChatMessage.phrase, ChatMessage.id, ChatMessage.player, ChatMessage.hidden)
        .where(ChatMessage.match_id == match_id)
        .order_by(ChatMessage.id.desc())
        .limit(limit)
    )
    rows = list(db.execute(query))
    return tuple(
        ChatLine(r, n, t, c.timestamp(), p, i, who, bool(h))
        for r, n, t, c, p, i, who, h in reversed(rows)
    )


class ChatHistory:
    """The last lines of recently read matches (least recently used dropped first). Behind the
    database only: a line said on another process arrives through the fan-out, and after the
    fan-out was away everything kept is dropped and read again."""

    def __init__(self, chars: int = CHARS_KEPT, caches: Caches | None = None) -> None:
        # weighed by its texts' and names' lengths
        self._kept: BoundedCache[str, tuple[ChatLine, ...]] = BoundedCache(
            "chat_history", budget=chars, weigh=_weight, match_of=itself, caches=caches
        )
        self._lock = threading.Lock()  # worker threads read the database and put what they read
        # the ids of the lines said per match lately (bounded): a read that began before one of
        # them was stored must not be kept, or the line would be missing until the match is
        # dropped. Ids, not only the newest: on PostgreSQL a line's id is given at its insert, so
        # two processes' lines may commit, and arrive here, out of id order.
        self._said: BoundedCache[str, deque[int]] = BoundedCache(
            "chat_said", NEWEST_KEPT, match_of=itself, caches=caches
        )

    def get(self, match_id: str) -> tuple[ChatLine, ...] | None:
        with self._lock:
            return self._kept.get(match_id)

    def put(self, match_id: str, lines: tuple[ChatLine, ...]) -> None:
        """Keep what was read, unless a line said lately is missing from it (a stale read)."""
        with self._lock:
            lines = lines[-HISTORY:]
            read = {line.id for line in lines}
            # a full history's oldest line bounds what it must hold: older lines fell off it
            floor = lines[0].id if len(lines) == HISTORY else 0
            if any(said > floor and said not in read for said in self._said.peek(match_id) or ()):
                return
            self._kept.put(match_id, lines)

    def said(self, match_id: str, line: ChatLine) -> None:
        """A new line: put in its place (by id: lines may arrive out of order) where the match's
        history is kept (else read when needed), unless what is kept holds it already."""
        with self._lock:
            said = self._said.peek(match_id) or deque(maxlen=IDS_REMEMBERED)
            said.append(line.id)
            self._said.put(match_id, said)  # the most recently said to now
            found = self._kept.peek(match_id)
            if found is not None and all(kept.id != line.id for kept in found):
                ordered = sorted((*found, line), key=lambda kept: kept.id)
                self._kept.put(match_id, tuple(ordered[-HISTORY:]))

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._said.clear()


def _weight(lines: tuple[ChatLine, ...]) -> int:
    return sum(len(line.text) + len(line.name) + 32 for line in lines)
