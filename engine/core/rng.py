"""The version-stable generators and Fisher–Yates shuffle; a generator state is an int in a match.

Two generators share one interface, told apart by the state itself:

- `sha256-ctr` (every match from rules version 2 on): SHA-256 in counter mode keyed by a secret seed
  of up to 256 bits. Nothing a player sees of the shuffles narrows the seed (the first edition's
  53-bit SplitMix64 seed could be searched from an opening hand). Its state is
  `marker | seed << 64 | counter`, so a state says which generator it belongs to.
- `splitmix64` (matches of rules version 1, the random bot that plays the golden playthroughs,
  and Nations' bots): fast, not secret.

A third, xorshift32 (`bot_state`, a state below zero), is Watergate's thinking bots' own: the
draws with which they sample hidden cards and pick play-out moves, and the chance inside the
positions they sample. It never deals a match.

Both are only integer arithmetic and hashlib, so they never change between Python versions:

>>> s, x = next_u64(42)
>>> x
13679457532755275413
>>> below(s, 10)[1]
1
"""

from __future__ import annotations

import hashlib
from typing import Final, Literal, TypeVar

T = TypeVar("T")
Generator = Literal["splitmix64", "sha256-ctr"]

_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15
SEED_BITS: Final = 256  # the largest secret seed the SHA-256 generator takes
_SECURE: Final = 1 << (SEED_BITS + 64)  # marks a sha256-ctr state (above every SplitMix64 state)
_KEY_MASK: Final = (1 << SEED_BITS) - 1
_DOMAIN: Final = b"watergate-online/sha256-ctr/v1\x00"  # keeps these blocks apart from other uses
_sha256: Final = hashlib.sha256
# what a match publishes as its fairness "algorithm": the generator's name and version (a change to
# either generator's output would be a new version, never an edit of these)
ALGORITHMS: Final[dict[Generator, str]] = {
    "splitmix64": "splitmix64/v1",
    "sha256-ctr": "sha256-ctr/v1",
}


def next_u64(state: int) -> tuple[int, int]:
    """Advance SplitMix64 once: return (new_state, 64-bit output)."""
    state = (state + _GOLDEN) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def secure_u64(state: int) -> tuple[int, int]:
    """Advance the SHA-256 counter generator once: return (new_state, 64-bit output), the first
    8 bytes (big-endian) of SHA-256(domain ‖ seed as 32 bytes ‖ counter as 8 bytes)."""
    # The state's own 41 bytes are the marker byte, the seed's 32 and the counter's 8 (the counter
    # is the low 64 bits: a match draws a few hundred times, never 2**64), so one conversion
    # without the marker gives both (a third of the call's cost went to taking them apart).
    block = _sha256(_DOMAIN + state.to_bytes(41, "big")[1:]).digest()
    return state + 1, int.from_bytes(block[:8], "big")


def below(state: int, n: int) -> tuple[int, int]:
    """Return (new_state, r) with 0 <= r < n. SplitMix64: multiply-shift (bias below 2**-58 for
    n <= 64); SHA-256: rejection sampling, exactly uniform; a sample's state: xorshift32."""
    if state < _SECURE:
        if state < 0:  # a bot's (`bot_state`)
            state, r = _xorshift32_below(-state, n)
            return -state, r
        state, x = next_u64(state)
        return state, (x * n) >> 64
    limit = (1 << 64) - (1 << 64) % n  # the largest multiple of n: draws at or above it are redrawn
    while True:
        state, x = secure_u64(state)
        if x < limit:
            return state, x % n


def shuffle(state: int, items: list[T]) -> int:
    """Shuffle items in place (Fisher–Yates, from the end) and return the new generator state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


# A search draws about a hundred numbers an iteration (most to sample the hidden cards). Under
# mypyc SplitMix64's 64-bit products are big integers, about 0.8 µs a draw; xorshift32's values
# stay machine-sized, about 0.1 µs. Its period (2**32 - 1) and quality are ample for sampling.
_M32: Final = 0xFFFFFFFF


def bot_state(seed: int) -> int:
    """A bot generator's first state for any integer seed: xorshift32, told apart from a match's
    generators by being below zero (no match ever has such a state); never 0, xorshift's fixed
    point; spread by one SplitMix64 step so that neighbouring seeds start far apart."""
    return -(next_u64(seed & _MASK)[1] >> 32 or 1)


def _xorshift32_below(x: int, n: int) -> tuple[int, int]:
    """One xorshift32 step from x > 0: (new x, r) with 0 <= r < n (multiply-shift; bias below
    n / 2**32)."""
    x ^= (x << 13) & _M32
    x ^= x >> 17
    x ^= (x << 5) & _M32
    return x, (x * n) >> 32


def seed_state(seed: int) -> int:
    """Map any integer seed to a 64-bit SplitMix64 state."""
    return seed & _MASK


def secure_state(seed: int) -> int:
    """The SHA-256 counter generator's first state for a secret seed of up to 256 bits."""
    if not 0 <= seed <= _KEY_MASK:
        raise ValueError(f"a sha256-ctr seed is a whole number below 2**{SEED_BITS}")
    return _SECURE | seed << 64


def initial_state(generator: Generator, seed: int) -> int:
    """The first state of the named generator for this seed."""
    return secure_state(seed) if generator == "sha256-ctr" else seed_state(seed)


def generator_of(state: int) -> Generator:
    """Which generator a state belongs to."""
    return "sha256-ctr" if state >= _SECURE else "splitmix64"
