"""Nations played out by bots at any player count: how often they grow, what they leave unspent,
whether the progress board ever shows an empty slot, and who wins from each seat and place.

    python -m bench.nations_growth --players 4 --bots heuristic --games 100 [--jobs 2] [--seed 1]
    python -m bench.nations_growth --players 2 --bots normal,easy --games 200

`--bots` names one bot (a level easy | normal | hard, or heuristic | search | random) for every
seat, or one per seat in seat order. Only the Game protocol and the public view are read.

Prints `name value` lines: `growth_rate` (grow decisions over growth decisions, the bar of issue
39 is 0.25-0.60) and `growth_rate_<bot>` per bot when they differ; `empty_slots_after_maintenance`
(slots left empty on the progress board at a round's first decision, summed over every round of
every game: the seed fills every slot); per seat `<seat>_win_rate` with its 95 % interval, and per
starting place in player order `place<k>_win_rate`; the average final score, VP tokens and
unspent gold, stone and food of each bot.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter

from engine.core.jsondata import as_int, as_list, as_object
from engine.registry import get_game

from .parallel import run_jobs

Result = tuple[str, dict[str, int], dict[str, int], int, list[str], dict[str, list[int]]]


def play(job: tuple[int, tuple[str, ...], int, int]) -> Result:
    """One game: the winning seat; per seat its growth decisions and grows; the empty slots seen
    after maintenance; the starting player order; per seat (score, vp, gold, stone, food)."""
    players, names, seed, budget = job
    game = get_game("nations").with_players(players)
    bots = {
        seat: game.make_bot(name, seed * players + k + 1, budget, time.perf_counter)
        for k, (seat, name) in enumerate(zip(game.seats, names, strict=True))
    }
    s = game.start(seed).state
    view = game.view_for(s, None)
    order = [str(seat) for seat in as_list(view["order"], "order")]
    decisions, grows = dict.fromkeys(game.seats, 0), dict.fromkeys(game.seats, 0)
    empty, seen_round = 0, 0
    while to_move := game.to_move(s):
        seat = to_move[0]
        view = game.view_for(s, None)
        if view["round"] != seen_round:  # a round's first decision: maintenance has filled it
            seen_round = as_int(view["round"], "round")
            rows = as_list(as_object(view["progress"], "progress")["rows"], "rows")
            empty += sum(1 for row in rows for card in as_list(row, "row") if card is None)
        legal = game.legal_actions(s, seat)
        action = bots[seat].decide(game.observation_for(s, seat), seat, legal)
        kind = game.action_to_json(action)["type"]
        if kind in ("grow", "bonus"):
            decisions[seat] += 1
            grows[seat] += kind == "grow"
        s = game.apply(s, seat, action).state
    outcome = game.outcome(s)
    assert outcome is not None and outcome.winners
    final = as_object(game.view_for(s, None)["nations"], "nations")
    stats = {}
    for seat, value in final.items():
        n = as_object(value, seat)
        total = as_object(n["score"], "score")["total"]
        stats[seat] = [as_int(x, seat) for x in (total, n["vp"], n["gold"], n["stone"], n["food"])]
    return outcome.winners[0], decisions, grows, empty, order, stats


def rate(wins: int, n: int) -> str:
    p = wins / max(1, n)
    half = 1.96 * math.sqrt(p * (1 - p) / max(1, n))
    return f"{p:.3f} ci95 {max(0.0, p - half):.3f}..{min(1.0, p + half):.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bots", default="heuristic", help="one bot, or one per seat")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget-ms", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    game = get_game("nations")
    if args.players not in game.player_counts:
        parser.error(f"Nations is played by {game.player_counts}")
    names = tuple(args.bots.split(","))
    if len(names) == 1:
        names *= args.players
    if len(names) != args.players or any(n not in game.bot_names for n in names):
        parser.error(f"one bot or one per seat, of {', '.join(game.bot_names)}")
    seats = game.with_players(args.players).seats
    jobs = [
        (args.players, names, args.seed * 100_003 + g, args.budget_ms) for g in range(args.games)
    ]
    started = time.perf_counter()
    results = run_jobs(play, jobs, args.jobs, chunk=1)
    elapsed = time.perf_counter() - started
    n = len(results)
    print(f"games {n}")
    print(f"players {args.players}")
    print(f"bots {','.join(names)}")
    decided = sum(sum(r[1].values()) for r in results)
    grown = sum(sum(r[2].values()) for r in results)
    print(f"growth_decisions {decided}")
    print(f"growth_rate {grown / max(1, decided):.3f}")
    by_bot: dict[str, list[int]] = {}
    for r in results:
        for seat, bot in zip(seats, names, strict=True):
            pair = by_bot.setdefault(bot, [0, 0])
            pair[0] += r[2][seat]
            pair[1] += r[1][seat]
    if len(by_bot) > 1:
        for bot, (g, d) in sorted(by_bot.items()):
            print(f"growth_rate_{bot} {g / max(1, d):.3f}")
    print(f"empty_slots_after_maintenance {sum(r[3] for r in results)}")
    wins = Counter(r[0] for r in results)
    for seat in seats:
        print(f"{seat}_win_rate {rate(wins[seat], n)}")
    places = Counter(r[4].index(r[0]) + 1 for r in results)
    for place in range(1, args.players + 1):
        print(f"place{place}_win_rate {rate(places[place], n)}")
    for bot in sorted(set(names)):
        mine = [
            r[5][seat] for r in results for seat, b in zip(seats, names, strict=True) if b == bot
        ]
        for k, label in enumerate(("score", "vp_tokens", "gold_left", "stone_left", "food_left")):
            print(f"{bot}_avg_{label} {sum(m[k] for m in mine) / len(mine):.1f}")
    print(f"seconds {elapsed:.1f}")


if __name__ == "__main__":
    main()
