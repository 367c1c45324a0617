"""Secrets: seat tokens (256 random bits, kept only as SHA-256), invite codes, match ids, seeds."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(32)


def new_invite_code() -> str:
    return secrets.token_urlsafe(16)


def new_match_id() -> str:
    return secrets.token_hex(12)


def new_seed() -> int:
    # 53 bits: every seed stays exact in a browser's JSON numbers (admin console, exports)
    return secrets.randbits(53)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def same_secret(given: str, expected: str) -> bool:
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), expected.encode("utf-8"))
