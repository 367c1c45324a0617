"""The per-app objects (settings, database, cache, services, realtime), made in create_app."""

from __future__ import annotations

from dataclasses import dataclass

from .bots import BotRunner
from .config import Settings
from .db import Database
from .matches import MatchService
from .realtime import Broadcaster, Hub


@dataclass
class AppContext:
    settings: Settings
    db: Database
    service: MatchService
    hub: Hub
    broadcaster: Broadcaster
    bots: BotRunner
