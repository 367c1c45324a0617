"""Version-stable SplitMix64 generator and Fisher–Yates shuffle; its state is an int in the match.

The generator never changes between Python versions because it is only integer arithmetic:

>>> s, x = next_u64(42)
>>> x
13679457532755275413
>>> below(s, 10)[1]
1
"""

from __future__ import annotations

from typing import Final, TypeVar

T = TypeVar("T")

_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15


def next_u64(state: int) -> tuple[int, int]:
    """Advance SplitMix64 once: return (new_state, 64-bit output)."""
    state = (state + _GOLDEN) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Return (new_state, r) with 0 <= r < n (multiply-shift; bias below 2**-58 for n <= 64)."""
    state, x = next_u64(state)
    return state, (x * n) >> 64


def shuffle(state: int, items: list[T]) -> int:
    """Shuffle items in place (Fisher–Yates, from the end) and return the new generator state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def seed_state(seed: int) -> int:
    """Map any integer seed to a 64-bit generator state."""
    return seed & _MASK
