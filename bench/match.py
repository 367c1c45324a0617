"""Bot against bot: win rates and how games end.

    python -m bench.match --games 200 --editor heuristic --nixon random --seed 1 \
        [--budget-ms 100] [--jobs 2]

Prints `editor_win_rate <x>` (with a 95% interval), average rounds and decisions, end reasons and
the average thinking time per decision of each side.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from engine import apply, current_role, legal_actions, new_match
from engine.bots import Bot, HeuristicBot, RandomBot
from engine.observation import observation_for


def make_bot(kind: str, seed: int, budget_ms: int) -> Bot:
    if kind == "random":
        return RandomBot(seed)
    if kind == "heuristic":
        return HeuristicBot(seed)
    from engine.bots.search import SearchBot

    return SearchBot(seed, budget_ms=budget_ms, clock=time.perf_counter)


def play(
    args: tuple[int, str, str, int],
) -> tuple[str, str, int, int, dict[str, float], dict[str, int]]:
    """One game: winner, reason, rounds, decisions, seconds thinking and decisions per side."""
    seed, editor, nixon, budget = args
    bots = {
        "editor": make_bot(editor, seed * 2 + 1, budget),
        "nixon": make_bot(nixon, seed * 2 + 2, budget),
    }
    s = new_match(seed)
    thinking = {"editor": 0.0, "nixon": 0.0}
    counts = {"editor": 0, "nixon": 0}
    decisions = 0
    while (role := current_role(s)) is not None:
        legal = legal_actions(s, role)
        started = time.perf_counter()
        action = bots[role].decide(observation_for(s, role), role, legal)
        thinking[role] += time.perf_counter() - started
        counts[role] += 1
        s = apply(s, role, action).state
        decisions += 1
    assert s.winner is not None and s.win_reason is not None
    return s.winner, s.win_reason, s.round, decisions, thinking, counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--editor", default="heuristic", choices=["random", "heuristic", "search"])
    parser.add_argument("--nixon", default="heuristic", choices=["random", "heuristic", "search"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget-ms", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    jobs = [
        (args.seed * 100_003 + g, args.editor, args.nixon, args.budget_ms)
        for g in range(args.games)
    ]
    started = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(play, jobs, chunksize=4))
    else:
        results = [play(j) for j in jobs]
    elapsed = time.perf_counter() - started
    n = len(results)
    wins = sum(1 for r in results if r[0] == "editor")
    p = wins / n
    half = 1.96 * math.sqrt(p * (1 - p) / n)
    reasons = Counter(r[1] for r in results)
    think = {side: sum(r[4][side] for r in results) for side in ("editor", "nixon")}
    count = {side: sum(r[5][side] for r in results) for side in ("editor", "nixon")}
    print(f"games {n}")
    print(f"editor {args.editor}")
    print(f"nixon {args.nixon}")
    print(f"editor_win_rate {p:.3f}")
    print(f"editor_win_rate_ci95 {max(0.0, p - half):.3f}..{min(1.0, p + half):.3f}")
    print(f"avg_rounds {sum(r[2] for r in results) / n:.2f}")
    print(f"avg_decisions {sum(r[3] for r in results) / n:.1f}")
    for reason in ("connection", "fifth_momentum", "empty_supply"):
        print(f"end_{reason} {reasons.get(reason, 0)}")
    for side in ("editor", "nixon"):
        print(f"{side}_ms_per_decision {1000 * think[side] / max(1, count[side]):.2f}")
    print(f"seconds {elapsed:.1f}")


if __name__ == "__main__":
    main()
