"""Nations' difficulty handicap (NR20): how far one level of difficulty moves a win rate.

    python -m bench.handicap --games 200 [--bot heuristic] [--jobs 2] [--seed 1]

For each pair of neighbouring levels (Chieftain–Prince, Prince–King, King–Emperor) the same bot
plays both seats, the easier level in the first seat for half the games and in the second for the
other half (so the first player's edge cancels out). Prints, per pair, `<easier>_over_<harder>`
(the easier level's win rate) with its 95 % interval, and `equal_first_seat_win_rate` at Prince
against Prince. NR20 asks for at least 0.60 per pair and 0.40–0.60 at equal levels.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from engine.core.game import Game
from engine.registry import get_game

from .parallel import run_jobs


@runtime_checkable
class Handicapped(Protocol):
    """A game whose seats may play at different difficulty levels (Nations, NR6)."""

    difficulties: tuple[str, ...]  # easiest first

    def with_levels(self, levels: Sequence[str]) -> Game[Any, Any, Any]: ...


def nations() -> Handicapped:
    game = get_game("nations")
    assert isinstance(game, Handicapped)
    return game


def play(job: tuple[str, str, str, int]) -> int:
    """One game with the first seat at `first` and the second at `second`: the winner's index."""
    first, second, bot, seed = job
    game = nations().with_levels((first, second))
    bots = {seat: game.make_bot(bot, seed * 2 + k, 0, None) for k, seat in enumerate(game.seats)}
    s = game.start(seed).state
    while to_move := game.to_move(s):
        seat = to_move[0]
        choice = bots[seat].decide(game.observation_for(s, seat), seat, game.legal_actions(s, seat))
        s = game.apply(s, seat, choice).state
    outcome = game.outcome(s)
    assert outcome is not None and outcome.winners
    return game.seats.index(outcome.winners[0])


def rate(wins: int, n: int) -> str:
    p = wins / n
    half = 1.96 * math.sqrt(p * (1 - p) / n)
    return f"{p:.3f} ci95 {max(0.0, p - half):.3f}..{min(1.0, p + half):.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="per pair of levels")
    parser.add_argument("--bot", default="heuristic", choices=get_game("nations").bot_names)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    base = args.seed * 1_000_003
    levels = nations().difficulties
    pairs = [(levels[i], levels[i + 1]) for i in range(len(levels) - 1)]
    jobs: list[tuple[str, str, str, int]] = []
    for easy, hard in pairs:
        for g in range(args.games):  # the easier level first in even games, second in odd
            jobs.append(
                (easy, hard, args.bot, base + g) if g % 2 == 0 else (hard, easy, args.bot, base + g)
            )
    equal = [("prince", "prince", args.bot, base + g) for g in range(args.games)]
    everything = jobs + equal
    winners = run_jobs(play, everything, args.jobs)
    print(f"games_per_pair {args.games}")
    print(f"bot {args.bot}")
    for k, (easy, hard) in enumerate(pairs):
        chunk = winners[k * args.games : (k + 1) * args.games]
        easier = sum(1 for g, w in enumerate(chunk) if w == g % 2)
        print(f"{easy}_over_{hard} {rate(easier, args.games)}")
    first = sum(1 for w in winners[len(jobs) :] if w == 0)
    print(f"equal_first_seat_win_rate {rate(first, args.games)}")


if __name__ == "__main__":
    main()
