"""Settings from the environment (pydantic-settings); one instance is made per app."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from limits import parse_many
from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from .passwords import MIN_MEMORY_KIB, QUEUE

# The default limits are per client address and far above what a person does: a player creates
# a match or claims an invite a few times an hour, a browser reconnects its socket at most every
# half second while backing off, an admin signs in once a day. A school or a café behind one
# address with a few dozen players stays below them too; a script hammering the server does not.
CREATE_LIMIT = "30/minute;300/hour"  # new matches, rematches (each writes a match)
JOIN_LIMIT = "30/minute;300/hour"  # invite claims, rematch accepts and claims
PLAYER_LIMIT = "30/minute;200/hour"  # new players (one per browser, ever) and renames
ADMIN_LOGIN_LIMIT = "10/minute;60/hour"  # sign-in attempts and wrong admin bearer tokens
SOCKET_LIMIT = "120/minute;2000/hour"  # websocket connects (seats and spectators)
ACCOUNT_LIMIT = "10/minute;30/hour"  # new accounts (one per person, ever)
LOGIN_LIMIT = "20/minute;100/hour"  # sign-ins, password checks (deleting an account)
# per username and client address (and per username and known device): one address guessing at
# one account; the owner elsewhere is not counted with it
LOGIN_USER_LIMIT = "10/minute;50/hour"
# per username, from every browser that has never signed in to it, together: a guesser spreading
# over many addresses gets this many tries at one account at most; the owner's own browsers
# (known devices) are not counted here and are never refused by it
LOGIN_USER_GLOBAL_LIMIT = "30/hour;100/day"
CHALLENGE_LIMIT = "10/minute;60/hour"  # public challenges (each is listed to everyone)
NOTIFICATIONS_LIMIT = "120/minute;1200/hour"  # the bell: listing and marking read (each page)
MODERATION_LIMIT = "60/minute;600/hour"  # reports and moderation (issue 43)
BOT_LIMIT = "120/minute;3000/hour"  # the bot API's calls per client (issue 45), streams included
# per bot account: its challenges to other bot accounts (lichess allows a few an hour too), so
# two bots cannot loop challenge after challenge against each other
BOT_CHALLENGE_LIMIT = "5/hour"
SOCIAL_LIMIT = "120/minute;1500/hour"  # follows, blocks, settings, challenge lists and answers
REPLAY_LIMIT = "60/minute;600/hour"  # public replays, exports, deal checks: each replays a match
# The computer's push services browsers subscribe with (Chrome, Firefox, Edge, Safari): the only
# hosts the server will POST a turn notice to, so a subscription cannot aim it at anything else
PUSH_HOSTS = "fcm.googleapis.com,push.services.mozilla.com,notify.windows.com,push.apple.com"

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
    database_connect_timeout_s: float = Field(default=5.0, ge=1)  # PostgreSQL: then a 503
    admin_token: str | None = None  # unset: the admin endpoints answer 401
    metrics_token: str | None = None  # unset: /metrics answers this machine only (loopback)
    log_format: str = "text"  # text | json (one JSON object a line)
    base_url: str | None = None  # public address for links; unset: an allowed Host only
    allowed_hosts: str = "localhost,127.0.0.1,::1"  # Host names links may use without BASE_URL
    forwarded_allow_ips: str = "127.0.0.1,::1"  # proxies whose X-Forwarded-* are believed
    rate_limits: str = "on"  # "off": no limits (benchmarks, load tests)
    # /docs, the interactive API explorer: off unless asked for, as it runs Swagger UI's script
    # from its CDN (pinned, with its integrity checked) on the origin that keeps seat tokens
    api_docs: bool = False
    rate_limit_create: str = CREATE_LIMIT
    rate_limit_join: str = JOIN_LIMIT
    rate_limit_player: str = PLAYER_LIMIT
    rate_limit_admin_login: str = ADMIN_LOGIN_LIMIT
    rate_limit_socket: str = SOCKET_LIMIT
    rate_limit_account: str = ACCOUNT_LIMIT
    rate_limit_login: str = LOGIN_LIMIT
    rate_limit_login_user: str = LOGIN_USER_LIMIT
    rate_limit_login_user_global: str = LOGIN_USER_GLOBAL_LIMIT
    rate_limit_challenge: str = CHALLENGE_LIMIT
    rate_limit_replay: str = REPLAY_LIMIT
    rate_limit_notifications: str = NOTIFICATIONS_LIMIT
    rate_limit_moderation: str = MODERATION_LIMIT
    rate_limit_bot: str = BOT_LIMIT
    rate_limit_bot_challenge: str = BOT_CHALLENGE_LIMIT
    rate_limit_social: str = SOCIAL_LIMIT
    bot_delay_ms: int = 600  # the computer's fixed pace: every answer comes this long after
    # "level": each match's own level (easy | normal | hard); a bot's name (search | heuristic |
    # random) plays every match with that bot instead (tests, benchmarks)
    bot_kind: str = "level"
    bot_budget_ms: int = 400  # the search bot's thinking time per decision, inside the delay
    # worker processes the computer thinks in, so its search never holds this process's
    # interpreter (0: in this process's worker threads)
    bot_processes: int = Field(default=1, ge=0, le=64)
    sweep_seconds: float = 2.0  # how often clocks and abandonment are checked
    # a bot account's seat in a match without a clock forfeits after this long without acting on
    # its turn (contract v1.2 "Bots": with no clock, an inactive bot forfeits); 0: never
    bot_idle_hours: float = Field(default=24.0, ge=0)
    worker_threads: int = 12  # threads for blocking work (database, bots)
    # connections (app/http/connections.py): at most this many at once (0: as many as the
    # open-file limit leaves room for), this many from one address (0: any; trusted proxies
    # are never counted so), and a request must arrive within this (0: no deadline)
    max_connections: int = Field(default=0, ge=0)
    max_connections_per_address: int = Field(default=256, ge=0)
    request_read_seconds: float = Field(default=10.0, ge=0)
    # password hashing (argon2id) runs on threads of its own, never the database's: 0 means all
    # cores but one; sign-ins beyond threads + queue are answered 503 busy at once; the memory
    # of one hash in KiB, 0 sizing it to the host (never below OWASP's minimum, 19 MiB)
    password_hash_threads: int = Field(default=0, ge=0, le=64)
    password_hash_queue: int = Field(default=QUEUE, ge=0, le=10_000)
    password_hash_memory_kib: int = Field(default=0, ge=0, le=4 * 1024 * 1024)
    max_body_bytes: int = 64 * 1024
    max_ws_frame_bytes: int = 64 * 1024
    cache_mb: float = 512  # memory for cached match states (a miss rebuilds by replay)

    ws_auth_seconds: float = 10.0  # a seat socket without ?token= must send its auth frame by then
    # every socket's message budget (a token bucket; 0: none): far above a person's clicking,
    # chatting and pinging, far below a script sending as fast as it can (app/http/sockets.py)
    ws_messages_per_second: float = Field(default=5.0, ge=0)
    ws_message_burst: int = Field(default=20, ge=1)
    # an address whose socket was closed for flooding opens no new socket for this long (0: none)
    ws_flood_penalty_seconds: float = Field(default=30.0, ge=0)
    # live sockets per process (each process counts its own); one over is closed with 4429
    max_sockets_per_seat: int = 4
    max_sockets_per_spectator_key: int = 20
    max_sockets_per_match: int = 200
    max_spectators_per_address: int = Field(default=10, ge=1)  # of a spectator link's, per client
    # new spectator sockets a second, per process, from everyone together (0: no budget); more
    # are refused (4429, "overloaded") so that watchers never slow the players down
    spectator_sockets_per_second: float = Field(default=100.0, ge=0)
    spectator_refusal_delay_ms: int = Field(default=1000, ge=0)  # how late a refusal is answered

    # the lobby: live sockets per process, and how long a challenge's creator may be away (no
    # lobby socket, no socket on their own table) before the challenge leaves the lobby
    max_lobby_sockets: int = Field(default=2000, ge=1)
    max_lobby_sockets_per_address: int = Field(default=50, ge=1)  # one address's share of it
    # open challenges at once: per player, and per client address (IPv6 by /64)
    max_challenges_per_player: int = Field(default=3, ge=1)
    max_challenges_per_address: int = Field(default=6, ge=1)
    lobby_away_minutes: float = Field(default=5.0, gt=0)
    # Web Push turn notices: the VAPID key (PEM or base64url; unset: made on the first start and
    # kept in the database), the contact the push services see, the hosts notices may go to
    # (each a host name or a domain suffix; https only, except loopback hosts listed here)
    vapid_private_key: str | None = None
    vapid_subject: str = "mailto:admin@localhost"
    push_hosts: str = PUSH_HOSTS

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

    @field_validator("password_hash_memory_kib")
    @classmethod
    def _safe_memory(cls, value: int) -> int:
        if value and value < MIN_MEMORY_KIB:
            raise ValueError(
                f"PASSWORD_HASH_MEMORY_KIB must be 0 (sized to the host) or at least "
                f"{MIN_MEMORY_KIB} (OWASP's minimum for argon2id)"
            )
        return value

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

    @field_validator("log_format")
    @classmethod
    def _known_format(cls, value: str) -> str:
        value = value.strip().lower()
        if value not in ("text", "json"):
            raise ValueError("LOG_FORMAT must be text or json")
        return value

    @field_validator(
        "rate_limit_create",
        "rate_limit_join",
        "rate_limit_player",
        "rate_limit_admin_login",
        "rate_limit_socket",
        "rate_limit_account",
        "rate_limit_login",
        "rate_limit_login_user",
        "rate_limit_login_user_global",
        "rate_limit_challenge",
        "rate_limit_notifications",
        "rate_limit_moderation",
        "rate_limit_bot",
        "rate_limit_bot_challenge",
        "rate_limit_social",
    )
    @classmethod
    def _limits_notation(cls, value: str) -> str:
        parse_many(value)  # "30/minute;300/hour"; raises ValueError on anything else
        return value

    @property
    def limits_on(self) -> bool:
        return self.rate_limits.strip().lower() not in ("off", "false", "0", "no")

    @property
    def push_host_names(self) -> tuple[str, ...]:
        return tuple(h.strip().lower() for h in self.push_hosts.split(",") if h.strip())

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
