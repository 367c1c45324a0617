"""Rendering the frames of a match's sockets: from the cache when it holds the announced version
(the usual case, and always on the process that accepted the action), else caught up from the
database once per process, in a worker thread."""

from __future__ import annotations

from dataclasses import replace

from starlette.concurrency import run_in_threadpool

from engine.core.game import Viewer

from ..clocks import Clock
from ..persistence import cache as cached
from ..persistence.blocks import kept_apart
from ..persistence.cache import Entry, MatchCache
from ..persistence.chat import ChatHistory, ChatLine, last_lines, shown_to
from ..persistence.db import Database
from ..persistence.records import MatchInfo
from .frames import Frame, frame, live_at
from .presence import Presence


class Renderer:
    def __init__(
        self,
        db: Database,
        cache: MatchCache,
        presence: Presence,
        clock: Clock,
        chat: ChatHistory | None = None,
    ) -> None:
        self.db, self.cache, self.presence, self.clock = db, cache, presence, clock
        self.chat = chat or ChatHistory()

    def _read_chat(self, match_id: str) -> tuple[ChatLine, ...]:
        with self.db.reader() as db:
            lines = last_lines(db, match_id)
        self.chat.put(match_id, lines)
        return lines

    async def chat_of(self, match_id: str) -> tuple[ChatLine, ...]:
        """The match's last chat lines: from memory, or read once from the database."""
        found = self.chat.get(match_id)
        return found if found is not None else await run_in_threadpool(self._read_chat, match_id)

    def _load(self, match_id: str) -> tuple[MatchInfo, Entry] | None:
        with self.db.reader() as db:
            found = cached.load(db, self.cache, match_id)
        if found is not None:
            found[1].warm()
        return found

    async def match(self, match_id: str, version: int) -> tuple[MatchInfo, Entry] | None:
        """The match at `version` or later: from memory, or read once from the database."""
        found = self.cache.get(match_id)
        if found is None or found[1].version < version:
            found = await run_in_threadpool(self._load, match_id)
        return found

    async def frames(
        self, match_id: str, viewers: set[Viewer], version: int
    ) -> dict[Viewer, Frame] | None:
        """One websocket frame per viewer (the Hub's Render)."""
        found = await self.match(match_id, version)
        if found is None:
            return None
        info, entry = found
        online, chat = await self.presence.online(match_id), await self.chat_of(match_id)
        live = live_at(info, entry, online, self.clock.now(), chat)
        frames: dict[Viewer, Frame] = {}
        for viewer in viewers:
            mine = replace(live, chat=await self.chat_for(info, viewer, chat))
            frames[viewer] = frame(info, entry, viewer, mine, "view")
        return frames

    async def view(self, info: MatchInfo, entry: Entry, viewer: Viewer) -> str:
        """An HTTP answer's view: the same text as a frame, without the message type."""
        online = await self.presence.online(info.match_id)
        chat = await self.chat_for(info, viewer, await self.chat_of(info.match_id))
        live = live_at(info, entry, online, self.clock.now(), chat)
        return frame(info, entry, viewer, live).text()

    async def chat_for(
        self, info: MatchInfo, viewer: Viewer, chat: tuple[ChatLine, ...]
    ) -> tuple[ChatLine, ...]:
        """The lines this viewer may read (issue 43): no line hidden from it by the word list,
        none of a player kept apart from it by a block, either way. The blocks are read only when
        another player's line is in the chat, and then at every render: a block counts at once."""
        player = info.seat(viewer).player_id if viewer is not None else None
        writers = {line.player for line in chat if line.player is not None} - {player}
        if player is None or not writers:
            return shown_to(chat, viewer)
        apart = await run_in_threadpool(self._apart, player, writers)
        return shown_to(chat, viewer, apart)

    def _apart(self, player: str, writers: set[str]) -> frozenset[str]:
        with self.db.reader() as db:
            return frozenset(kept_apart(db, player, writers))
