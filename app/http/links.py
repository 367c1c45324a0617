"""The address links are built from (invites, spectators): BASE_URL, or an allowed Host only."""

from __future__ import annotations

from starlette.requests import HTTPConnection

from ..config import Settings


def link_base(conn: HTTPConnection, settings: Settings) -> str:
    """`scheme://host[:port]` without a trailing slash. Never an arbitrary Host header: a link
    built from one would send the invited friend (and their seat token) to whoever forged it."""
    if settings.base_url:
        return settings.base_url
    allowed = settings.allowed_host_names
    try:
        asked = (conn.url.hostname or "").lower()
    except ValueError:  # a Host header urlsplit cannot read, e.g. "[" alone
        asked = ""
    if asked in allowed:
        return str(conn.base_url).rstrip("/")
    # an unknown Host: the first allowed name on our own port (the scheme comes from uvicorn or
    # a trusted proxy, never from the client)
    first = allowed[0] if allowed else "localhost"
    host = f"[{first}]" if ":" in first else first
    return f"{conn.url.scheme}://{host}:{settings.port}"
