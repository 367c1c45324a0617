"""The computer's levels on one Elo scale, from a round robin: every pair plays `--games` games in
each seat assignment, at `--budget-ms` per decision.

    python -m bench.ladder --games 10 --budget-ms 100 [--bots easy,normal,hard] [--jobs 1]

Prints each pairing's score (`score_<a>_vs_<b> <a's share>`), then `elo_<bot> <rating>` lines: the
Bradley–Terry maximum-likelihood ratings (400 points = 10:1 odds), `--anchor` held at 1500, with
an approximate 95% half-width (`elo_<bot>_ci95`) from the games that bot played. A draw counts
half. Small samples only: each game costs seconds of thinking. As in bench.match, `engine` says
which engine played (the compiled copy when `make mypyc` built it; `--no-compiled`: the pure one).
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys

from engine.registry import DEFAULT_GAME, game_ids, get_game

from .compiled import copy_plays, engine_kind, on_copy
from .match import play
from .parallel import run_jobs

_ELO: float = 400 / math.log(10)


def ratings(names: list[str], score: dict[tuple[str, str], tuple[float, int]]) -> dict[str, float]:
    """Bradley–Terry strengths by the minorisation–maximisation iteration, as Elo points with the
    mean at 0; a bot that never scored (or never lost) is kept finite by half a game of prior."""
    strength = dict.fromkeys(names, 1.0)
    for _ in range(500):
        new = {}
        for a in names:
            won, denominator = 0.5, 0.0  # the prior: half a win against an equal opponent
            for b in names:
                if a == b:
                    continue
                points, games = score.get((a, b), (0.0, 0))
                won += points
                denominator += games / (strength[a] + strength[b])
            denominator += 1.0 / (strength[a] + 1.0)
            new[a] = won / denominator
        strength = new
    logs = {a: _ELO * math.log(v) for a, v in strength.items()}
    mean = sum(logs.values()) / len(logs)
    return {a: v - mean for a, v in logs.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10, help="per pairing and seat assignment")
    parser.add_argument("--game", default=DEFAULT_GAME, choices=game_ids())
    parser.add_argument("--bots", default="easy,normal,hard")
    parser.add_argument("--anchor", default="normal", help="the bot rated 1500")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget-ms", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--no-compiled", action="store_true", help="play the pure engine")
    args = parser.parse_args()
    if not args.no_compiled and copy_plays(args.game):
        on_copy("bench.ladder", sys.argv[1:], capture=False)
        return
    game = get_game(args.game)
    names = args.bots.split(",")
    for name in names:
        if name not in game.bot_names:
            parser.error(f"unknown bot {name!r}; choose from {', '.join(game.bot_names)}")
    if args.anchor not in names:
        parser.error("--anchor must be one of --bots")
    jobs = [
        (args.game, 2, args.seed * 100_003 + g, first, second, args.budget_ms, None)
        for a, b in itertools.combinations(names, 2)
        for first, second in ((a, b), (b, a))
        for g in range(args.games)
    ]
    results = run_jobs(play, jobs, args.jobs, chunk=2)
    score: dict[tuple[str, str], tuple[float, int]] = {}
    for (_, _, _, first, second, _, _), result in zip(jobs, results, strict=True):
        winner = result[0]
        for me, them, seat in ((first, second, game.seats[0]), (second, first, game.seats[1])):
            points = 1.0 if winner == seat else 0.5 if winner == "draw" else 0.0
            had, n = score.get((me, them), (0.0, 0))
            score[(me, them)] = (had + points, n + 1)
    print(f"engine {engine_kind(args.game)}")
    for a, b in itertools.combinations(names, 2):
        points, n = score[(a, b)]
        print(f"score_{a}_vs_{b} {points / n:.3f}")
    elo = ratings(names, score)
    shift = 1500 - elo[args.anchor]
    for name in names:
        played = sum(n for (a, _), (_, n) in score.items() if a == name)
        # one game against an equal opponent carries about 1/4 unit of information
        half = 1.96 * _ELO / math.sqrt(max(1, played) / 4)
        print(f"elo_{name} {elo[name] + shift:.0f}")
        print(f"elo_{name}_ci95 {half:.0f}")
    print(f"games {len(results)}")


if __name__ == "__main__":
    main()
