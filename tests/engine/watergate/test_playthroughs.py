"""Golden playthroughs (OpenSpiel-style, architecture.md §3.4): a seeded RandomBot plays both seats
of a few fixed matches to the end; every step is written down and compared with the golden file.

Any change of behaviour (rules, RNG, views, log, legal actions) shows up as a diff of
tests/engine/watergate/golden/*.txt. Rewrite them with `pytest
tests/engine/watergate/test_playthroughs.py --update-golden` and read the diff before committing.
(HEADER keeps the old path: it is part of the golden bytes.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.watergate import ROLES, Role, apply, current_role, legal_actions, start
from engine.watergate.bots import RandomBot
from engine.watergate.describe import describe
from engine.watergate.serialize import dumps
from engine.watergate.state import JSON
from engine.watergate.views import events_for, view_for

GOLDEN = Path(__file__).parent / "golden"
# (match seed, bot seed): an Editor connection win, Nixon's fifth momentum, an empty supply (R4)
MATCHES = ((336, 336), (170, 170), (126, 126))
MAX_DECISIONS = 3000
# The goldens are dealt by the first edition's generator (what `start` uses): they prove that a
# stored rules-version-1 match replays exactly; test_rng.py covers version 2's generator.
GOLDEN_RULES_VERSION = "1"

HEADER = """\
# Golden playthrough: match seed {seed}, one RandomBot({bot}) choosing for both seats.
# Regenerate: .venv/bin/python -m pytest tests/engine/test_playthroughs.py --update-golden
# Each step: version and deciding seat, describe(state) (indented), each seat's view as
# canonical JSON, each seat's legal actions, the action chosen, each seat's log of the step.
# Views: the first is written whole; later ones only the entries ("key" or "key.subkey")
# that changed for that seat since its previous view.
rules_version {version}
"""


def _flat(view: dict[str, JSON]) -> dict[str, JSON]:
    """A view flattened one level ("board.spaces"), so that a change is written compactly."""
    out: dict[str, JSON] = {}
    for key, value in view.items():
        if isinstance(value, dict):
            for sub, item in value.items():
                out[f"{key}.{sub}"] = item
        else:
            out[key] = value
    return out


class _Transcript:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.seen: dict[Role, dict[str, JSON] | None] = {"editor": None, "nixon": None}

    def views(self, state_views: dict[Role, dict[str, JSON]]) -> None:
        for role in ROLES:
            flat, before = _flat(state_views[role]), self.seen[role]
            if before is None:
                self.lines.append(f"view {role}: {dumps(state_views[role])}")
            else:
                changed = {k: v for k, v in flat.items() if k not in before or before[k] != v}
                gone = sorted(set(before) - set(flat))
                self.lines.append(f"view {role} changed: {dumps(changed)}")
                if gone:
                    self.lines.append(f"view {role} dropped: {dumps(gone)}")
            self.seen[role] = flat


def transcript(seed: int, bot_seed: int) -> str:
    """The whole match as text: deterministic, so equal engines give equal files."""
    t = _Transcript()
    t.lines.append(HEADER.format(seed=seed, bot=bot_seed, version=GOLDEN_RULES_VERSION))
    first = start(seed, GOLDEN_RULES_VERSION)
    s, bot = first.state, RandomBot(bot_seed)
    t.lines.append("== start")
    for seat in ROLES:
        t.lines.append(f"events {seat}: {dumps(events_for(first.events, seat))}")
    for step in range(1, MAX_DECISIONS + 1):
        role = current_role(s)
        if role is None:
            t.lines.append(f"\n== end | version {s.version} | winner {s.winner} {s.win_reason}")
        else:
            t.lines.append(f"\n== step {step} | version {s.version} | decides {role}")
        t.lines.extend(f"  {line}".rstrip() for line in describe(s).splitlines())
        views = {r: view_for(s, r) for r in ROLES}
        t.views(views)
        for r in ROLES:
            t.lines.append(f"legal {r}: {dumps(legal_actions(s, r))}")
        if role is None:
            return "\n".join(t.lines) + "\n"
        action = bot.choose(views[role], legal_actions(s, role))
        t.lines.append(f"action {role}: {dumps(action)}")
        result = apply(s, role, action)
        for r in ROLES:
            t.lines.append(f"events {r}: {dumps(events_for(result.events, r))}")
        s = result.state
    pytest.fail(f"seed {seed}: no winner after {MAX_DECISIONS} decisions")


def _first_difference(expected: str, actual: str) -> str:
    old, new = expected.splitlines(), actual.splitlines()
    for i, (a, b) in enumerate(zip(old, new, strict=False)):
        if a != b:
            step = next((x for x in reversed(new[: i + 1]) if x.startswith("== ")), "")
            return f"line {i + 1} ({step}):\n  golden: {a[:300]}\n  now:    {b[:300]}"
    return f"the golden has {len(old)} lines, the engine now writes {len(new)}"


@pytest.mark.parametrize(("seed", "bot_seed"), MATCHES)
def test_playthrough_matches_golden(seed: int, bot_seed: int, update_golden: bool) -> None:
    path = GOLDEN / f"playthrough_seed{seed}.txt"
    text = transcript(seed, bot_seed)
    if update_golden:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"{path} is missing: run pytest with --update-golden"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, (
        f"playthrough of seed {seed} changed at {_first_difference(expected, text)}\n"
        "If the change is intended, rerun with --update-golden and review the diff."
    )


def test_transcripts_are_deterministic() -> None:
    seed, bot_seed = MATCHES[0]
    assert transcript(seed, bot_seed) == transcript(seed, bot_seed)


def test_golden_matches_end_as_chosen() -> None:
    """The fixed seeds keep covering the three ways a match ends (R26, R27, R4)."""
    reasons = []
    for seed, bot_seed in MATCHES:
        s, bot = start(seed, GOLDEN_RULES_VERSION).state, RandomBot(bot_seed)
        while (role := current_role(s)) is not None:
            s = apply(s, role, bot.choose(view_for(s, role), legal_actions(s, role))).state
        reasons.append((s.winner, s.win_reason))
    assert reasons == [
        ("editor", "connection"),
        ("nixon", "fifth_momentum"),
        ("nixon", "empty_supply"),
    ]
