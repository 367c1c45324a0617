"""The computer's levels (docs/levels.md): each level's recipe, handed only its seat's
observation, plays only offered actions, in either role, and chooses the same whatever its seat
cannot see (R18); each is reachable through the Game protocol by its name."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.watergate import GAME, apply, current_role, legal_actions, new_match
from engine.watergate.bots import RandomBot
from engine.watergate.bots.levels import LEVELS, level_bot
from engine.watergate.observation import observation_for

from .test_bots import deciding_states, hidden_variant


def ticking() -> Iterator[float]:
    """Readings of a clock that only moves when read: 1 ms each (a search stops after its
    budget in readings, whatever the machine's speed)."""
    t = 0.0
    while True:
        t += 0.001
        yield t


def bot(level: str, seed: int):  # type: ignore[no-untyped-def]
    readings = ticking()
    return level_bot(level, seed, 8, lambda: next(readings))


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    level=st.sampled_from(LEVELS),
    role=st.sampled_from(("editor", "nixon")),
)
def test_a_level_plays_a_whole_match_with_offered_actions_only(
    seed: int, level: str, role: str
) -> None:
    s, other, me = new_match(seed), RandomBot(seed + 1), bot(level, seed)
    while (seat := current_role(s)) is not None:
        legal = legal_actions(s, seat)
        if seat == role:
            action = me.decide(observation_for(s, seat), seat, legal)
            assert action in legal, (level, s.version)
        else:
            action = other.choose({}, legal)
        s = apply(s, seat, action).state
    assert s.winner is not None


@pytest.mark.ruling("R18")
@pytest.mark.parametrize("level", LEVELS)
def test_a_level_chooses_the_same_whatever_it_cannot_see(level: str) -> None:
    checked = 0
    for s, role in deciding_states(range(2)):
        variant = hidden_variant(s, role, s.version + 5)
        a = bot(level, 21).decide(observation_for(s, role), role, legal_actions(s, role))
        b = bot(level, 21).decide(
            observation_for(variant, role), role, legal_actions(variant, role)
        )
        assert a == b, (level, s.version, role)
        checked += 1
    assert checked > 6


@pytest.mark.parametrize("level", LEVELS)
def test_a_level_is_one_of_the_games_bots(level: str) -> None:
    s = new_match(5)
    seat = current_role(s)
    assert level in GAME.bot_names and seat is not None
    readings = ticking()
    made = GAME.make_bot(level, 1, 5, lambda: next(readings))
    legal = legal_actions(s, seat)
    assert made.decide(GAME.observation_for(s, seat), seat, legal) in legal
