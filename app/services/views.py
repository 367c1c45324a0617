"""Use cases that read: a seat's view, a spectator's view, and opening either kind of socket."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket

from ..clocks import clock_name
from ..errors import ApiError, checked_id, not_found
from ..games import site
from ..persistence import repository as repo
from ..push.hub import Connection
from .access import check_key, current, seat_and_match, spectated
from .core import Core
from .exports import ENDED


def wants_tails(ws: WebSocket) -> bool:
    """`?log=tail` (contract v1.1): after the first full view, each view carries "log_from" and
    only the log entries from there on; v1 clients, not asking, get the whole log every time."""
    return ws.query_params.get("log") == "tail"


class Views:
    def __init__(self, core: Core) -> None:
        self.core = core

    async def game_of(self, match_id: str, *, ended: bool = False) -> str | None:
        """The game a match is of (None: no such match), for the page that shows its table.
        With `ended` (a replay's page), a match that has not ended is not found either: a
        replay's address must not tell that a live match exists, nor its game."""
        found = await self.table_of(match_id, ended=ended)
        return None if found is None else found[0]

    async def table_of(self, match_id: str, *, ended: bool = False) -> tuple[str, str] | None:
        """(game, rules version) of a match, as `game_of` finds it: the table's page names the
        edition its match is played by."""
        info = self.core.cache.info(match_id)
        if info is not None and not ended:
            return info.game, info.rules_version
        return await run_in_threadpool(self._table_of, match_id, ended)

    def _game_of(self, match_id: str, ended: bool = False) -> str | None:
        found = self._table_of(match_id, ended)
        return None if found is None else found[0]

    def _table_of(self, match_id: str, ended: bool = False) -> tuple[str, str] | None:
        try:
            wanted = checked_id(match_id)
        except ApiError:
            return None
        with self.core.db.reader() as db:
            match = repo.get_match(db, wanted)
            if match is None or (ended and match.status not in ENDED):
                return None
            return match.game, match.rules_version

    async def access(self, match_id: str) -> dict[str, object]:
        """What a browser holding no seat in a match may do there (issue 42): its game and
        status, and the spectator's address when the match is public (a lobby challenge); a
        private match's spectator link stays with its players."""

        def run() -> dict[str, object]:
            found = current(self.core, match_id)
            if found is None:
                raise not_found()
            info = found[0]
            watch = None
            if info.options.get("visibility") == "public" and info.spectator_key:
                prefix = site(info.game).prefix
                watch = f"{prefix}/watch/{info.match_id}?key={info.spectator_key}"
            return {"game": info.game, "status": info.status, "watch_path": watch}

        return await run_in_threadpool(run)

    async def invite_facts(self, code: str) -> dict[str, object] | None:
        """What an invite's landing page tells the invited person (issue 42): the game, the seat
        they take, the clock, whether it is rated, and who invites them (the first person seated
        at the table); None for no such invite."""

        def run() -> dict[str, object] | None:
            try:
                wanted = checked_id(code, "invite")
            except ApiError:
                return None
            with self.core.db.reader() as db:
                invite = repo.get_invite(db, wanted)
                match = None if invite is None else repo.get_match(db, invite.match_id)
                if invite is None or match is None:
                    return None
                seats = repo.seats_of(db, match.id)
            options = dict(match.options or {})
            hosts = [s for s in seats if s.name != invite.seat and s.kind == "human" and s.player]
            return {
                "game": match.game,
                "seat": invite.seat,
                "clock": clock_name(options.get("clock")),
                "rated": options.get("rated") is True,
                "inviter": hosts[0].player_name if hosts and not hosts[0].player_deleted else None,
            }

        return await run_in_threadpool(run)

    async def seat_view(self, token: str | None, match_id: str) -> str:
        """The match as this seat sees it, as JSON text."""
        seat, info, entry = await run_in_threadpool(seat_and_match, self.core, token, match_id)
        return await self.core.renderer.view(info, entry, seat)

    async def spectator_view(self, match_id: str, key: str | None) -> str:
        """The match as a spectator sees it: public information only."""
        info, entry = await run_in_threadpool(spectated, self.core, match_id, key)
        return await self.core.renderer.view(info, entry, None)

    async def seat_socket(self, ws: WebSocket, token: str | None, match_id: str) -> Connection:
        """A seat's socket, once its token is checked (raises ApiError)."""
        seat, _, _ = await run_in_threadpool(seat_and_match, self.core, token, match_id)
        return Connection(ws, match_id, seat, wants_tails(ws))

    async def spectator_socket(self, ws: WebSocket, match_id: str, key: str | None) -> Connection:
        """A spectator's socket, once its key is checked (raises ApiError). A match already
        followed here is checked from memory, on the event loop: a crowd arriving on a watched
        match (or a churn of hostile spectators) costs no worker thread and no read each."""
        info = self.core.cache.info(match_id) if self.core.fanout.follows(match_id) else None
        if info is None:
            await run_in_threadpool(spectated, self.core, match_id, key)
        else:
            check_key(info, key)
        return Connection(ws, match_id, None, wants_tails(ws))
