"""Post-game analysis cost: how long the analysis of one whole Watergate match takes, one core.

    python -m bench.analysis --games 5 [--seed 1]

Plays matches heuristic against random (real decisions for both seats), then analyses each as the
server does (`app/services/analysis.analyse_match`, the fixed per-decision work of
engine/watergate/bots/analysis.py) and prints `analysis_seconds_per_match` and
`analysis_decisions_per_match`.
"""

from __future__ import annotations

import argparse
import time

from app.services.analysis import analyse_match
from engine.core.game import JSONObject
from engine.registry import get_game

GAME = get_game("watergate")


def played(seed: int) -> list[tuple[int, str, JSONObject]]:
    state = GAME.start(seed).state
    actions: list[tuple[int, str, JSONObject]] = []
    bots = {"editor": GAME.make_bot("heuristic", seed, 0, None),
            "nixon": GAME.make_bot("random", seed + 1, 0, None)}  # fmt: skip
    while seats := GAME.to_move(state):
        seat = seats[0]
        action = bots[seat].decide(
            GAME.observation_for(state, seat), seat, GAME.legal_actions(state, seat)
        )
        actions.append((len(actions) + 1, seat, GAME.action_to_json(action)))
        state = GAME.apply(state, seat, action).state
    return actions


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    spent, judged = 0.0, 0
    for k in range(args.games):
        seed = args.seed + k
        actions = played(seed)
        started = time.perf_counter()
        judged += len(analyse_match(GAME.id, seed, GAME.rules_version, actions))
        spent += time.perf_counter() - started
    print(f"analysis_seconds_per_match {spent / args.games:.2f}")
    print(f"analysis_decisions_per_match {judged / args.games:.1f}")


if __name__ == "__main__":
    main()
