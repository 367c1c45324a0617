"""Table chat storage: the SQL of a match's chat lines, and this process's bounded memory of
each followed match's last lines (what views carry), so a push never reads the database."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from .models import ChatMessage

HISTORY = 100  # lines a view carries (contract v1.1)
CHARS_KEPT = 4_000_000  # characters of chat this process keeps in memory (LRU by match)
NEWEST_KEPT = 10_000  # matches whose newest line id is remembered (a stale read is refused)


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One chat line as every reader of the match sees it."""

    role: str
    name: str
    text: str
    at: float  # epoch seconds
    phrase: str | None = None  # a preset phrase's key: readers show their own translation
    id: int = 0  # the stored line's number: increasing, the same on every process

    def wire(self) -> dict[str, object]:
        said: dict[str, object] = {
            "id": self.id, "role": self.role, "name": self.name, "text": self.text, "at": self.at,
        }  # fmt: skip
        if self.phrase is not None:
            said["phrase"] = self.phrase
        return said


def add_line(db: Session, match_id: str, line: ChatLine, when: datetime) -> int:
    """Store the line; its id."""
    row = ChatMessage(match_id=match_id, role=line.role, name=line.name, text=line.text)
    row.phrase, row.created_at = line.phrase, when
    db.add(row)
    db.flush()
    return int(row.id)


def last_lines(db: Session, match_id: str, limit: int = HISTORY) -> tuple[ChatLine, ...]:
    """The match's last `limit` lines, oldest first."""
    query = (
        select(ChatMessage.role, ChatMessage.name, ChatMessage.text, ChatMessage.created_at)
        .add_columns(ChatMessage.phrase, ChatMessage.id)
        .where(ChatMessage.match_id == match_id)
        .order_by(ChatMessage.id.desc())
        .limit(limit)
    )
    rows = list(db.execute(query))
    return tuple(ChatLine(r, n, t, c.timestamp(), p, i) for r, n, t, c, p, i in reversed(rows))


class ChatHistory:
    """The last lines of recently read matches (least recently used dropped first). Behind the
    database only: a line said on another process arrives through the fan-out, and after the
    fan-out was away everything kept is dropped and read again."""

    def __init__(self, chars: int = CHARS_KEPT) -> None:
        self._kept: OrderedDict[str, tuple[ChatLine, ...]] = OrderedDict()
        self._limit = chars
        self._chars = 0  # what is kept, by its texts' and names' lengths
        self._lock = threading.Lock()  # worker threads read the database and put what they read
        # the newest line said per match lately (bounded): a read that began before that line was
        # stored must not be kept, or the line would be missing until the match is dropped
        self._newest: OrderedDict[str, int] = OrderedDict()

    def get(self, match_id: str) -> tuple[ChatLine, ...] | None:
        with self._lock:
            found = self._kept.get(match_id)
            if found is not None:
                self._kept.move_to_end(match_id)
            return found

    def put(self, match_id: str, lines: tuple[ChatLine, ...]) -> None:
        """Keep what was read, unless a line said since is missing from it (a stale read)."""
        with self._lock:
            read_up_to = lines[-1].id if lines else 0
            if self._newest.get(match_id, 0) > read_up_to:
                return
            self._keep(match_id, lines[-HISTORY:])

    def said(self, match_id: str, line: ChatLine) -> None:
        """A new line: appended where the match's history is kept (else read when needed),
        unless what is kept was read after the line was stored and holds it already."""
        with self._lock:
            self._newest[match_id] = max(line.id, self._newest.pop(match_id, 0))
            while len(self._newest) > NEWEST_KEPT:
                self._newest.popitem(last=False)
            found = self._kept.get(match_id)
            if found is not None and not (found and found[-1].id >= line.id):
                self._keep(match_id, (*found, line)[-HISTORY:])

    def _keep(self, match_id: str, lines: tuple[ChatLine, ...]) -> None:
        self._chars -= _weight(self._kept.pop(match_id, ()))
        self._kept[match_id] = lines
        self._chars += _weight(lines)
        while self._chars > self._limit and len(self._kept) > 1:
            _, dropped = self._kept.popitem(last=False)
            self._chars -= _weight(dropped)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._newest.clear()
            self._chars = 0


def _weight(lines: tuple[ChatLine, ...]) -> int:
    return sum(len(line.text) + len(line.name) + 32 for line in lines)
