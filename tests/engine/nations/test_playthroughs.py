"""Golden playthroughs: a seeded random bot plays every seat of a match of 2, 3, 4 and 5 players
to the end, through the Game protocol; each step's seat, legal actions, action and log,
and the whole state at each round's start and at the end, are compared with a golden file.

Goldens catch change (rules, data, generator, views, log, legal actions); the rules themselves
are proven by the per-rule tests. Rewrite with `pytest tests/engine/nations/test_playthroughs.py
--update-golden` and read the diff before committing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.core.game import JSON
from engine.nations import GAME

GOLDEN = Path(__file__).parent / "golden"
MATCHES = ((2, 3, 3), (3, 5, 5), (4, 7, 7), (5, 9, 9))  # (players, match seed, bot seed)
HEADER = """\
# Nations golden playthrough: {players} players, match seed {seed}, random bot seed {bot}.
# Regenerate: python -m pytest tests/engine/nations/test_playthroughs.py --update-golden
# Each step: the deciding seat, its legal actions, the action, the log (the same for every
# viewer, NR1); describe(state) at each round's first decision and at the end.
rules_version {version}
"""


def dumps(value: JSON) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def transcript(players: int, seed: int, bot_seed: int, version: str | None = None) -> str:
    game = GAME.with_players(players)
    step = game.start(seed, version)
    s = step.state
    bot = game.make_bot("random", bot_seed, 0, None)
    shown = version or game.rules_version
    lines = [HEADER.format(players=players, seed=seed, bot=bot_seed, version=shown)]
    lines.append(f"log {dumps(game.events_for(step.events, None))}")  # type: ignore[arg-type]
    shown_round = 0
    for _ in range(5000):
        if s.round != shown_round or not game.to_move(s):
            shown_round = s.round
            lines.append(f"\n== round {s.round}" if game.to_move(s) else "\n== end")
            lines.extend(f"  {line}" for line in game.describe(s).splitlines())
        to_move = game.to_move(s)
        if not to_move:
            lines.append(f"outcome {game.outcome(s)}")
            lines.append(f"view {dumps(game.view_for(s, None))}")
            return "\n".join(lines) + "\n"
        seat = to_move[0]
        legal = game.legal_actions(s, seat)
        action = bot.decide(game.observation_for(s, seat), seat, legal)
        lines.append(
            f"v{game.version(s)} {seat} of {len(legal)}: {dumps(game.action_to_json(action))}"
        )
        lines.append(f"  legal {dumps([game.action_to_json(a) for a in legal])}")
        step = game.apply(s, seat, action)
        lines.append(f"  log {dumps(game.events_for(step.events, None))}")  # type: ignore[arg-type]
        s = step.state
    pytest.fail(f"seed {seed}: no end within 5000 decisions")


@pytest.mark.parametrize(("players", "seed", "bot_seed"), MATCHES)
def test_playthrough_matches_golden(
    players: int, seed: int, bot_seed: int, update_golden: bool
) -> None:
    path = GOLDEN / f"playthrough_{players}p_seed{seed}.txt"
    text = transcript(players, seed, bot_seed)
    if update_golden:
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"{path} is missing: run pytest with --update-golden"
    old, new = path.read_text(encoding="utf-8").splitlines(), text.splitlines()
    for i, (a, b) in enumerate(zip(old, new, strict=False)):
        assert a == b, (
            f"{path.name} changed at line {i + 1}:\n  golden: {a[:300]}\n  now:    {b[:300]}"
        )
    assert len(old) == len(new), f"{path.name}: {len(old)} lines in the golden, {len(new)} now"


# NR2: a stored match replays under the rules version it was dealt with. The v1 goldens were
# written by the engine of rules version 1 itself (before issue 39's corrections), the v2 goldens by
# that of version 2 (before the population track's new order, issue 39 item 5), at every player
# count. Only fields that later engines added to every version's log or view are new in them:
# the log's `leaders` (version 2's event log, NR42) and the view's `next_growth` (version 3's
# view, which names the next space's cost as the match's own edition orders the spaces).
LEADERS = re.compile(r',?"leaders":\[[^\]]*\],?')
NEXT_GROWTH = re.compile(r'"next_growth":(?:null|\{[^{}]*\}),')


def as_written_by(version: str, line: str) -> str:
    """A transcript line without the fields added after rules version `version`'s engine."""
    line = NEXT_GROWTH.sub("", line)
    if version == "1":
        line = LEADERS.sub(
            lambda m: "," if m.group().startswith(",") and m.group().endswith(",") else "", line
        )
    return line


@pytest.mark.parametrize(
    ("version", "players", "seed", "bot_seed"),
    [("1", 2, 3, 3), ("1", 4, 7, 7), *(("2", *match) for match in MATCHES)],
)
def test_nr2_a_match_replays_exactly_as_its_rules_version_played_it(
    version: str, players: int, seed: int, bot_seed: int
) -> None:
    path = GOLDEN / f"v{version}_playthrough_{players}p_seed{seed}.txt"
    old = path.read_text(encoding="utf-8").splitlines()
    new = transcript(players, seed, bot_seed, version).splitlines()
    assert len(old) == len(new), f"{path.name}: {len(old)} lines, {len(new)} now"
    for i, (a, b) in enumerate(zip(old, new, strict=True)):
        plain = as_written_by(version, b)
        assert a == plain, (
            f"{path.name} line {i + 1}:\n  golden: {a[:300]}\n  now:    {plain[:300]}"
        )


def test_new_matches_play_rules_version_3_and_the_earlier_versions_stay_known() -> None:
    assert GAME.rules_version == "3"
    assert GAME.with_players(3).start(1).state.rules.version == "3"
    assert GAME.deal_algorithm("1") == GAME.deal_algorithm("2") == GAME.deal_algorithm("3")
    with pytest.raises(ValueError):
        GAME.start(1, "0")


def test_nr43_rules_version_3_differs_from_version_2_only_in_the_tracks_order() -> None:
    """Version 3 changed only the order of the population track: the same spaces, each still 3
    food a production or 3 stability (seed), and everything else as version 2 played it."""
    v2, v3 = GAME.edition("2"), GAME.edition("3")
    assert sorted(v2.population_track) == sorted(v3.population_track)
    assert v2.population_track != v3.population_track
    assert v2.cards == v3.cards and v2.levels == v3.levels
    assert (v2.idle_workers, v2.starting_workers) == (v3.idle_workers, v3.starting_workers)
