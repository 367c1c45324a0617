"""Settings from the environment (pydantic-settings); one instance is made per app."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from pydantic import field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Everything the server reads from the environment."""

    model_config = SettingsConfigDict(env_prefix="", extra="ignore")

    host: str = "127.0.0.1"
    port: int = 8000
    database_url: str = "sqlite:///var/watergate.db"
    redis_url: str | None = None
    admin_token: str | None = None  # unset: the admin endpoints answer 401
    base_url: str | None = None  # public address for links; unset: an allowed Host only
    allowed_hosts: str = "localhost,127.0.0.1,::1"  # Host names links may use without BASE_URL
    forwarded_allow_ips: str = "127.0.0.1,::1"  # proxies whose X-Forwarded-* are believed
    bot_delay_ms: int = 600  # the computer opponent's human-like pause before it moves
    bot_kind: str = "search"  # search | heuristic | random
    bot_budget_ms: int = 400  # the search bot's thinking time per decision
    sweep_seconds: float = 2.0  # how often clocks and abandonment are checked
    worker_threads: int = 12  # threads for blocking work (database, bots)
    max_body_bytes: int = 64 * 1024
    max_ws_frame_bytes: int = 64 * 1024
    cache_matches: int = 5000  # match states kept in memory (rebuilt by replay on a miss)

    @field_validator("base_url")
    @classmethod
    def _origin_only(cls, value: str | None) -> str | None:
        """An http(s) address without query or fragment, kept without its trailing slash, so
        links are `base_url + path`. A wrong value stops the start, not the first invite."""
        if not value:
            return None
        parts = urlsplit(value.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.query:
            raise ValueError("BASE_URL must look like https://watergate.example.org")
        if parts.fragment:
            raise ValueError("BASE_URL must not have a #fragment")
        return value.strip().rstrip("/")

    @property
    def allowed_host_names(self) -> tuple[str, ...]:
        """ALLOWED_HOSTS as bare lower-case names ("[::1]" and "::1" alike), in their order."""
        names = (h.strip().lower().strip("[]") for h in self.allowed_hosts.split(","))
        return tuple(n for n in names if n)

    def bind_problem(self) -> str | None:
        """Why `python -m app` must not start as configured, or None. Off loopback, every request
        may carry any Host header, so links need a configured public address."""
        if self.base_url or is_loopback(self.host):
            return None
        return (
            f"HOST={self.host} listens beyond this machine, but BASE_URL is not set. Set BASE_URL "
            "to the public address players use (e.g. BASE_URL=https://watergate.example.org): "
            "invite and spectator links are built from it, never from a request's Host header."
        )


def is_loopback(host: str) -> bool:
    """localhost or a loopback address (127.0.0.0/8, ::1); 0.0.0.0 and names are public."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip().strip("[]")).is_loopback
    except ValueError:
        return False
