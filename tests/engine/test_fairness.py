"""The commitment to a seed (engine/core/fairness.py): exactly the documented bytes hashed with
SHA-256 (checked here with hashlib on a layout written out by hand), pinned by a golden value,
bound to both the seed and the match id, and the names every game gives its generators."""

from __future__ import annotations

import hashlib
import secrets

import pytest

from engine.core.fairness import (
    SCHEME,
    commitment,
    commitment_bytes,
    commits_to,
    seed_from_hex,
    seed_hex,
)
from engine.core.rng import SEED_BITS
from engine.registry import game_ids, get_game


def test_the_commitment_hashes_the_documented_layout() -> None:
    """SHA-256("watergate-online/fairness/v1" ‖ 0x00 ‖ match id ‖ 0x00 ‖ seed as 32 bytes)."""
    seed = int.from_bytes(bytes(range(1, 33)), "big")
    layout = b"watergate-online/fairness/v1\x00" + b"abc123" + b"\x00" + bytes(range(1, 33))
    assert SCHEME == "watergate-online/fairness/v1"
    assert commitment_bytes("abc123", seed) == layout
    assert commitment("abc123", seed) == hashlib.sha256(layout).hexdigest()
    # golden: every stored commitment depends on this value never changing
    assert commitment("abc123", 7) == (
        "cf84afd3b390a67e973a836f3342b5ff3d6d8e92e55962ccd6159e1bbd039f6d"
    )


def test_small_seeds_are_padded_and_the_revealed_hex_round_trips() -> None:
    assert seed_hex(7) == "00" * 31 + "07"
    widest = (1 << SEED_BITS) - 1
    assert seed_hex(widest) == "ff" * 32
    for seed in (0, 7, 1 << 52, secrets.randbits(SEED_BITS), widest):
        assert seed_from_hex(seed_hex(seed)) == seed
    for bad in (-1, 1 << SEED_BITS):
        with pytest.raises(ValueError):
            seed_hex(bad)
    with pytest.raises(ValueError):
        seed_from_hex("07")


def test_a_commitment_binds_the_seed_and_the_match() -> None:
    seed = secrets.randbits(SEED_BITS)
    mine = commitment("m1", seed)
    assert commits_to(mine, "m1", seed) and commits_to(mine.upper(), "m1", seed)
    assert not commits_to(mine, "m1", seed ^ 1), "a seed one bit away"
    assert not commits_to(mine, "m2", seed), "the same seed moved to another match"
    # the NUL after the id keeps "m1" + a seed apart from "m" + a seed starting with "1"
    assert commitment_bytes("m1", seed) != commitment_bytes("m", seed)
    with pytest.raises(ValueError):
        commitment("m\x001", seed)


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_names_the_generator_of_each_rules_version(game_id: str) -> None:
    game = get_game(game_id)
    name = game.deal_algorithm(game.rules_version)
    assert "/v" in name, "a name and a version"
    with pytest.raises(ValueError):
        game.deal_algorithm("no such version")


def test_watergate_names_both_of_its_generators() -> None:
    game = get_game("watergate")
    assert (game.deal_algorithm("1"), game.deal_algorithm("2")) == (
        "splitmix64/v1",
        "sha256-ctr/v1",
    )
