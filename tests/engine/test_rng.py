"""The secret-seeded generator (SHA-256 in counter mode): its blocks are what its documentation
says, seeds one bit apart deal unrelated streams, and stored first-edition matches keep their
SplitMix64 deals (a match replays under the generator it was made with)."""

from __future__ import annotations

import hashlib
import secrets

import pytest

from engine.core.rng import (
    SEED_BITS,
    below,
    bot_state,
    generator_of,
    initial_state,
    secure_state,
    secure_u64,
    shuffle,
)
from engine.registry import get_game

DOMAIN = b"watergate-online/sha256-ctr/v1\x00"


def stream(state: int, n: int) -> list[int]:
    out = []
    for _ in range(n):
        state, x = secure_u64(state)
        out.append(x)
    return out


def test_each_output_is_the_documented_sha256_block() -> None:
    """Output k is the first 8 bytes of SHA-256(domain ‖ seed (32 bytes) ‖ k (8 bytes)), computed
    here independently with hashlib."""
    seed = int.from_bytes(bytes(range(32)), "big")
    got = stream(secure_state(seed), 3)
    want = [
        int.from_bytes(
            hashlib.sha256(DOMAIN + bytes(range(32)) + k.to_bytes(8, "big")).digest()[:8], "big"
        )
        for k in range(3)
    ]
    assert got == want


def test_seeds_one_bit_apart_share_no_output() -> None:
    """Flipping any one of the 256 seed bits gives a stream with no output in common with the
    original at any of the first 32 positions (so no prefix of any shuffle is shared)."""
    seed = secrets.randbits(SEED_BITS)
    base = stream(secure_state(seed), 32)
    for bit in range(SEED_BITS):
        flipped = stream(secure_state(seed ^ (1 << bit)), 32)
        assert all(a != b for a, b in zip(base, flipped, strict=True)), bit


def test_a_one_bit_change_deals_a_different_deck() -> None:
    seed = secrets.randbits(SEED_BITS)
    decks = []
    for s in (seed, seed ^ 1):
        deck = list(range(20))
        shuffle(secure_state(s), deck)
        decks.append(deck)
    assert decks[0] != decks[1]
    assert sorted(decks[0]) == list(range(20))


@pytest.mark.parametrize(
    "state",
    [secure_state(secrets.randbits(SEED_BITS)), bot_state(7)],
    ids=["match", "bot"],
)
def test_below_is_in_range_and_reaches_every_value(state: int) -> None:
    """A match's draws, and a thinking bot's (which sample the hidden cards it must guess and
    the chance still to come in the positions it samples)."""
    for n in (1, 2, 3, 7, 20, 30, 300):
        seen = set()
        for _ in range(40 * n):
            state, r = below(state, n)
            assert 0 <= r < n
            seen.add(r)
        assert seen == set(range(n))


def test_a_bots_shuffle_favours_no_place() -> None:
    """The thinking bots sample hidden cards with xorshift32: a shuffle that favoured a place
    would make them misjudge what the other seat may hold."""
    state = bot_state(7)
    firsts = [0] * 5
    for _ in range(5000):
        items = list(range(5))
        state = shuffle(state, items)
        assert sorted(items) == list(range(5))
        firsts[items[0]] += 1
    assert all(900 < count < 1100 for count in firsts), firsts  # 1000 each, ± 3.5 sigma


@pytest.mark.parametrize("seed", [0, 1, 2, -5, 1 << 64, (1 << 300) + 3])
def test_every_seed_gives_a_bots_generator_a_live_state(seed: int) -> None:
    """State 0 is xorshift's fixed point: a bot started there would draw 0 forever."""
    state = bot_state(seed)
    assert 0 < -state < 1 << 32
    draws = set()
    for _ in range(8):
        state, r = below(state, 1000)
        draws.add(r)
    assert len(draws) > 1
    assert bot_state(1) != bot_state(2)


@pytest.mark.parametrize("seed", [-1, 1 << SEED_BITS])
def test_a_seed_outside_256_bits_is_refused(seed: int) -> None:
    with pytest.raises(ValueError):
        secure_state(seed)


def test_states_say_which_generator_they_belong_to() -> None:
    assert generator_of(initial_state("splitmix64", (1 << 64) - 1)) == "splitmix64"
    assert generator_of(initial_state("sha256-ctr", 0)) == "sha256-ctr"
    state, _ = secure_u64(initial_state("sha256-ctr", (1 << SEED_BITS) - 1))
    assert generator_of(state) == "sha256-ctr"


def test_new_matches_are_dealt_by_the_secret_generator_and_old_ones_replay() -> None:
    """Rules versions 2 to 5 (today's) deal with SHA-256, alike; a stored version-1 match
    still deals exactly as the first edition did, from its SplitMix64 seed."""
    game = get_game("watergate")
    seed = secrets.randbits(SEED_BITS)
    new = game.start(seed).state
    assert game.rules_version == "5"
    assert generator_of(new.rng) == "sha256-ctr"
    for older in ("4", "3", "2"):
        assert game.describe(new) == game.describe(game.start(seed, older).state)
    old = game.start(12345, "1").state
    assert generator_of(old.rng) == "splitmix64"
    assert old.hands["editor"] == ["E03", "E04", "E20", "E18", "E09"]  # the pinned v1 deal
    with pytest.raises(ValueError):
        game.start(1, "0")
