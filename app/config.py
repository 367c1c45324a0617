"""Settings from the environment (pydantic-settings); one instance is made per app."""

from __future__ import annotations

from pydantic import model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

# What the computer's pause keeps beyond its thinking time (R18: its pace must not depend on its
# hand or its options): reading the match, a search iteration that ends past the deadline, a
# worker thread that is busy for a moment. Measured overruns stay well below it.
BOT_PACE_MARGIN_MS = 150


class Settings(BaseSettings):
    """Everything the server reads from the environment."""

    model_config = SettingsConfigDict(env_prefix="", extra="ignore")

    host: str = "127.0.0.1"
    port: int = 8000
    database_url: str = "sqlite:///var/watergate.db"
    redis_url: str | None = None
    admin_token: str | None = None  # unset: the admin endpoints answer 401
    base_url: str | None = None  # public address for invite links; default: the request's own
    bot_delay_ms: int = 600  # the computer's fixed pace: every answer comes this long after
    bot_kind: str = "search"  # search | heuristic | random
    bot_budget_ms: int = 400  # the search bot's thinking time per decision, inside the delay
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

    @model_validator(mode="after")
    def _bot_thinks_inside_its_pause(self) -> Settings:
        """R18: thinking longer than the pause would make answers with many options slower than
        a lone pass. A delay of 0 (tests, benchmarks) turns the pause, and the fixed pace, off."""
        if self.bot_delay_ms > 0 and self.bot_budget_ms > self.bot_delay_ms - BOT_PACE_MARGIN_MS:
            raise ValueError(
                f"BOT_BUDGET_MS ({self.bot_budget_ms}) must be at most BOT_DELAY_MS "
                f"({self.bot_delay_ms}) - {BOT_PACE_MARGIN_MS} ms, so that the computer's pace "
                "never depends on its hand (R18)"
            )
        return self
