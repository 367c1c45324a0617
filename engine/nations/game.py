"""Nations behind the Game protocol: the only object the platform holds of this game. A game
object starts matches of one player count and one set of difficulty levels (NR21); every other
method reads the count from the state, so any Nations object serves any Nations match."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from typing import Final, cast

from ..core.game import Bot, JSONObject, Judged, Outcome, Seat, Step, Viewer
from ..core.lessons import Lesson, lessons_from_json
from ..core.rng import ALGORITHMS
from . import flow, views
from .actions import Action, action_to_json, parse_action
from .bots import HeuristicBot, RandomBot, SearchBot, analysis
from .bots.levels import LEVELS, level_bot
from .catalog import DIFFICULTIES, Difficulty
from .describe import describe as _describe
from .events import Event, events_to_json
from .flow import DEAL_GENERATOR
from .observation import observation_for as _observation_for
from .ruleset import Ruleset, read_data
from .serialize import state_from_json, state_to_json
from .state import RULES_VERSION, SEATS, MatchState, player_of, seat_of


class NationsGame:
    """The Game protocol for Nations: seats "p1".."pN", 2–5 players (rules table), each seat at
    its difficulty level (NR6, default Prince)."""

    id: Final = "nations"
    rules_version: Final = RULES_VERSION
    # the levels (bots/levels.py) and the bots they are made of, strongest first
    bot_names: Final[tuple[str, ...]] = ("hard", "search", "normal", "heuristic", "easy", "random")
    difficulties: Final[tuple[Difficulty, ...]] = DIFFICULTIES  # easiest first (NR6)

    def __init__(
        self,
        ruleset: Ruleset,
        players: int = 2,
        levels: Sequence[Difficulty] | None = None,
        earlier: Mapping[str, Ruleset] | None = None,
    ) -> None:
        chosen = flow.check_options(ruleset, players, levels)
        self.ruleset: Final = ruleset
        # every rules version a stored match may have: each replays under its own edition
        self.editions: Final[Mapping[str, Ruleset]] = {
            **(earlier or {}),
            ruleset.version or RULES_VERSION: ruleset,
        }
        self.seats: Final[tuple[Seat, ...]] = SEATS[:players]
        self.player_counts: Final[tuple[int, ...]] = ruleset.player_counts
        self.levels: Final[tuple[Difficulty, ...]] = chosen

    def with_players(self, players: int) -> NationsGame:
        """Matches of `players` seats, every seat at the default level."""
        return NationsGame(self.ruleset, players, None, self.editions)

    def with_levels(self, levels: Sequence[Difficulty]) -> NationsGame:
        """Matches with these difficulty levels, one per seat in seat order (NR6 handicaps)."""
        return NationsGame(self.ruleset, len(self.seats), levels, self.editions)

    def edition(self, rules_version: str | None) -> Ruleset:
        """The edition of a rules version (the current one for None); ValueError if unknown."""
        found = self.editions.get(rules_version or RULES_VERSION)
        if found is None:
            raise ValueError(f"Nations rules version {rules_version!r} is not known")
        return found

    def deal_algorithm(self, rules_version: str) -> str:
        """Every Nations rules version deals with the secret generator (flow.start)."""
        self.edition(rules_version)
        return ALGORITHMS[DEAL_GENERATOR]

    def start(self, seed: int, rules_version: str | None = None) -> Step[MatchState, Event]:
        """A match dealt under `rules_version`'s edition (the current one by default): a
        stored match always replays under the edition it was dealt with."""
        return flow.start(seed, self.edition(rules_version), len(self.seats), self.levels)

    def to_move(self, state: MatchState) -> tuple[Seat, ...]:
        d = state.decision
        return () if d is None or state.winner >= 0 else (seat_of(d.player),)

    def legal_actions(self, state: MatchState, seat: Seat) -> Sequence[Action]:
        return flow.legal_actions(state, player_of(seat))

    def apply(self, state: MatchState, seat: Seat, action: object) -> Step[MatchState, Event]:
        return flow.apply(state, player_of(seat), action)

    def parse_action(self, obj: object) -> Action:
        return parse_action(obj)

    def action_to_json(self, action: Action) -> JSONObject:
        return action_to_json(action)

    def view_for(self, state: MatchState, viewer: Viewer) -> JSONObject:
        if viewer is not None:
            player_of(viewer)  # an unknown seat is a KeyError, as for every seat method
        return views.view_for(state, viewer)

    def events_for(self, events: Sequence[Event], viewer: Viewer) -> list[JSONObject]:
        return views.events_for(events, viewer)

    def events_to_json(self, events: Sequence[Event]) -> list[JSONObject]:
        return events_to_json(events)

    def outcome(self, state: MatchState) -> Outcome | None:
        if state.winner < 0:
            return None
        # the final score, ties to the earlier nation in player order (as the winner is chosen)
        order = state.order
        ranked = sorted(range(state.players), key=lambda p: (-state.scores[p], order.index(p)))
        points = tuple((seat_of(p), state.scores[p]) for p in range(state.players))
        places = tuple((seat_of(p),) for p in ranked)
        return Outcome((seat_of(state.winner),), "score", places, points)

    def version(self, state: MatchState) -> int:
        return state.version

    def round_of(self, state: MatchState) -> int:
        return state.round

    def observation_for(self, state: MatchState, seat: Seat) -> MatchState:
        player_of(seat)
        return _observation_for(state)

    def state_to_json(self, state: MatchState) -> JSONObject:
        return state_to_json(state)

    def state_from_json(self, data: JSONObject) -> MatchState:
        version = data.get("rules_version")
        return state_from_json(data, self.edition(version if isinstance(version, str) else None))

    def admin_view(self, state: MatchState) -> JSONObject:
        return views.admin_view(state)

    def open_view(self, state: MatchState) -> JSONObject:
        return views.open_view(state)

    def describe(self, state: MatchState) -> str:
        return _describe(state)

    def make_bot(
        self, name: str, seed: int, budget_ms: int, clock: Callable[[], float] | None
    ) -> Bot[MatchState, Action]:
        if name == "heuristic":
            return cast(Bot[MatchState, Action], HeuristicBot(seed))
        if name == "random":
            return cast(Bot[MatchState, Action], RandomBot(seed))
        if name == "search":
            return cast(Bot[MatchState, Action], SearchBot(seed, budget_ms, clock))
        if name in LEVELS:
            return cast(Bot[MatchState, Action], level_bot(name, seed, budget_ms, clock))
        raise KeyError(f"unknown Nations bot {name!r}")

    def analyse(
        self, seed: int, rules_version: str, actions: Sequence[tuple[int, Seat, object]]
    ) -> list[Judged]:
        """Post-game analysis (core.game.Analysable; bots/analysis.py), of a match of this
        game object's seat count and levels."""
        start = self.start(seed, rules_version).state
        typed = [(seq, player_of(seat), self.parse_action(a)) for seq, seat, a in actions]
        return [
            Judged(seq, seat_of(player), j.before, j.after, self.action_to_json(j.best))
            for seq, player, j in analysis.analyse(start, typed, seed)
        ]

    def analysis_lead(self, state: MatchState, seat: Seat, action: Action, seed: int) -> float:
        """core.game.Calibrating: the raw figure the analysis's chance is fitted to."""
        return analysis.lead(state, player_of(seat), action, seed)

    def analysis_scale(self, players: int) -> tuple[float, float]:
        return analysis.fitted(players)

    def analysis_chance(self, lead: float, scale: float, offset: float) -> float:
        return analysis.chance(lead, scale, offset)

    @cached_property
    def _lessons(self) -> Mapping[str, Lesson]:
        return lessons_from_json(read_data("lessons"))

    def lessons(self) -> Mapping[str, Lesson]:
        """The tutorial lessons (core.lessons.Teachable), from data/lessons.json: each is a
        two-player match at the default levels, so only such a game object offers them."""
        default = all(level == self.ruleset.default_level for level in self.levels)
        return self._lessons if len(self.seats) == 2 and default else {}

    def metadata(self) -> JSONObject:
        """The components as written (every card of every age is public: NR1), the rules table,
        side A, the difficulty levels and the translations."""
        docs = self.ruleset.documents
        return {
            "game": self.id,
            "seats": list(self.seats),
            "player_counts": list(self.player_counts),
            "columns": self.ruleset.columns[len(self.seats)],
            **{name.replace("/", "_").replace("-", "_"): docs[name] for name in sorted(docs)},
        }
