"""Watergate behind the Game protocol: the only object the platform holds of this game."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from typing import Final, cast

from ..core.game import JSON, Bot, JSONObject, Judged, Outcome, Seat, Step, Viewer
from ..core.lessons import Lesson, lessons_from_json
from ..core.rng import ALGORITHMS
from . import flow, serialize, views
from .actions import Action, action_to_json, parse_action
from .bots import HeuristicBot, RandomBot
from .bots.analysis import analyse
from .bots.levels import LEVELS, level_bot
from .bots.prior import signature
from .bots.search import SearchBot
from .catalog import ROLES, Role
from .describe import describe as _describe
from .events import Event, OnlyChoice, events_to_json
from .forced import forced_action
from .hints import hints_for as _hints_for
from .observation import observation_for as _observation_for
from .ruleset import Ruleset, edition, load_ruleset, read_data
from .state import JSON as StateJSON
from .state import MatchState
from .versions import RULES_VERSION, VERSIONS, rules_version

TRACK_REACH: Final = 5  # the research track runs from -5 (Nixon's end) to +5 (the Editor's)


_ONE_SEAT: Final[dict[Role, tuple[Seat, ...]]] = {role: (role,) for role in ROLES}


def _role(seat: Seat) -> Role:
    if seat not in ROLES:
        raise KeyError(f"unknown seat {seat!r}")
    return seat


def _viewer(viewer: Viewer) -> Role | None:
    return None if viewer is None else _role(viewer)


class WatergateGame:
    """The Game protocol for Watergate: two seats, the Editor first (R5), played with the
    components of `ruleset` (every match it starts carries them, under its own rules version)."""

    id: Final = "watergate"
    seats: Final[tuple[Seat, ...]] = ROLES
    rules_version: Final = RULES_VERSION
    # the levels (bots/levels.py) and the bots they are made of, strongest first: a failing bot
    # falls back to the ones after it
    bot_names: Final[tuple[str, ...]] = ("hard", "search", "normal", "heuristic", "easy", "random")
    player_counts: Final[tuple[int, ...]] = (2,)

    def __init__(self, ruleset: Ruleset) -> None:
        # One Ruleset per rules version, shared by every match of that version.
        self.editions: Final = {v: edition(ruleset, rv) for v, rv in VERSIONS.items()}
        self.ruleset: Final = self.editions[RULES_VERSION]

    def edition(self, version: str | None) -> Ruleset:
        """The components as played under rules `version` (None: today's); ValueError if unknown."""
        return self.editions[rules_version(version).id]

    def deal_algorithm(self, rules_version: str) -> str:
        return ALGORITHMS[self.edition(rules_version).version.generator]

    def with_players(self, players: int) -> WatergateGame:
        """Watergate is always two seats, the Editor and Nixon."""
        if players != 2:
            raise ValueError("Watergate is a game for 2 players")
        return self

    def start(self, seed: int, rules_version: str | None = None) -> Step[MatchState, Event]:
        return flow.start(seed, self.edition(rules_version))

    def to_move(self, state: MatchState) -> tuple[Seat, ...]:
        d = state.decision
        return () if d is None or state.winner is not None else _ONE_SEAT[d.role]

    def legal_actions(self, state: MatchState, seat: Seat) -> Sequence[Action]:
        return flow.legal_actions(state, _role(seat))

    def apply(self, state: MatchState, seat: Seat, action: object) -> Step[MatchState, Event]:
        return flow.apply(state, _role(seat), action)

    def forced(self, state: MatchState) -> tuple[Seat, Action] | None:
        """The seat to move and its only action, when it has one only and everyone could count
        it (core.game.Forcing; forced.py): the platform takes it without a click."""
        return forced_action(state)

    def only_choice(self, seat: Seat) -> Event:
        """The log's line before such an action: it was the seat's only choice."""
        return OnlyChoice(_role(seat))

    def parse_action(self, obj: object) -> Action:
        return parse_action(obj)

    def action_to_json(self, action: Action) -> JSONObject:
        return action_to_json(action)

    def view_for(self, state: MatchState, viewer: Viewer) -> JSONObject:
        return cast(JSONObject, views.view_for(state, _viewer(viewer)))

    def events_for(self, events: Sequence[Event], viewer: Viewer) -> list[JSONObject]:
        return views.events_for(events, _viewer(viewer))

    def events_to_json(self, events: Sequence[Event]) -> list[JSONObject]:
        return events_to_json(events)

    def outcome(self, state: MatchState) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome((state.winner,), state.win_reason or "")

    def version(self, state: MatchState) -> int:
        return state.version

    def round_of(self, state: MatchState) -> int:
        return state.round

    def observation_for(self, state: MatchState, seat: Seat) -> MatchState:
        return _observation_for(state, _role(seat))

    def state_to_json(self, state: MatchState) -> JSONObject:
        return cast(JSONObject, serialize.state_to_json(state))

    def state_from_json(self, data: JSONObject) -> MatchState:
        version = data.get("rules_version")
        rules = self.edition(version if isinstance(version, str) else None)
        return serialize.state_from_json(cast(dict[str, StateJSON], data), rules)

    def admin_view(self, state: MatchState) -> JSONObject:
        return cast(JSONObject, views.admin_view(state))

    def open_view(self, state: MatchState) -> JSONObject:
        return cast(JSONObject, views.open_view(state))

    def describe(self, state: MatchState) -> str:
        return _describe(state)

    def make_bot(
        self, name: str, seed: int, budget_ms: int, clock: Callable[[], float] | None
    ) -> Bot[MatchState, Action]:
        if name in LEVELS:
            return cast(Bot[MatchState, Action], level_bot(name, seed, budget_ms, clock))
        if name == "search":
            return cast(Bot[MatchState, Action], SearchBot(seed, budget_ms=budget_ms, clock=clock))
        if name == "heuristic":
            return cast(Bot[MatchState, Action], HeuristicBot(seed))
        if name == "random":
            return cast(Bot[MatchState, Action], RandomBot(seed))
        raise KeyError(f"unknown Watergate bot {name!r}")

    def move_signature(self, state: MatchState, seat: Seat, action: Action) -> str:
        """The move prior's signature of an action (core.game.Imitating; bots/prior.py)."""
        return signature(state, cast(Role, seat), action)

    def analyse(
        self, seed: int, rules_version: str, actions: Sequence[tuple[int, Seat, object]]
    ) -> list[Judged]:
        """Post-game analysis (core.game.Analysable; bots/analysis.py)."""
        start = self.start(seed, rules_version).state
        typed = [(seq, cast(Role, seat), self.parse_action(a)) for seq, seat, a in actions]
        return [
            Judged(seq, role, j.before, j.after, self.action_to_json(j.best))
            for seq, role, j in analyse(start, typed, seed)
        ]

    @cached_property
    def _lessons(self) -> Mapping[str, Lesson]:
        return lessons_from_json(read_data("lessons"))

    def lessons(self) -> Mapping[str, Lesson]:
        """The tutorial lessons (core.lessons.Teachable): one per seat, from data/lessons.json."""
        return self._lessons

    def hints_for(self, state: MatchState, seat: Seat) -> JSONObject:
        """Why cards of the seat's hand would be played only for their value (core.game.Hinting;
        hints.py)."""
        return cast(JSONObject, _hints_for(state, _role(seat)))

    def metadata(self) -> JSONObject:
        """The board map (and its centre), its drawing layout, the card list, the track's sizes
        and which side of the track is whose."""
        rules = self.ruleset
        return {
            "game": self.id,
            "seats": list(self.seats),
            "spaces": [{"id": s.id, "color": s.color} for s in rules.spaces],
            "edges": [list(e) for e in rules.edges],
            "informants": rules.informants_json,
            "layout": rules.layout_json,
            "cards": {
                c.id: {
                    "id": c.id,
                    "faction": c.faction,
                    "kind": c.kind,
                    "value": c.value,
                    "color": c.color,
                    "reaction": c.is_reaction,
                }
                for c in rules.cards.values()
            },
            "editor_momentum_spaces": cast(JSON, sorted(rules.editor_momentum_effects)),
            "nixon_momentum_spaces": cast(JSON, sorted(rules.nixon_momentum_effects)),
            # each side's card size; "momentum_spaces" (v1) is Nixon's, the one that wins
            "momentum_sizes": cast(JSON, dict(rules.momentum_sizes)),
            "momentum_spaces": rules.momentum_sizes["nixon"],
            "track_reach": TRACK_REACH,
            # R9: positive positions are the Editor's side of the track, negative Nixon's
            "track_sides": {"editor": 1, "nixon": -1},
            "center": rules.center,
        }


GAME: Final = WatergateGame(load_ruleset())
