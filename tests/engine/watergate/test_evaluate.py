"""The bots' distance to the Editor's win (R26): `joined_need` is the fewest evidence spaces and
pictures still to add for two informants to be connected, checked against the engine's own
connection rule by trying every set of additions, smallest first."""

from __future__ import annotations

import copy
from itertools import combinations

from engine.core.rng import below, seed_state
from engine.registry import get_game
from engine.watergate import apply, current_role, legal_actions
from engine.watergate.board import connected_people
from engine.watergate.bots.evaluate import editor_need, joined_need
from engine.watergate.state import BoardToken, MatchState

CAP = 24  # both functions cut a need to this


def fewest_additions(s: MatchState, most: int) -> int | None:
    """The smallest number of empty spaces filled face up and unpinned pictures pinned face up
    after which R26's connection holds (None when more than `most` would be needed)."""
    empty = [("space", i) for i, b in enumerate(s.board) if b is None]
    unpinned = [("picture", k) for k, p in enumerate(s.pictures) if p is None]
    for size in range(most + 1):
        for added in combinations(empty + unpinned, size):
            board, pictures = list(s.board), list(s.pictures)
            for kind, i in added:
                if kind == "space":
                    board[i] = BoardToken(0, "oracle", True)
                else:
                    pictures[i] = "up"
            t = copy.copy(s)
            t.board, t.pictures = tuple(board), tuple(pictures)
            if len(connected_people(t)) >= 2:
                return size
    return None


def positions(games: int) -> list[MatchState]:
    """Every position of some random games under today's rules, before they end."""
    found, game = [], get_game("watergate")
    for seed in range(games):
        s, rng = game.start(seed, None).state, seed_state(seed)
        while (role := current_role(s)) is not None and s.winner is None:
            found.append(s)
            actions = legal_actions(s, role)
            rng, i = below(rng, len(actions))
            s = apply(s, role, actions[i]).state
    return found


def test_R26_joined_need_is_the_fewest_additions_that_connect_two_informants() -> None:
    checked = shared = 0
    for s in positions(12)[::7]:
        need = joined_need(s)
        if need > 3:  # the search below grows fast; near the win is where it matters most
            continue
        assert fewest_additions(s, need) == need
        assert need == 0 or fewest_additions(s, need - 1) is None
        checked += 1
        shared += need < editor_need(s)
    assert checked >= 30
    assert shared > 0  # positions where the threads share a space were among them


def test_joined_need_never_exceeds_the_two_threads_counted_apart() -> None:
    for s in positions(6):
        assert joined_need(s) <= editor_need(s) <= CAP
