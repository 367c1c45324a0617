"""The per-app objects, wired in one place: storage, cache, push, and one object per use-case
family. Made when the app starts; routes reach them through `request.app.state.ctx`."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

import anyio.to_thread

from ..clocks import Clock
from ..config import Settings
from ..metrics import Metrics
from ..persistence.cache import MatchCache
from ..persistence.db import Database
from ..persistence.moves import Moves
from ..push.bell import BellRoom
from ..push.fanout import Fanout
from ..push.hub import Caps, Hub
from ..push.lobby import LobbyRoom
from ..push.presence import Presence
from ..push.render import Renderer
from ..push.tournament_room import TournamentRoom
from .accounts import Accounts
from .admin import Admin
from .analysis import Analyses
from .api_tokens import ApiTokens
from .bot_events import BotEvents
from .bot_play import BotPlay
from .bots import BotRunner
from .challenges import Challenges
from .chat import Chat
from .core import Core
from .devices import Devices
from .lessons import Lessons
from .lifecycle import Lifecycle
from .lobby import Lobby
from .matches import Matches
from .moderation import Moderation
from .monitor import Monitor
from .notice_producers import TurnLines
from .notices import Notices
from .play import Play
from .players import Players
from .replays import Replays
from .reports import Reports
from .social import Social
from .standings import Standings
from .tournament_admin import TournamentAdmin
from .tournament_director import Director
from .tournament_entries import TournamentEntries
from .tournaments import Tournaments
from .turns import TurnNotices
from .views import Views

GOING_AWAY = 1001  # the close code that tells a client this server is stopping: reconnect


@dataclass
class AppContext:
    settings: Settings
    db: Database
    cache: MatchCache
    hub: Hub
    fanout: Fanout
    presence: Presence
    core: Core
    matches: Matches
    play: Play
    views: Views
    lifecycle: Lifecycle
    admin: Admin
    bots: BotRunner
    metrics: Metrics
    monitor: Monitor
    players: Players
    replays: Replays
    accounts: Accounts
    standings: Standings
    lobby: Lobby
    lobby_room: LobbyRoom
    chat: Chat
    turns: TurnNotices
    analyses: Analyses
    lessons: Lessons
    devices: Devices
    reports: Reports
    moderation: Moderation
    api_tokens: ApiTokens
    bot_play: BotPlay
    notices: Notices
    bell_room: BellRoom
    turn_lines: TurnLines
    social: Social
    challenges: Challenges
    bot_events: BotEvents
    tournaments: Tournaments
    tournament_entries: TournamentEntries
    tournament_admin: TournamentAdmin
    tournament_room: TournamentRoom
    director: Director

    @staticmethod
    async def start(settings: Settings, clock: Clock, metrics: Metrics) -> AppContext:
        db = Database(settings.database_url, settings.database_connect_timeout_s)
        cache = MatchCache(int(settings.cache_mb * 1024 * 1024), metrics.caches)
        hub = Hub(
            metrics,
            Caps(
                settings.max_sockets_per_seat,
                settings.max_sockets_per_spectator_key,
                settings.max_sockets_per_match,
                settings.max_spectators_per_address,
            ),
        )
        metrics.watch(
            hub.match_count, hub.socket_count, lambda: cache.weight, cache.__len__, cache.capacity
        )
        fanout = Fanout(hub, cache, db, settings.redis_url, metrics)
        presence = Presence(hub, fanout)
        renderer = Renderer(db, cache, presence, clock, fanout.chat)
        hub.render = renderer.frames
        await presence.start()  # before the fan-out: it refreshes presence after each subscribe
        await fanout.start()
        # Fewer worker threads than anyio's 40: database work is short, and a crowd of threads
        # fighting for the GIL stretched the one holding the write lock (p99 latency spikes).
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.worker_threads
        moves = Moves(db.writer_engine, db.write_lock)
        core = Core(settings, db, cache, fanout, renderer, clock, moves, metrics)
        play = Play(core)
        bots = BotRunner(core, play)
        core.listeners.append(bots.on_change)
        matches = Matches(core)
        lobby, lobby_room = (
            Lobby(core, matches),
            LobbyRoom(settings.max_lobby_sockets, settings.max_lobby_sockets_per_address),
        )
        lobby_room.render = lobby.rendered
        lobby_room.tailor = lobby.tailored  # blocks hide challenges (issue 43)
        fanout.lobby_changed.append(lobby_room.wake)
        lifecycle = Lifecycle(core)
        turns = TurnNotices(core)
        chat = Chat(core)
        ctx = AppContext(
            settings, db, cache, hub, fanout, presence, core, matches, play, Views(core),
            lifecycle, Admin(core), bots, metrics, Monitor(core), Players(core),
            Replays(core), Accounts(core), Standings(core), lobby, lobby_room, chat,
            turns, Analyses(core), Lessons(matches, play), Devices(core), Reports(core),
            Moderation(core), ApiTokens(core), BotPlay(core, play, lifecycle, chat),
            Notices(core, turns),  # the bell: its Web Push uses the turn notices' sender
            BellRoom(settings.max_lobby_sockets, settings.max_lobby_sockets_per_address),
            TurnLines(core), Social(core, presence, lobby_room), Challenges(core, matches),
            BotEvents(core), Tournaments(core), TournamentEntries(core), TournamentAdmin(core),
            TournamentRoom(settings.max_lobby_sockets, settings.max_lobby_sockets_per_address),
            Director(core),
        )  # fmt: skip
        ctx.tournament_room.render = ctx.tournaments.pushed
        ctx.tournament_room.render_own = ctx.tournaments.own_lines
        fanout.notified.append(ctx.tournament_room.notified)  # a pairing: its players at once
        fanout.tournament_changed.append(ctx.tournament_room.changed)
        core.listeners.append(ctx.director.on_change)
        fanout.notified.append(ctx.bot_events.notified)
        ctx.bell_room.render = ctx.notices.frames
        fanout.notified.append(ctx.bell_room.notified)
        fanout.notified.append(lobby_room.notified)  # a challenge reaches the lobby at once
        core.listeners.append(ctx.notices.on_change)
        core.listeners.append(ctx.turn_lines.on_change)
        core.listeners.append(ctx.turns.on_change)
        core.listeners.append(ctx.analyses.on_change)
        ctx.analyses.start()
        await ctx.turns.start()
        await bots.resume_all()
        return ctx

    async def drain(self, grace: float) -> None:
        """Close every socket "going away", so its client reconnects (to another process), and
        give their handlers `grace` seconds to finish; the server stops after this."""
        for conn in self.hub.connections():
            conn.offer(conn.last, close=GOING_AWAY)  # nothing new to send: just the close
        deadline = time.monotonic() + grace
        while self.hub.connections() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)  # each handler leaves as soon as its socket is closed

    async def close(self) -> None:
        await self.analyses.close()
        self.accounts.close()
        await self.bots.close()
        await self.turns.close()
        await self.turn_lines.close()
        await self.bell_room.close()
        await self.tournament_room.close()
        await self.lifecycle.notices.close()
        await self.hub.close()
        await self.lobby_room.close()
        await self.presence.close()
        await self.fanout.close()
        self.db.dispose()
