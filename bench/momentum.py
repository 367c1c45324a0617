"""R35: how often each instruction of the Editor's momentum card does something when it triggers.

    python -m bench.momentum --games 300 [--rules-version 4] [--bot heuristic] [--seed 1]

Plays Watergate bot against bot (through the registry) and, each time the Editor's momentum token
lands on space k, counts whether the space's instruction acted: it asked the Editor to choose
(a decision whose source is "M<k>") or it changed something at once (an event other than the
bookkeeping of the token itself, or of a look that found nothing). Prints per space
`m<k>_triggers`, `m<k>_acted` and `m<k>_act_rate`; R35 asks for at least 0.80 on every space that
has an instruction.
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from engine.core.game import JSONObject
from engine.registry import get_game

# events that follow a placed token whatever its instruction did
BOOKKEEPING = {"momentum_placed", "momentum_gained", "tokens_reset", "evaluation_started"}


def acted(after: list[JSONObject], decision: Any, space: int) -> bool:
    if isinstance(decision, dict):
        task = decision.get("task")
        source = task.get("source") if isinstance(task, dict) else decision.get("source")
        if source == f"M{space}":
            return True
    for event in after:
        kind = event.get("type")
        if kind == "track_peeked":
            return bool(event.get("tokens"))  # a look at nothing changed nothing
        if kind not in BOOKKEEPING:
            return True
        break
    return False


def play(seed: int, bot: str, rules_version: str | None) -> tuple[Counter[int], Counter[int], str]:
    game = get_game("watergate")
    bots = {seat: game.make_bot(bot, seed * 2 + k, 0, None) for k, seat in enumerate(game.seats)}
    s = game.start(seed, rules_version).state
    triggers: Counter[int] = Counter()
    acts: Counter[int] = Counter()
    while to_move := game.to_move(s):
        seat = to_move[0]
        choice = bots[seat].decide(game.observation_for(s, seat), seat, game.legal_actions(s, seat))
        step = game.apply(s, seat, choice)
        s = step.state
        events = game.events_to_json(step.events)
        decision = game.admin_view(s).get("decision")
        for i, event in enumerate(events):
            if event.get("type") == "momentum_placed" and event.get("role") == "editor":
                space = int(str(event["space"]))
                triggers[space] += 1
                acts[space] += acted(events[i + 1 :], decision, space)
    outcome = game.outcome(s)
    return triggers, acts, (outcome.winners[0] if outcome and outcome.winners else "draw")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--rules-version", default=None, help="default: today's")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    triggers: Counter[int] = Counter()
    acts: Counter[int] = Counter()
    editor = 0
    for g in range(args.games):
        t, a, winner = play(args.seed * 100_003 + g, args.bot, args.rules_version)
        triggers.update(t)
        acts.update(a)
        editor += winner == "editor"
    print(f"games {args.games}")
    print(f"rules_version {args.rules_version or get_game('watergate').rules_version}")
    for space in sorted(triggers):
        print(f"m{space}_triggers {triggers[space]}")
        print(f"m{space}_acted {acts[space]}")
        print(f"m{space}_act_rate {acts[space] / triggers[space]:.3f}")
    print(f"editor_win_rate {editor / args.games:.3f}")


if __name__ == "__main__":
    main()
