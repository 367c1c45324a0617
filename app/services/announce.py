"""Presence announcements coalesced per match: a burst of sockets coming and going costs one
announcement per seat per short window, not one per socket."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from ..push.changes import Change, PresenceChanged

log = logging.getLogger("watergate.presence")

# Long enough to gather a reconnecting client's close and open (or a crowd of tabs), short enough
# that the opponent sees the change as it happens.
PRESENCE_WINDOW_S = 0.1


class PresenceNotices:
    """Each seat's newest presence fact waits up to one window, then is published once: the
    opponent's sockets are re-rendered, on every process, at most once per seat per window."""

    def __init__(
        self, publish: Callable[[Change], Awaitable[None]], window: float = PRESENCE_WINDOW_S
    ) -> None:
        self.publish, self.window = publish, window
        self._pending: dict[str, dict[str, float | None]] = {}  # match -> seat -> left_at
        self._flushes: dict[str, asyncio.Task[None]] = {}

    def announce(self, match_id: str, seat: str, left_at: float | None) -> None:
        """The seat came online (left_at None) or its last socket here closed at `left_at`;
        a newer fact for the same seat replaces one still waiting."""
        self._pending.setdefault(match_id, {})[seat] = left_at
        if match_id not in self._flushes:
            self._flushes[match_id] = asyncio.create_task(self._flush(match_id))

    async def _flush(self, match_id: str) -> None:
        await asyncio.sleep(self.window)
        # taken before publishing, so a fact arriving meanwhile starts a window of its own
        del self._flushes[match_id]
        for seat, left_at in self._pending.pop(match_id, {}).items():
            try:
                await self.publish(PresenceChanged(match_id, seat, left_at))
            except Exception:  # presence is advisory: the next change repaints it
                log.exception("announcing presence in %s failed", match_id)

    async def close(self) -> None:
        """Drop what is still waiting: the sockets are closing with the process."""
        for task in list(self._flushes.values()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._flushes.clear()
        self._pending.clear()
