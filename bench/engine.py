"""Engine speed: random players play full games on one core; prints `games_per_second <float>`.

python -m bench.engine --games 2000 [--seed 1] [--game watergate] [--players N] [--rules-version V]

`engine` says which engine played: `pure` (the reference, what the app runs) or `mypyc` (the
optional compiled copy that `make mypyc` builds in build/mypyc). With that copy built, a run on the
pure engine also plays the same games on the copy (this module again, in a second process whose
path puts the copy first) and prints `decisions_per_second_mypyc` and `games_per_second_mypyc`
after the pure figures; `--no-compiled` leaves the copy out.

Only the Game protocol is used (through the registry). Each seat picks uniformly among its legal
actions with the shared SplitMix64 generator, seeded as the games' random bots are, so the games
(and the end counts) are the same whichever harness plays them. `--rules-version` plays an older
version (Watergate's "1" deals with SplitMix64; today's "2" with SHA-256 from a secret seed), so
the cost of the secret generator can be read side by side. `--players` plays a game that takes
several player counts (Nations: 2-5) at that count; the default is the game's first.
"""

from __future__ import annotations

import argparse
import sys
import time

from engine.core.rng import below, seed_state
from engine.registry import DEFAULT_GAME, AnyGame, game_ids, get_game

from .compiled import copy_plays, engine_kind, on_copy


def play_one(game: AnyGame, seed: int, rules_version: str | None = None) -> tuple[int, str]:
    """Play one random game; return (decisions, "<winners>_<reason>")."""
    s = game.start(seed, rules_version).state
    rngs = {seat: seed_state(seed * 2 + 1 + k) for k, seat in enumerate(game.seats)}
    decisions = 0
    while to_move := game.to_move(s):
        seat = to_move[0]
        legal = game.legal_actions(s, seat)
        rngs[seat], i = below(rngs[seat], len(legal))
        s = game.apply(s, seat, legal[i]).state
        decisions += 1
    outcome = game.outcome(s)
    assert outcome is not None
    return decisions, f"{'_'.join(outcome.winners) or 'draw'}_{outcome.reason}"


def compiled_figures(argv: list[str]) -> dict[str, str]:
    """The same benchmark played by the compiled copy: its output lines by name."""
    done = on_copy("bench.engine", argv, capture=True)
    return dict(line.split(" ", 1) for line in done.stdout.splitlines() if " " in line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", default=DEFAULT_GAME, choices=game_ids())
    parser.add_argument("--players", type=int, default=None, help="default: the game's first")
    parser.add_argument("--rules-version", default=None, help="default: the game's current")
    parser.add_argument("--no-compiled", action="store_true", help="skip build/mypyc's engine")
    args = parser.parse_args()
    game = get_game(args.game)
    if args.players is not None:
        game = game.with_players(args.players)
    started = time.perf_counter()
    decisions, reasons = 0, dict[str, int]()
    for g in range(args.games):
        n, reason = play_one(game, args.seed * 1_000_003 + g, args.rules_version)
        decisions += n
        reasons[reason] = reasons.get(reason, 0) + 1
    elapsed = time.perf_counter() - started
    kind = engine_kind(args.game)
    print(f"engine {kind}")
    print(f"rules_version {args.rules_version or game.rules_version}")
    print(f"players {len(game.seats)}")
    print(f"games {args.games}")
    print(f"seconds {elapsed:.3f}")
    for reason, count in sorted(reasons.items()):
        print(f"end_{reason} {count}")
    print(f"decisions_per_game {decisions / args.games:.1f}")
    print(f"decisions_per_second {decisions / elapsed:.0f}")
    print(f"games_per_second {args.games / elapsed:.1f}")
    if kind == "pure" and not args.no_compiled and copy_plays(args.game):
        compiled = compiled_figures(sys.argv[1:])
        assert compiled["engine"] == "mypyc", "build/mypyc holds no compiled engine module"
        # the same games (same end counts) or the copy is not the same engine
        ends = {k: v for k, v in compiled.items() if k.startswith("end_")}
        assert ends == {f"end_{r}": str(c) for r, c in reasons.items()}, ends
        print(f"decisions_per_second_mypyc {compiled['decisions_per_second']}")
        print(f"games_per_second_mypyc {compiled['games_per_second']}")


if __name__ == "__main__":
    main()
