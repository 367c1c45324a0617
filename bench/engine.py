"""Engine speed: random bots play full games on one core; prints `games_per_second <float>` last.

python -m bench.engine --games 2000 [--seed 1]
"""

from __future__ import annotations

import argparse
import time

from engine import apply, current_role, legal_actions, new_match
from engine.bots import RandomBot


def play_one(seed: int) -> tuple[int, str]:
    """Play one random game; return (decisions, winner)."""
    s = new_match(seed)
    bots = {"editor": RandomBot(seed * 2 + 1), "nixon": RandomBot(seed * 2 + 2)}
    decisions = 0
    while (role := current_role(s)) is not None:
        action = bots[role].choose({}, legal_actions(s, role))
        s = apply(s, role, action).state
        decisions += 1
    assert s.winner is not None
    return decisions, f"{s.winner}_{s.win_reason}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    decisions, reasons = 0, dict[str, int]()
    for g in range(args.games):
        n, reason = play_one(args.seed * 1_000_003 + g)
        decisions += n
        reasons[reason] = reasons.get(reason, 0) + 1
    elapsed = time.perf_counter() - started
    print(f"games {args.games}")
    print(f"seconds {elapsed:.3f}")
    for reason, count in sorted(reasons.items()):
        print(f"end_{reason} {count}")
    print(f"decisions_per_game {decisions / args.games:.1f}")
    print(f"decisions_per_second {decisions / elapsed:.0f}")
    print(f"games_per_second {args.games / elapsed:.1f}")


if __name__ == "__main__":
    main()
