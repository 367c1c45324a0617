"""Bot against bot: win rates and how games end.

    python -m bench.match --games 200 --editor heuristic --nixon random --seed 1 \
        [--budget-ms 100] [--jobs 2] [--game watergate]
    python -m bench.match --game nations --players 2 --p1 search --p2 heuristic --games 100

Only the Game protocol is used (through the registry). The first and second seat's bot (one of
the game's `bot_names`: for Watergate a level, easy | normal | hard (docs/levels.md), or a bot,
search | heuristic | random) are named by --editor / --nixon or, in any game, --p1 / --p2; the
other seats of a game of more players (--players) play the first seat's bot.

Prints `<first seat>_win_rate <x>` (editor_win_rate, p1_win_rate) with a 95% interval, for a
game of more than two seats every seat's (`<seat>_win_rate` and `<seat>_win_rate_ci95`), average
rounds and decisions, how the games ended (`end_<reason>`) and the average thinking time per
decision of each side.

`engine` says which engine played. With `make mypyc` built (and current), Watergate's games are
played by the compiled copy, bots included: a time budget buys its bots about twice the search
of the pure engine's. `--no-compiled` plays the pure engine, the one the app runs.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter

from engine.registry import DEFAULT_GAME, game_ids, get_game

from .compiled import copy_plays, engine_kind, on_copy
from .parallel import run_jobs


def play(
    args: tuple[str, int, int, str, str, int, str | None],
) -> tuple[str, str, int, int, dict[str, float], dict[str, int]]:
    """One game: winner, reason, rounds, decisions, seconds thinking and decisions per side;
    args: game, players, seed, the first and second seat's bots, budget, rules version."""
    game_id, players, seed, first_bot, second_bot, budget, rules_version = args
    game = get_game(game_id).with_players(players)
    names = [first_bot, second_bot, *[first_bot] * (players - 2)]
    bots = {
        seat: game.make_bot(name, seed * players + k + 1, budget, time.perf_counter)
        for k, (seat, name) in enumerate(zip(game.seats, names, strict=True))
    }
    s = game.start(seed, rules_version).state
    thinking = dict.fromkeys(game.seats, 0.0)
    counts = dict.fromkeys(game.seats, 0)
    decisions = 0
    while to_move := game.to_move(s):
        seat = to_move[0]
        legal = game.legal_actions(s, seat)
        started = time.perf_counter()
        action = bots[seat].decide(game.observation_for(s, seat), seat, legal)
        thinking[seat] += time.perf_counter() - started
        counts[seat] += 1
        s = game.apply(s, seat, action).state
        decisions += 1
    outcome = game.outcome(s)
    assert outcome is not None
    rounds = game.view_for(s, None).get("round", 0)
    assert isinstance(rounds, int)
    winner = outcome.winners[0] if outcome.winners else "draw"
    return winner, outcome.reason, rounds, decisions, thinking, counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--game", default=DEFAULT_GAME, choices=game_ids())
    parser.add_argument(
        "--editor", "--p1", dest="first", default="heuristic", help="the first seat's level or bot"
    )
    parser.add_argument(
        "--nixon", "--p2", dest="second", default="heuristic", help="the second seat's bot"
    )
    parser.add_argument("--players", type=int, default=2, help="seats (a game of 2 or more)")
    parser.add_argument("--rules-version", default=None, help="default: today's rules")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget-ms", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--no-compiled", action="store_true", help="play the pure engine")
    args = parser.parse_args()
    if not args.no_compiled and copy_plays(args.game):
        on_copy("bench.match", sys.argv[1:], capture=False)
        return
    game = get_game(args.game)
    if args.players not in game.player_counts:
        parser.error(f"{args.game} is played by {', '.join(map(str, game.player_counts))}")
    game = game.with_players(args.players)
    for name in (args.first, args.second):
        if name not in game.bot_names:
            parser.error(f"unknown bot {name!r}; choose from {', '.join(game.bot_names)}")
    jobs = [
        (
            args.game,
            args.players,
            args.seed * 100_003 + g,
            args.first,
            args.second,
            args.budget_ms,
            args.rules_version,
        )
        for g in range(args.games)
    ]
    started = time.perf_counter()
    results = run_jobs(play, jobs, args.jobs)
    elapsed = time.perf_counter() - started
    n = len(results)
    wins = sum(1 for r in results if r[0] == game.seats[0])
    p = wins / n
    half = 1.96 * math.sqrt(p * (1 - p) / n)
    reasons = Counter(r[1] for r in results)
    think = {side: sum(r[4][side] for r in results) for side in game.seats}
    count = {side: sum(r[5][side] for r in results) for side in game.seats}
    first, second = game.seats[0], game.seats[1]
    print(f"engine {engine_kind(args.game)}")
    print(f"games {n}")
    print(f"{first} {args.first}")
    print(f"{second} {args.second}")
    print(f"{first}_win_rate {p:.3f}")
    print(f"{first}_win_rate_ci95 {max(0.0, p - half):.3f}..{min(1.0, p + half):.3f}")
    for seat in game.seats[1:] if args.players > 2 else ():
        q = sum(1 for r in results if r[0] == seat) / n
        q_half = 1.96 * math.sqrt(q * (1 - q) / n)
        print(f"{seat}_win_rate {q:.3f}")
        print(f"{seat}_win_rate_ci95 {max(0.0, q - q_half):.3f}..{min(1.0, q + q_half):.3f}")
    print(f"avg_rounds {sum(r[2] for r in results) / n:.2f}")
    print(f"avg_decisions {sum(r[3] for r in results) / n:.1f}")
    for reason in sorted(reasons):
        print(f"end_{reason} {reasons[reason]}")
    for side in game.seats:
        print(f"{side}_ms_per_decision {1000 * think[side] / max(1, count[side]):.2f}")
    print(f"seconds {elapsed:.1f}")


if __name__ == "__main__":
    main()
