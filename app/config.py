"""Settings from the environment (pydantic-settings); one instance is made per app."""

from __future__ import annotations

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Everything the server reads from the environment."""

    model_config = SettingsConfigDict(env_prefix="", extra="ignore")

    host: str = "127.0.0.1"
    port: int = 8000
    database_url: str = "sqlite:///var/watergate.db"
    redis_url: str | None = None
    admin_token: str | None = None  # unset: the admin endpoints answer 401
    base_url: str | None = None  # public address for invite links; default: the request's own
    bot_delay_ms: int = 600  # the computer opponent's human-like pause before it moves
    bot_kind: str = "search"  # search | heuristic | random
    bot_budget_ms: int = 400  # the search bot's thinking time per decision
    sweep_seconds: float = 2.0  # how often clocks and abandonment are checked
    worker_threads: int = 12  # threads for blocking work (database, bots)
    max_body_bytes: int = 64 * 1024
    max_ws_frame_bytes: int = 64 * 1024
    cache_matches: int = 5000  # match states kept in memory (rebuilt by replay on a miss)
    ws_auth_seconds: float = 10.0  # a seat socket without ?token= must send its auth frame by then
    # live sockets per process (each process counts its own); one over is closed with 4429
    max_sockets_per_seat: int = 4
    max_sockets_per_spectator_key: int = 20
    max_sockets_per_match: int = 200
