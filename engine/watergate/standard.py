"""The standard edition: the printed components as `GAME` loads them, and the first edition's
seed-only, dict-action entry points for Watergate's own tests and tools and for app/ until it
reaches the game only through `GAME` (the platform's way; architecture.md §6)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final, cast

from ..core.game import Step
from . import flow
from .actions import action_to_json
from .catalog import Card, Role, Space, TokenData
from .events import Event
from .game import GAME
from .ruleset import Ruleset
from .state import MatchState

RULESET: Final[Ruleset] = GAME.ruleset
CARDS: Final[Mapping[str, Card]] = RULESET.cards
TOKENS: Final[Mapping[str, TokenData]] = RULESET.tokens
SPACES: Final[tuple[Space, ...]] = RULESET.spaces
PEOPLE: Final[tuple[str, ...]] = RULESET.people

FIRST_EDITION: Final = "1"  # the rules version these entry points deal by default
Action = dict[str, str | int]  # an action as its JSON object (`flow.apply` accepts these too)


def legal_actions(s: MatchState, role: Role) -> list[Action]:
    """`flow.legal_actions` as JSON objects, in the same order."""
    return cast(list[Action], [action_to_json(a) for a in flow.legal_actions(s, role)])


def start(seed: int, rules_version: str = FIRST_EDITION) -> Step[MatchState, Event]:
    """Set up a standard match from a seed up to the first decision, dealt and played as
    `rules_version` (the first edition unless told: the engine's tests pin positions by seed)."""
    return flow.start(seed, GAME.edition(rules_version))


def new_match(seed: int, rules_version: str = FIRST_EDITION) -> MatchState:
    """A standard match for this seed, waiting for the Editor's first play."""
    return flow.new_match(seed, GAME.edition(rules_version))


def replay(
    seed: int, actions: Iterable[tuple[Role, object]], rules_version: str = FIRST_EDITION
) -> MatchState:
    """Rebuild a standard match from its seed and its ordered (role, action) list."""
    return flow.replay(seed, GAME.edition(rules_version), actions)


def replay_events(
    seed: int, actions: Iterable[tuple[Role, object]], rules_version: str = FIRST_EDITION
) -> tuple[MatchState, list[Event]]:
    """Like replay, also returning every event in order (the full game log)."""
    return flow.replay_events(seed, GAME.edition(rules_version), actions)
