"""Secrets: seat and player tokens (256 random bits, kept only as SHA-256), invite codes, match
and player ids, seeds, and the admin's sign-in session ids (the admin token itself never leaves
the server)."""

from __future__ import annotations

import hashlib
import hmac
import secrets

SESSION_COOKIE = "wg_admin"
SESSION_SECONDS = 8 * 3600
TOKEN_MIN, TOKEN_MAX = 32, 64  # new tokens and session ids are 43 characters


def new_token() -> str:
    return secrets.token_urlsafe(32)


def new_invite_code() -> str:
    return secrets.token_urlsafe(16)


def new_match_id() -> str:
    return secrets.token_hex(12)


def new_player_id() -> str:
    """A player's public id (96 bits, like a match id): it is shown, so it proves nothing."""
    return secrets.token_hex(12)


def new_seed() -> int:
    """A match's secret seed: 256 bits from the OS, feeding the SHA-256 deal generator (no seat
    can search a space this size from what it sees). Browsers read it as `seed_text`."""
    return secrets.randbits(256)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def same_secret(given: str, expected: str) -> bool:
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), expected.encode("utf-8"))


def new_session_id() -> str:
    """An admin sign-in session's id (256 random bits), the cookie's whole value."""
    return secrets.token_urlsafe(32)


def plausible_token(text: str | None) -> bool:
    """Shaped like one of our tokens or session ids: short and url-safe. Anything else (a
    5,000-digit cookie, a forged one) is refused before it is hashed or looked up."""
    return (
        text is not None
        and TOKEN_MIN <= len(text) <= TOKEN_MAX
        and text.isascii()
        and all(c.isalnum() or c in "-_" for c in text)
    )


def plausible_session(cookie: str | None) -> bool:
    return plausible_token(cookie)


def session_digest(secret: str, session_id: str) -> str:
    """What the database keeps of a session: HMAC-SHA-256 of its id, keyed with the admin token,
    so a copy of the table signs nobody in, and a new ADMIN_TOKEN voids every session."""
    key = secret.encode("utf-8")
    return hmac.new(key, b"admin-session:" + session_id.encode(), hashlib.sha256).hexdigest()
