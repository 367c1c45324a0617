"""Secrets: seat tokens (256 random bits, kept only as SHA-256), invite codes, match ids, seeds,
and the admin's signed sign-in sessions (the admin token itself never leaves the server)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time

SESSION_COOKIE = "wg_admin"
SESSION_SECONDS = 8 * 3600


def new_token() -> str:
    return secrets.token_urlsafe(32)


def new_invite_code() -> str:
    return secrets.token_urlsafe(16)


def new_match_id() -> str:
    return secrets.token_hex(12)


def new_seed() -> int:
    """A match's secret seed: 256 bits from the OS, feeding the SHA-256 deal generator (no seat
    can search a space this size from what it sees). Browsers read it as `seed_text`."""
    return secrets.randbits(256)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def same_secret(given: str, expected: str) -> bool:
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), expected.encode("utf-8"))


def _sign(secret: str, expires: int) -> str:
    return hmac.new(secret.encode(), f"admin:{expires}".encode(), hashlib.sha256).hexdigest()


def new_session(secret: str, now: float | None = None) -> str:
    """An expiring value signed with the admin token, for the sign-in cookie."""
    expires = int((now or time.time()) + SESSION_SECONDS)
    return f"{expires}.{_sign(secret, expires)}"


def session_valid(secret: str | None, cookie: str | None, now: float | None = None) -> bool:
    if not secret or not cookie or "." not in cookie:
        return False
    expires_text, _, signature = cookie.partition(".")
    if not expires_text.isdigit() or int(expires_text) < (now or time.time()):
        return False
    return hmac.compare_digest(signature, _sign(secret, int(expires_text)))
