"""Use cases of the table chat: a seat says a line (or a preset quick phrase) on its socket;
it is checked, limited per seat, stored with the match, and pushed to every socket of the match,
seats and spectators alike. Never for a person alone with the computer (a table with two or more
people chats, whoever else sits at it); spectators only read. Issue 43: a muted player is
refused (`403 muted`); a flood or a repeated text is refused (`429 chat_flood`,
`chat_repeated`); a line a word list marks reaches only its writer and is reported; a line never
reaches a seat whose player is kept apart from its writer by a block. Issue 45: a bot account
says only the preset phrases (`403 bot_chat_phrases_only`), so a program cannot talk at people."""

from __future__ import annotations

import unicodedata
from collections import deque
from dataclasses import replace
from typing import Final

from starlette.concurrency import run_in_threadpool

from ..bounded import BoundedCache
from ..errors import ApiError
from ..names import REFUSED_CATEGORIES
from ..persistence.blocks import kept_apart
from ..persistence.chat import ChatLine, add_line, lines_since
from ..persistence.records import GUEST_NAME, MatchInfo
from ..push.changes import Chatted, Notified
from .access import current
from .chat_safety import FloodGuard, marked
from .core import Core, utc
from .leaving import seat_left
from .reports import line_marked
from .sanctions import refuse_if_sanctioned

MAX_CHARS: Final = 500
BURST: Final = 5  # lines a seat may say ...
WINDOW_S: Final = 10.0  # ... within this many seconds (contract v1.1)
SEATS_TRACKED: Final = 10_000  # seats whose recent lines this process remembers
# what one person may store in a day: a player at all tables, a guest at each seat (a guest's
# seats are few: making and joining matches is limited per address)
PLAYER_LINES_A_DAY: Final = 1000
GUEST_SEAT_LINES_A_DAY: Final = 300
# and one address, whoever says them, counted by each process for the day (UTC) under way
ADDRESS_LINES_A_DAY: Final = 3000
ADDRESSES_TRACKED: Final = 100_000
DAY_S: Final = 86_400.0
ZWJ: Final = "\u200d"  # joins emoji sequences: a format character that is fine in a chat line
# the preset quick phrases, by key (the locales translate "chat_phrase_<key>"), and the English
# text stored with them for any reader that does not know the key
PHRASES: Final = {
    "good_game": "Good game",
    "good_luck": "Good luck",
    "thinking": "Thinking…",
    "thanks": "Thanks",
}


def spectator_cannot() -> ApiError:
    return ApiError(403, "spectator", "Spectators read the chat; only the seats write in it.")


def chat_quota(lines: int) -> ApiError:
    return ApiError(429, "chat_quota", f"{lines} lines a day have been said; the chat rests now.")


def bot_phrases_only() -> ApiError:
    return ApiError(
        403, "bot_chat_phrases_only", f"A bot account says only the phrases {', '.join(PHRASES)}."
    )


def checked_text(raw: object) -> str:
    """1-500 characters after trimming, none of them control or invisible format characters."""
    if not isinstance(raw, str):
        raise ApiError(422, "invalid_chat", 'A chat message needs a "text" string.')
    text = unicodedata.normalize("NFC", raw).strip()
    if not 1 <= len(text) <= MAX_CHARS:
        raise ApiError(422, "invalid_chat", f"A chat message is 1-{MAX_CHARS} characters.")
    if any(unicodedata.category(c) in REFUSED_CATEGORIES and c != ZWJ for c in text):
        raise ApiError(422, "invalid_chat", "A chat message cannot hold control characters.")
    return text


class Chat:
    def __init__(self, core: Core) -> None:
        self.core = core
        # each seat's recent lines (epoch seconds), least recently heard dropped first
        caches = core.metrics.caches
        self._recent: BoundedCache[tuple[str, str], deque[float]] = BoundedCache(
            "chat_seats", SEATS_TRACKED, match_of=lambda key: key[0], caches=caches
        )
        # each address's lines today: address -> (the day's number, lines)
        self._by_address: BoundedCache[str, tuple[int, int]] = BoundedCache(
            "chat_addresses", ADDRESSES_TRACKED, caches=caches
        )
        self.flood = FloodGuard(caches)  # per writer, across their tables (issue 43)

    async def say(
        self, match_id: str, seat: str | None, text: object, phrase: object, address: str = ""
    ) -> None:
        """A line from `seat` (None: a spectator, refused); `phrase` a preset's key instead;
        `address`: where it came from (the rate limits' key of the socket's peer)."""
        if seat is None:
            raise spectator_cannot()
        if phrase is not None:
            if not isinstance(phrase, str) or phrase not in PHRASES:
                raise ApiError(422, "invalid_chat", f"Known phrases: {', '.join(PHRASES)}.")
            text = PHRASES[phrase]
        said = checked_text(text)
        now = self.core.clock.now()
        self._limit(match_id, seat, now)
        self._count_address(address, now)
        line, apart, told = await run_in_threadpool(self._store, match_id, seat, said, phrase, now)
        await self.core.publish(
            Chatted(
                match_id, line.role, line.name, line.text, line.at, line.phrase, line.id,
                line.player, line.hidden, apart,
            )
        )  # fmt: skip
        await self.core.publish(*told)  # a word-list mute began: the writer's bell lines

    def _limit(self, match_id: str, seat: str, now: float) -> None:
        """At most BURST lines in any WINDOW_S seconds per seat (counted by this process)."""
        key = (match_id, seat)
        recent = self._recent.peek(key) or deque(maxlen=BURST)
        self._recent.put(key, recent)  # the most recently heard now
        if len(recent) == BURST and now - recent[0] < WINDOW_S:
            wait = max(1, int(WINDOW_S - (now - recent[0]) + 0.999))
            raise ApiError(429, "rate_limited", f"Too many messages; wait {wait} seconds.")
        recent.append(now)

    def _count_address(self, address: str, now: float) -> None:
        """At most ADDRESS_LINES_A_DAY lines a day from one address (counted by this process)."""
        day = int(now // DAY_S)
        seen_day, lines = self._by_address.peek(address) or (day, 0)
        lines = lines if seen_day == day else 0
        self._by_address.put(address, (day, lines + 1))
        if lines >= ADDRESS_LINES_A_DAY:
            raise chat_quota(ADDRESS_LINES_A_DAY)

    def _store(
        self, match_id: str, seat: str, text: str, phrase: object, now: float
    ) -> tuple[ChatLine, tuple[str, ...], tuple[Notified, ...]]:
        """Store the line; with the seats kept apart from its writer, and the writer's new bell
        lines when this line brought a mute."""
        found = current(self.core, match_id)
        if found is None:
            raise ApiError(404, "not_found", "No such match.")
        info = found[0]
        if info.kind(seat) != "human":  # a table's leaver watches; the talk is the others'
            raise seat_left()
        if len(info.people) < 2:  # a person alone with the computer
            raise ApiError(422, "no_chat", "There is no chat in a match against the computer.")
        preset = phrase if phrase in PHRASES else None
        if preset is None and info.seat(seat).player_bot:
            raise bot_phrases_only()
        player = info.seat(seat).player_id
        hidden = preset is None and marked(text)
        line = ChatLine(seat, _name(info, seat), text, now, preset, 0, player, hidden)
        quota = PLAYER_LINES_A_DAY if player is not None else GUEST_SEAT_LINES_A_DAY
        told: tuple[Notified, ...] = ()
        with self.core.db.write() as db:
            if player is not None:
                refuse_if_sanctioned(db, player, ("chat",), utc(now))
            self.flood.check(player or f"{match_id}/{seat}", text, now)
            if lines_since(db, match_id, seat, player, utc(now - DAY_S)) >= quota:
                raise chat_quota(quota)
            line_id = add_line(db, match_id, line, utc(now))
            apart: tuple[str, ...] = ()
            if player is not None:
                others = {
                    s.player_id: s.name for s in info.seats if s.player_id not in (None, player)
                }
                away = kept_apart(db, player, (p for p in others if p is not None))
                apart = tuple(sorted(others[who] for who in away))
            if hidden and player is not None:
                told = line_marked(db, player, match_id, line_id, utc(now))
        return replace(line, id=line_id), apart, told


def _name(info: MatchInfo, seat: str) -> str:
    """The name the seat is shown by: its player's, or the guests' word."""
    return info.seat(seat).player_name or GUEST_NAME
