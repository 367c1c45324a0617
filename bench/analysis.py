"""Post-game analysis cost: how long the analysis of one whole match takes, one core.

    python -m bench.analysis --games 5 [--seed 1]
    python -m bench.analysis --game nations --players 4 --games 5
    python -m bench.analysis --game nations --players 4 --games 40 --fit

Plays matches (Watergate: heuristic against random, real decisions for both seats; Nations: the
normal level at every seat), then analyses each as the server does
(`app/services/analysis.analyse_match`, the fixed per-decision work of the game's
bots/analysis.py) and prints `analysis_seconds_per_match` and `analysis_decisions_per_match`.

`--fit` (Nations) instead fits the scale by which the analysis turns an evaluation (a lead in
victory points) into a chance to win: for every decision it records the evaluation of the action
played and whether that seat went on to win, and prints the scale of least log-loss
(`nations_analysis_scale`) beside that loss and the loss of the scale in use.
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

from app.services.analysis import analyse_match
from engine.core.game import Calibrating, JSONObject
from engine.registry import get_game

Played = list[tuple[int, str, JSONObject]]


def played(game: Any, seed: int, level: str) -> tuple[Played, list[tuple[float, str]]]:
    """A match's actions, and (Nations) each decision's evaluation of the action played with
    the seat that made it."""
    state = game.start(seed).state
    actions: Played = []
    values: list[tuple[float, str]] = []
    bots = {seat: game.make_bot(level, seed + k, 0, None) for k, seat in enumerate(game.seats)}
    if game.id == "watergate":
        bots["nixon"] = game.make_bot("random", seed + 1, 0, None)
    while seats := game.to_move(state):
        seat = seats[0]
        legal = game.legal_actions(state, seat)
        action = bots[seat].decide(game.observation_for(state, seat), seat, legal)
        if isinstance(game, Calibrating) and len(legal) > 1:
            values.append((game.analysis_lead(state, seat, action, seed + len(actions)), seat))
        actions.append((len(actions) + 1, seat, game.action_to_json(action)))
        state = game.apply(state, seat, action).state
    winner = game.outcome(state).winners[0]
    return actions, [(v, "1" if seat == winner else "0") for v, seat in values]


def log_loss(
    game: Calibrating, points: list[tuple[float, str]], scale: float, offset: float = 0.0
) -> float:
    total = 0.0
    for value, won in points:
        p = game.analysis_chance(value, scale, offset)
        p = min(max(p, 1e-6), 1 - 1e-6)
        total -= math.log(p if won == "1" else 1 - p)
    return total / len(points)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", default="watergate")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--fit", action="store_true")
    args = parser.parse_args()
    game = get_game(args.game).with_players(args.players)
    level = "heuristic" if args.game == "watergate" else "normal"
    options = {"players": args.players} if args.players != 2 else {}
    spent, judged, points = 0.0, 0, []
    for k in range(args.games):
        seed = args.seed + k
        actions, values = played(game, seed, level)
        points += values
        if args.fit:
            continue
        started = time.perf_counter()
        judged += len(analyse_match(game.id, seed, game.rules_version, actions, options))
        spent += time.perf_counter() - started
    if args.fit:
        assert isinstance(game, Calibrating), f"{game.id}'s analysis has nothing to fit"
        grid = [(s / 2, o / 10) for s in range(2, 81) for o in range(-30, 11)]
        scale, offset = min(grid, key=lambda g: log_loss(game, points, *g))
        share = sum(won == "1" for _, won in points) / len(points)
        flat = -(share * math.log(share) + (1 - share) * math.log(1 - share))
        in_use = game.analysis_scale(args.players)
        print(f"nations_analysis_decisions {len(points)}")
        print(f"nations_analysis_scale {scale}")
        print(f"nations_analysis_offset {offset}")
        print(f"nations_analysis_log_loss {log_loss(game, points, scale, offset):.4f}")
        print(f"nations_analysis_log_loss_in_use {log_loss(game, points, *in_use):.4f}")
        print(f"nations_analysis_log_loss_flat {flat:.4f}")
        return
    print(f"analysis_seconds_per_match {spent / args.games:.2f}")
    print(f"analysis_decisions_per_match {judged / args.games:.1f}")


if __name__ == "__main__":
    main()
