"""Nations (2–5 players, four ages) as a game of the platform: a pure, seeded implementation of
the Game protocol (docs/nations.md). `GAME` is what the registry holds; the other names are the
rules surface for Nations' own tests and bots."""

from __future__ import annotations

from .game import NationsGame
from .ruleset import Ruleset, load_ruleset, rules_versions

# the current edition deals new matches; every earlier one still replays the matches dealt with it
GAME = NationsGame(load_ruleset(), earlier={v: load_ruleset(v) for v in rules_versions()[:-1]})

__all__ = ["GAME", "NationsGame", "Ruleset", "load_ruleset"]
