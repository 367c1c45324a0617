"""Hints' cost (issue "Learn to play"): how long a seat's hints take beside its view, one core.

    python -m bench.hints --games 50 [--seed 1]

Random players play whole Watergate games through the Game protocol; at every decision each
seat's hints (`core.game.Hinting.hints_for`, what a frame of an unrated match adds) and its view
(`view_for`, what every frame holds already) are timed. Prints `hints_us_per_call`,
`view_us_per_call` and their ratio.
"""

from __future__ import annotations

import argparse
import time

from engine.core.game import Hinting
from engine.core.rng import below, seed_state
from engine.registry import get_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = get_game("watergate")
    assert isinstance(game, Hinting)
    hints_s = views_s = 0.0
    calls = 0
    for g in range(args.games):
        seed = args.seed * 1_000_003 + g
        s = game.start(seed).state
        rng = seed_state(seed)
        while to_move := game.to_move(s):
            for seat in game.seats:
                started = time.perf_counter()
                game.hints_for(s, seat)
                hints_s += time.perf_counter() - started
                started = time.perf_counter()
                game.view_for(s, seat)
                views_s += time.perf_counter() - started
                calls += 1
            legal = game.legal_actions(s, to_move[0])
            rng, i = below(rng, len(legal))
            s = game.apply(s, to_move[0], legal[i]).state
    print(f"games {args.games}")
    print(f"calls {calls}")
    print(f"hints_us_per_call {hints_s / calls * 1e6:.2f}")
    print(f"view_us_per_call {views_s / calls * 1e6:.2f}")
    print(f"hints_to_view {hints_s / views_s:.3f}")


if __name__ == "__main__":
    main()
