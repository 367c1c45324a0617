"""Watergate's rules versions: the generator that deals a match and the readings it plays by.

Every match is stored with its rules version and replays under it for good, so a change of the
rules is a new version, never an edit of an old one. The rules consult `Features` (through the
match's Ruleset, `s.rules.version.features`) at the few places where versions differ; everything
else is shared code and shared data.

- "1": the first edition, dealt by SplitMix64 from a 53-bit seed.
- "2": the same rules, dealt by SHA-256 in counter mode from a 256-bit secret seed.
- "3": rulings R28–R34 (docs/rulings.md), dealt like "2".
- "4": R35, the Editor's momentum space 2 acts (its data edition "4": `editions` in the data
  files), dealt like "2".
- "5": version 4 with three of the Editor's cards weaker (data edition "5": Deep Throat, Subpoena
  for the tapes, John Dean testifies), so that searching players are even too (docs/balance.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from ..core.rng import Generator


@dataclass(frozen=True, slots=True)
class Features:
    """Where a version's rules differ from the first edition's (False: the earlier reading)."""

    up_to_is_a_choice: bool = False  # R28: an "up to N" instruction offers a "done" choice
    instructions_may_ask: bool = False  # R29: the Editor's colour-bound instruction may ask (R11)
    gambit_always_asks: bool = False  # R31: Gambit's prompt even with an empty hand
    replay_is_announced: bool = False  # R32: The system works' card gets its own reaction window
    winning_card_put_away: bool = False  # R34: the card that ends the match is put away


@dataclass(frozen=True, slots=True)
class RulesVersion:
    """One rules version: its id as stored with a match, its generator and its readings."""

    id: str
    generator: Generator
    features: Features
    # Which edition of the data it plays: "" the first reconstruction, else the key under which
    # the data files give an entry's later wording (`editions`: an entry is worded by its latest
    # edition up to this one, so an edition lists only what it changes; one without is as first).
    data: str = ""


FIRST_READINGS: Final = Features()
AUDITED_READINGS: Final = Features(
    up_to_is_a_choice=True,
    instructions_may_ask=True,
    gambit_always_asks=True,
    replay_is_announced=True,
    winning_card_put_away=True,
)

VERSIONS: Final[Mapping[str, RulesVersion]] = {
    "1": RulesVersion("1", "splitmix64", FIRST_READINGS),
    "2": RulesVersion("2", "sha256-ctr", FIRST_READINGS),
    "3": RulesVersion("3", "sha256-ctr", AUDITED_READINGS),
    "4": RulesVersion("4", "sha256-ctr", AUDITED_READINGS, data="4"),
    "5": RulesVersion("5", "sha256-ctr", AUDITED_READINGS, data="5"),
}
RULES_VERSION: Final = "5"  # what new matches are made with


def rules_version(version_id: str | None) -> RulesVersion:
    """The version stored as `version_id` (None or "": today's); ValueError for one never made."""
    found = VERSIONS.get(version_id or RULES_VERSION)
    if found is None:
        raise ValueError(f"Watergate rules version {version_id!r} is not known")
    return found
