"""Trains Watergate's move prior (engine/watergate/bots/prior.py) from a teacher's choices.

    python -m bench.prior --games 2000 --teacher heuristic --jobs 2 [--write]

Plays --games games of the teacher against itself (a level or bot name; `hard` thinks
--budget-ms a decision), records every decision of more than one legal move, and fits one weight
per move signature by maximum likelihood of the teacher's picks among the legal moves (a
conditional logit, L2-regularised, plain stochastic gradient: no numpy needed). A tenth of the
games is held out. Prints `name value` lines: decisions, the held-out log-loss of the prior and
of a uniform pick, and how often the prior's favourite is the teacher's move. --write stores the
weights as engine/watergate/bots/prior_weights.py (or --out), naming the command that fitted them.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import textwrap
import time
from pathlib import Path

from engine.core.game import Imitating
from engine.registry import get_game

from .compiled import copy_plays, on_copy
from .parallel import run_jobs

Record = tuple[list[str], int]  # the legal moves' signatures, the index of the teacher's pick
OUT = Path(__file__).resolve().parent.parent / "engine" / "watergate" / "bots" / "prior_weights.py"


def record_game(args: tuple[int, str, int]) -> list[Record]:
    """One game of the teacher against itself: every real decision's signatures and pick."""
    seed, teacher, budget = args
    game = get_game("watergate")
    assert isinstance(game, Imitating)
    bots = {
        seat: game.make_bot(teacher, seed * 2 + k + 1, budget, time.perf_counter)
        for k, seat in enumerate(game.seats)
    }
    s = game.start(seed, None).state
    records: list[Record] = []
    while to_move := game.to_move(s):
        seat = to_move[0]
        legal = game.legal_actions(s, seat)
        action = bots[seat].decide(game.observation_for(s, seat), seat, legal)
        if len(legal) > 1:
            records.append(([game.move_signature(s, seat, a) for a in legal], legal.index(action)))
        s = game.apply(s, seat, action).state
    return records


def log_loss(weights: dict[str, float], records: list[Record]) -> tuple[float, float, float]:
    """The picks' mean negative log-likelihood under the prior and under a uniform pick, and how
    often the prior's favourite was the pick."""
    prior = uniform = hits = 0.0
    for sigs, chosen in records:
        logits = [weights.get(g, 0.0) for g in sigs]
        top = max(logits)
        total = sum(math.exp(v - top) for v in logits)
        prior += -(logits[chosen] - top - math.log(total))
        uniform += math.log(len(sigs))
        hits += logits[chosen] == top
    n = max(1, len(records))
    return prior / n, uniform / n, hits / n


def fit(records: list[Record], epochs: int, rate: float, l2: float, seed: int) -> dict[str, float]:
    """Stochastic gradient on the conditional logit: the pick's weight up, each legal move's
    weight down by its probability."""
    weights: dict[str, float] = {}
    order = list(range(len(records)))
    shuffle = random.Random(seed)
    for epoch in range(epochs):
        shuffle.shuffle(order)
        step = rate / (1 + epoch)
        for i in order:
            sigs, chosen = records[i]
            logits = [weights.get(g, 0.0) for g in sigs]
            top = max(logits)
            odds = [math.exp(v - top) for v in logits]
            total = sum(odds)
            grad: dict[str, float] = {}
            for g, o in zip(sigs, odds, strict=True):
                grad[g] = grad.get(g, 0.0) - o / total
            grad[sigs[chosen]] = grad.get(sigs[chosen], 0.0) + 1.0
            for g, d in grad.items():
                w = weights.get(g, 0.0)
                weights[g] = w + step * (d - l2 * w)
    return {g: round(w, 4) for g, w in sorted(weights.items()) if abs(w) >= 1e-4}


def weights_module(command: str, weights: dict[str, float]) -> str:
    """The engine's module of weights (Python, so the engine reads no file), ruff-formatted."""
    about = textwrap.fill(
        "The move prior's weights (bots/prior.py), one per move signature, written by "
        f"bench.prior, not by hand (docs/levels.md): `{command}`.",
        width=96,
    )
    lines = [
        f'"""{about}"""',
        "",
        "from typing import Final",
        "",
        "WEIGHTS: Final[dict[str, float]] = {",
        *(f"    {json.dumps(g)}: {w!r}," for g, w in sorted(weights.items())),
        "}",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--teacher", default="heuristic")
    parser.add_argument("--budget-ms", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--rate", type=float, default=0.2)
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--write", action="store_true", help="store the weights in --out")
    parser.add_argument("--out", type=Path, default=OUT, help="default: bots/prior_weights.py")
    parser.add_argument("--no-compiled", action="store_true", help="play the pure engine")
    args = parser.parse_args()
    if not args.no_compiled and copy_plays("watergate"):
        on_copy("bench.prior", sys.argv[1:], capture=False)
        return
    jobs = [(args.seed * 100_003 + g, args.teacher, args.budget_ms) for g in range(args.games)]
    started = time.perf_counter()
    games = run_jobs(record_game, jobs, args.jobs)
    held = max(1, len(games) // 10)
    train = [r for g in games[held:] for r in g]
    test = [r for g in games[:held] for r in g]
    weights = fit(train, args.epochs, args.rate, args.l2, args.seed)
    prior, uniform, hits = log_loss(weights, test)
    print(f"teacher {args.teacher}")
    print(f"decisions_train {len(train)}")
    print(f"decisions_held_out {len(test)}")
    print(f"signatures {len(weights)}")
    print(f"log_loss_prior {prior:.4f}")
    print(f"log_loss_uniform {uniform:.4f}")
    print(f"top1_prior {hits:.4f}")
    print(f"seconds {time.perf_counter() - started:.1f}")
    if args.write:
        command = (
            f"python -m bench.prior --games {args.games} --teacher {args.teacher} "
            f"--budget-ms {args.budget_ms} --seed {args.seed} --epochs {args.epochs} "
            f"--rate {args.rate} --l2 {args.l2}"
        )
        args.out.write_text(weights_module(command, weights), encoding="utf-8")
        print(f"written {args.out}")


if __name__ == "__main__":
    main()
