"""Commitments to a match's secret seed: published from its first view, checkable once revealed.

The commitment binds the seed to one match, so a seed cannot be moved to another match id:

    SHA-256( b"watergate-online/fairness/v1" ‖ 0x00 ‖ match id as UTF-8 ‖ 0x00 ‖ seed as 32 bytes )

The seed is written big-endian, zero-padded to 32 bytes (every seed is below 2**256, the first
edition's 53-bit ones too). The match id never holds a NUL (ids are url-safe), so the two NULs
keep the fields apart. This is scheme v1 and never changes: stored commitments depend on it.

>>> commitment("m1", 7)[:16]
'7d18ff9e5aa5f277'
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Final

SCHEME: Final = "watergate-online/fairness/v1"
_DOMAIN: Final = SCHEME.encode() + b"\x00"
SEED_BYTES: Final = 32


def seed_bytes(seed: int) -> bytes:
    """The seed as the commitment hashes it: 32 bytes, big-endian."""
    if not 0 <= seed < 1 << (8 * SEED_BYTES):
        raise ValueError("a seed is a whole number below 2**256")
    return seed.to_bytes(SEED_BYTES, "big")


def seed_hex(seed: int) -> str:
    """The seed as it is revealed: its 32 bytes as 64 lowercase hex digits."""
    return seed_bytes(seed).hex()


def seed_from_hex(text: str) -> int:
    """The seed a revealed hex text names (ValueError unless it is 64 hex digits)."""
    if len(text) != 2 * SEED_BYTES:
        raise ValueError("a revealed seed is 64 hex digits")
    return int.from_bytes(bytes.fromhex(text), "big")


def commitment_bytes(match_id: str, seed: int) -> bytes:
    """Exactly the bytes that are hashed (the documented layout)."""
    if "\x00" in match_id:
        raise ValueError("a match id holds no NUL")
    return _DOMAIN + match_id.encode("utf-8") + b"\x00" + seed_bytes(seed)


def commitment(match_id: str, seed: int) -> str:
    """The match's commitment to its seed, as 64 lowercase hex digits."""
    return hashlib.sha256(commitment_bytes(match_id, seed)).hexdigest()


def commits_to(published: str, match_id: str, seed: int) -> bool:
    """Whether `published` is this match's commitment to this seed."""
    return hmac.compare_digest(published.lower().encode(), commitment(match_id, seed).encode())
