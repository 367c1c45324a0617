"""Bot accounts at play (contract v1.2 "Bots", issue 45): an account with no games becomes a bot
account through its API token, and then plays its seats through the bot API — a stream of each
seat's pushes (app/push/streams.py), actions, resignation and the chat's preset phrases —
with the same rules as any seat: the same views (the engine's per-seat projection, nothing
more), the same legal actions, clocks and version checks. A bot's views carry no hints (hints
are for people at unrated tables)."""

from __future__ import annotations

from typing import Any, cast

from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket

from ..errors import ApiError, checked_id
from ..persistence import players as player_rows
from ..persistence import seat_keys
from ..persistence.models import Player
from ..push.hub import Connection
from ..push.streams import StreamSocket
from .api_tokens import Caller, caller
from .chat import Chat
from .core import Core
from .lifecycle import Lifecycle
from .play import Play
from .players import PlayerRef


def not_a_bot() -> ApiError:
    return ApiError(403, "not_a_bot", "Only a bot account plays through the bot API.")


def not_your_seat() -> ApiError:
    return ApiError(403, "not_your_seat", "This account holds no seat in this match.")


class BotPlay:
    def __init__(self, core: Core, play: Play, lifecycle: Lifecycle, chat: Chat) -> None:
        self.core, self.play, self.lifecycle, self.chat = core, play, lifecycle, chat

    def _bot_seat(self, bearer: str | None, match_id: str, scope: str) -> tuple[Caller, str]:
        with self.core.db.write() as db:
            who = caller(db, bearer, scope, self.core.stamp())
            if not who.bot:
                raise not_a_bot()
            seat = seat_keys.held_seat(db, checked_id(match_id), who.player_id)
        if seat is None:
            raise not_your_seat()  # also for no such match: nothing to learn by asking
        return who, seat

    async def account(self, bearer: str | None, scope: str) -> PlayerRef:
        """The account a token acts for, with `scope` (401, 403 missing_scope)."""

        def run() -> PlayerRef:
            with self.core.db.write() as db:
                return PlayerRef(caller(db, bearer, scope, self.core.stamp()).player_id)

        return await run_in_threadpool(run)

    async def upgrade(self, bearer: str | None) -> None:
        """Make the token's account a bot account, for good; `409 has_games` once it has sat
        at any table (its games were played as a person)."""

        def run() -> None:
            with self.core.db.write() as db:
                who = caller(db, bearer, "bot:play", self.core.stamp())
                if who.bot:
                    return
                if player_rows.has_sat(db, who.player_id):
                    raise ApiError(409, "has_games", "An account that has played stays a person.")
                player = db.get(Player, who.player_id)
                assert player is not None  # caller() found it
                player.bot = True

        await run_in_threadpool(run)

    async def act(
        self, bearer: str | None, match_id: str, action: Any, expected: int | None
    ) -> str:
        """The bot's action in its seat: its seat's new view as JSON text."""
        _, seat = await run_in_threadpool(self._bot_seat, bearer, match_id, "bot:play")
        info, entry = await self.play.act(match_id, seat, action, expected, person=True)
        return await self.core.renderer.view(info, entry, seat)

    async def resign(self, bearer: str | None, match_id: str) -> None:
        _, seat = await run_in_threadpool(self._bot_seat, bearer, match_id, "bot:play")
        await self.lifecycle.resign_seat(match_id, seat)

    async def say(
        self, bearer: str | None, match_id: str, text: object, phrase: object, address: str
    ) -> None:
        """A chat line from the bot's seat: a preset phrase only (the chat refuses a bot
        account's free text, whichever way it comes)."""
        _, seat = await run_in_threadpool(self._bot_seat, bearer, match_id, "bot:play")
        await self.chat.say(match_id, seat, text, phrase, address)

    async def stream(
        self, bearer: str | None, match_id: str, scope: dict[str, Any]
    ) -> tuple[Connection, StreamSocket]:
        """The bot's seat's pushes as a stream (429 over the seat's socket cap); the caller reads
        the sink's `lines()` and calls `ended(conn)` when the response is over."""
        _, seat = await run_in_threadpool(self._bot_seat, bearer, match_id, "match:read")
        sink = StreamSocket(scope)
        # a Connection writes to anything with a websocket's scope, state, send_text and close
        conn = Connection(cast(WebSocket, sink), match_id, seat)
        await self.lifecycle.join(conn)  # the first frame, and the seat shown online
        return conn, sink

    async def ended(self, conn: Connection) -> None:
        await self.lifecycle.leave(conn)
