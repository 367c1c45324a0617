"""Finds a tutorial lesson's deal: the seed whose path shows every topic of the lesson soonest.

    python -m bench.lessons --game watergate --lesson editor [--seeds 200] [--write FILE]
    python -m bench.lessons --game nations --lesson p1 --look pass --plain --seeds 60 --write FILE

For each candidate seed both sides play the path a lesson follows: the move that shows a topic
not seen yet, otherwise the heuristic bot's move; the path ends at the learner's first decision
after the last topic (so the lesson's end waits for the learner). `--look TYPE` adds a step
before the bot's move: the move after which everyone playing TYPE (Nations' pass: the round
resolved at once) shows a topic that resolving now would not, since a rule of the resolution
(a shortage at production) shows only after the moves that cause it. `--plain` takes, of moves
showing as many topics, the one with the fewest fields. It prints
`lesson_decisions` (the shortest path's length) and `lesson_seeds_covering` (how many seeds
showed every topic), and with `--write` puts that seed and path into the game's lessons file.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
from pathlib import Path
from typing import Any

from engine.core.game import JSONObject, Seat
from engine.core.lessons import Lesson, Moment, Teachable, TopicWatcher
from engine.registry import AnyGame, get_game

LIMIT = 160  # decisions: a path longer than this is not a lesson


def lesson_seed(lesson: str, n: int) -> int:
    """A 256-bit seed per candidate, as the server's seeds are (public: tutorials hide nothing)."""
    return int.from_bytes(hashlib.sha256(f"lesson {lesson} {n}".encode()).digest(), "big")


def chains(lesson: Lesson, watcher: TopicWatcher) -> set[str]:
    """The action kinds of topics still missing that need several such actions in a row."""
    missing = set(watcher.missing())
    return {t.action for t in lesson.topics if t.id in missing and t.chain > 1 and t.action}


def moment(game: AnyGame, seat: Seat, action: Any, step: Any, lesson: Lesson) -> Moment:
    return Moment(
        seat,
        game.action_to_json(action),
        game.events_to_json(step.events),
        game.view_for(step.state, lesson.seat),
    )


def ahead(game: AnyGame, lesson: Lesson, watcher: TopicWatcher, state: Any, look: str) -> set[str]:
    """The new topics the quickest way on from `state` shows: every seat playing its `look`
    action (Nations' "pass": the round's resolution at once) while it has one. A rule of the
    resolution (a shortage at production) shows only there, after the moves that cause it."""
    seen = copy.deepcopy(watcher)
    shown: set[str] = set()
    for _ in range(len(game.seats) * 2):
        seats = game.to_move(state)
        if not seats:
            break
        action = next(
            (
                a
                for a in game.legal_actions(state, seats[0])
                if game.action_to_json(a)["type"] == look
            ),
            None,
        )
        if action is None:
            break
        step = game.apply(state, seats[0], action)
        shown.update(seen.watch(moment(game, seats[0], action, step, lesson)))
        state = step.state
    return shown


def path(
    game: AnyGame, lesson: Lesson, seed: int, look: str | None = None, plain: bool = False
) -> list[tuple[Seat, JSONObject]] | None:
    """The lesson's path from `seed`, or None when it does not show every topic in time; with
    `look`, a move with no topic of its own is chosen by what ending the turn after it shows;
    `plain` prefers, among moves showing as many topics, the one with the fewest fields (a
    purchase that replaces nothing: a lesson should not teach a detour)."""
    state = game.start(seed).state
    watcher = TopicWatcher(lesson.topics)
    bots = {s: game.make_bot("heuristic", seed, 0, None) for s in game.seats}
    script: list[tuple[Seat, JSONObject]] = []
    # past the last topic, on to the learner's next decision: the lesson ends there, waiting
    while (
        (watcher.missing() or game.to_move(state) != (lesson.seat,))
        and len(script) < LIMIT
        and (seats := game.to_move(state))
    ):
        seat = seats[0]
        legal = game.legal_actions(state, seat)
        best: tuple[int, Any, Any, int] | None = None
        for action in legal:
            step = game.apply(state, seat, action)
            shown = copy.deepcopy(watcher).watch(moment(game, seat, action, step, lesson))
            fields = len(game.action_to_json(action)) if plain else 0
            if shown and (best is None or (len(shown), -fields) > (best[0], best[3])):
                best = (len(shown), action, step, -fields)
        if best is None and look is not None:  # what ending the round now would show anyway
            now = ahead(game, lesson, watcher, state, look)
            for action in legal:
                step = game.apply(state, seat, action)
                later = len(ahead(game, lesson, watcher, step.state, look) - now)
                if later and (best is None or later > best[0]):
                    best = (later, action, step, 0)
        if best is None:  # a step towards a chain still to show (a reaction to answer)
            best = next((
                (0, a, game.apply(state, seat, a), 0) for a in legal
                if game.action_to_json(a).get("type") in chains(lesson, watcher)
            ), None)  # fmt: skip
        if best is None:
            action = bots[seat].decide(game.observation_for(state, seat), seat, legal)
            step = game.apply(state, seat, action)
        else:
            _, action, step, _ = best
        watcher.watch(moment(game, seat, action, step, lesson))
        script.append((seat, game.action_to_json(action)))
        state = step.state
    return None if watcher.missing() else script


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="watergate")
    parser.add_argument("--lesson", required=True)
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--look", help="the action type that ends a turn soonest (nations: pass)")
    parser.add_argument("--plain", action="store_true", help="the plainest of equal moves")
    parser.add_argument("--write", type=Path, help="the lessons file to put the result into")
    args = parser.parse_args()
    game = get_game(args.game)
    assert isinstance(game, Teachable)
    lesson = game.lessons()[args.lesson]
    found: list[tuple[int, int, list[tuple[Seat, JSONObject]]]] = []
    for n in range(args.seeds):
        seed = lesson_seed(lesson.id, n)
        script = path(game, lesson, seed, args.look, args.plain)
        if script is not None:
            found.append((len(script), seed, script))
    print(f"lesson_seeds_covering {len(found)}")
    if not found:
        return
    length, seed, script = min(found, key=lambda f: f[0])
    print(f"lesson_decisions {length}")
    if args.write:
        data = json.loads(args.write.read_text(encoding="utf-8"))
        for entry in data["lessons"]:
            if entry["id"] == lesson.id:
                entry.update(seed=seed, rules_version=game.rules_version)
                entry["script"] = [[s, a] for s, a in script]
        args.write.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
