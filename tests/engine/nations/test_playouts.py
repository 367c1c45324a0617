"""Whole matches at every player count (2-5) through the Game protocol: random play-outs never
see an empty slot on the progress board after maintenance (seed: maintenance fills every empty
slot; NR22, NR38), and every computer level plays every seat at every count (NR21)."""

from __future__ import annotations

import pytest

from engine.core.game import JSONObject
from engine.nations import GAME
from engine.nations.bots.levels import LEVELS

COUNTS = (2, 3, 4, 5)


def empty_slots(view: JSONObject) -> int:
    progress = view["progress"]
    assert isinstance(progress, dict)
    rows = progress["rows"]
    assert isinstance(rows, list)
    return sum(1 for row in rows for card in row if card is None)  # type: ignore[union-attr]


class Hurried:
    """A clock 10 s later at every reading: the hard level stops after one play-out a decision
    (its budget is spent), which keeps a whole match quick and still runs its search."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        self.t += 10.0
        return self.t


def play_out(players: int, bots: tuple[str, ...], seed: int) -> tuple[list[int], JSONObject]:
    """Play a match; the empty slots seen at each round's first decision, and the final view."""
    game = GAME.with_players(players)
    seats = {
        seat: game.make_bot(name, seed * 10 + k, 1, Hurried())
        for k, (seat, name) in enumerate(zip(game.seats, bots, strict=True))
    }
    s = game.start(seed).state
    empty, seen = [], 0
    while to_move := game.to_move(s):
        view = game.view_for(s, None)
        if view["round"] != seen:  # maintenance is over: the growth decisions come next
            seen = view["round"]  # type: ignore[assignment]
            empty.append(empty_slots(view))
        seat = to_move[0]
        action = seats[seat].decide(
            game.observation_for(s, seat), seat, game.legal_actions(s, seat)
        )
        s = game.apply(s, seat, action).state
    assert game.outcome(s) is not None
    return empty, game.view_for(s, None)


@pytest.mark.parametrize("players", COUNTS)
def test_nr38_random_play_never_leaves_a_slot_empty_after_maintenance(players: int) -> None:
    """Random players buy row 3 as often as any row, the case that emptied round 2 before the
    decks held six rows' worth of cards (276-300 games of 300 had a hole)."""
    for seed in range(20):
        empty, _ = play_out(players, ("random",) * players, seed)
        assert empty == [0] * 8, f"seed {seed}: empty slots by round {empty}"


@pytest.mark.parametrize("players", COUNTS)
def test_nr21_every_level_plays_at_every_count(players: int) -> None:
    """The levels in turn round the table (the hard level on a hurried clock), starting at a
    different level at each count so that no level always sits first."""
    bots = tuple(LEVELS[(players + k) % len(LEVELS)] for k in range(players))
    if players == 2:  # hard and easy: normal gets its own two-player match
        _, final = play_out(players, ("normal", "hard"), 200)
        assert final["winner"] in ("p1", "p2")
    empty, final = play_out(players, bots, 100 + players)
    assert empty == [0] * 8
    assert final["winner"] in GAME.with_players(players).seats
