"""The Game protocol: the one surface through which the app, bots harness, benchmarks and admin
console reach a game's rules (OpenSpiel's Game/State/Observer split, boardgame.io's moves).

A game is a set of pure functions over an opaque state. Seats are data (`game.seats`), never
database columns; a game that takes several player counts says which (`player_counts`) and gives
an object per count (`with_players`), whose `seats` and `start` follow it. `apply` never mutates
its input. Views and event projections are the only way hidden information reaches a seat (`None`
is a spectator); `admin_view` and `open_view` show all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, NamedTuple, Protocol, TypeVar, runtime_checkable

JSON = str | int | float | bool | None | list["JSON"] | dict[str, "JSON"]
JSONObject = dict[str, JSON]
Seat = str  # a seat name from `Game.seats`, e.g. "editor", "nixon", "p1"
Viewer = Seat | None  # a seat, or None for a spectator

S = TypeVar("S")  # the game's state type, opaque to the app
A = TypeVar("A")  # the game's action type
E = TypeVar("E")  # the game's event type
S_contra = TypeVar("S_contra", contravariant=True)


class Step(NamedTuple, Generic[S, E]):
    """What `apply` (and `start`) returns: the new state and what happened, in order."""

    state: S
    events: tuple[E, ...]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished match ended by the rules: who won and why (a stable snake_case reason),
    and every seat's place: `ranking` lists groups of seats, best first, a tie in one group.
    A game that leaves it empty ranks its winners first and every other seat second."""

    winners: tuple[Seat, ...]
    reason: str
    ranking: tuple[tuple[Seat, ...], ...] = ()
    # each seat's final score where the game keeps one (Nations' victory points): a table
    # round's tie-break (issue 46); empty for a game without one
    # (kept out of the repr: the golden playthroughs print outcomes as they always read)
    points: tuple[tuple[Seat, int], ...] = field(default=(), repr=False)

    def places(self, seats: Sequence[Seat]) -> tuple[tuple[Seat, ...], ...]:
        """The finishing order of `seats` (the match's): the game's own ranking, or its winners
        ahead of everyone else."""
        if self.ranking:
            return self.ranking
        losers = tuple(s for s in seats if s not in self.winners)
        return tuple(group for group in (self.winners, losers) if group)


class Bot(Protocol[S_contra, A]):
    """A computer player: handed only its seat's observation and legal actions, picks one."""

    def decide(self, observation: S_contra, seat: Seat, legal: Sequence[A]) -> A: ...


class Game(Protocol[S, A, E]):
    """Everything the platform needs from a game. `id` names it in the registry and the database."""

    @property
    def id(self) -> str: ...

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seats of a match this game object starts (its player count)."""
        ...

    @property
    def player_counts(self) -> tuple[int, ...]:
        """Every number of seats a match of this game may have."""
        ...

    def with_players(self, players: int) -> Game[S, A, E]:
        """The same game for matches of `players` seats (its `seats` and `start` follow);
        ValueError for a count not in `player_counts`. Every other method reads the count from
        the state, so any of a game's objects serves a match once it is started."""
        ...

    @property
    def rules_version(self) -> str:
        """The rules version new matches are made with (stored with each match)."""
        ...

    @property
    def bot_names(self) -> tuple[str, ...]:
        """The computer players this game offers, strongest first."""
        ...

    def deal_algorithm(self, rules_version: str) -> str:
        """The name and version of the generator that deals matches of this rules version (a
        match's published fairness algorithm); ValueError for an unknown rules version."""
        ...

    def start(self, seed: int, rules_version: str | None = None) -> Step[S, E]:
        """Set up a match from a seed (deterministically) up to the first decision."""
        ...

    def to_move(self, state: S) -> tuple[Seat, ...]:
        """The seats that must decide now; empty when the match is over."""
        ...

    def legal_actions(self, state: S, seat: Seat) -> Sequence[A]:
        """Every action `seat` may take now, computed only from what it may see."""
        ...

    def apply(self, state: S, seat: Seat, action: object) -> Step[S, E]:
        """Apply an action (an object from `legal_actions`, or its JSON) or raise an EngineError:
        match over, then not your decision, then malformed, then illegal."""
        ...

    def parse_action(self, obj: object) -> A:
        """An action from its JSON, or MalformedAction."""
        ...

    def action_to_json(self, action: A) -> JSONObject: ...

    def view_for(self, state: S, viewer: Viewer) -> JSONObject: ...

    def events_for(self, events: Sequence[E], viewer: Viewer) -> list[JSONObject]:
        """The log entries `viewer` may read, in order (each event type says what it shows)."""
        ...

    def events_to_json(self, events: Sequence[E]) -> list[JSONObject]:
        """Every field of every event, nothing hidden: the admin console's log only."""
        ...

    def outcome(self, state: S) -> Outcome | None:
        """None while the match goes on."""
        ...

    def version(self, state: S) -> int:
        """The number of actions applied since the start."""
        ...

    def round_of(self, state: S) -> int:
        """The round shown in match lists (a game without rounds says 1)."""
        ...

    def observation_for(self, state: S, seat: Seat) -> S:
        """The seat's information set as a state: equal for states it cannot tell apart."""
        ...

    def state_to_json(self, state: S) -> JSONObject: ...

    def state_from_json(self, data: JSONObject) -> S: ...

    def admin_view(self, state: S) -> JSONObject:
        """The whole state (every secret): the admin console only."""
        ...

    def open_view(self, state: S) -> JSONObject:
        """A view shape with everything face up: the admin console's table and finished replays."""
        ...

    def describe(self, state: S) -> str:
        """A compact, stable text rendering for goldens, asserts and fingerprints."""
        ...

    def make_bot(
        self, name: str, seed: int, budget_ms: int, clock: Callable[[], float] | None
    ) -> Bot[S, A]:
        """A computer player by name (one of `bot_names`); KeyError for an unknown name."""
        ...

    def metadata(self) -> JSONObject:
        """Static, public component data for clients (board map, card list, track sizes)."""
        ...


def replay(
    game: Game[S, A, E],
    seed: int,
    actions: Iterable[tuple[Seat, object]],
    rules_version: str | None = None,
) -> S:
    """Rebuild a match from its seed and its ordered (seat, action) list."""
    state = game.start(seed, rules_version).state
    for seat, action in actions:
        state = game.apply(state, seat, action).state
    return state


class Judged(NamedTuple):
    """One decision of a finished match, judged (post-game analysis): its mover's estimated
    chance to win when playing `best` (`before`) and with the action it played (`after`)."""

    seq: int
    seat: Seat
    before: float
    after: float
    best: JSONObject  # the action the strongest bot prefers, as JSON


@runtime_checkable
class Analysable(Protocol):
    """A game whose finished matches can be analysed (Watergate); the app asks through this."""

    def analyse(
        self, seed: int, rules_version: str, actions: Sequence[tuple[int, Seat, object]]
    ) -> list[Judged]:
        """Every real decision of the match replayed from `seed` and its (seq, seat, action
        JSON) list, each judged from its mover's observation only."""
        ...


@runtime_checkable
class Calibrating(Protocol):
    """A game whose analysis turns an evaluation into a chance to win by a logistic fitted per
    seat count (Nations); `python -m bench.analysis --fit` fits it through this."""

    def analysis_lead(self, state: Any, seat: Seat, action: Any, seed: int) -> float:
        """The evaluation of `action` for `seat` on one determinisation of what it cannot see."""
        ...

    def analysis_scale(self, players: int) -> tuple[float, float]:
        """The (scale, offset) in use at a table of `players`."""
        ...

    def analysis_chance(self, lead: float, scale: float, offset: float) -> float:
        """An evaluation as a chance to win, by that scale and offset."""
        ...


@runtime_checkable
class Hinting(Protocol):
    """A game that can tell a seat why moves it may expect are not offered (hints for learners);
    the app decides which views carry them (never a rated match's)."""

    def hints_for(self, state: Any, seat: Seat) -> JSONObject:
        """The seat's hints, from what the seat may see only (its observation gives the same)."""
        ...


@runtime_checkable
class Imitating(Protocol):
    """A game whose search bots draw play-out moves from a prior learned from a teacher's picks
    (Watergate); bench.prior records the picks by each move's signature through this."""

    def move_signature(self, state: Any, seat: Seat, action: Any) -> str:
        """What the prior tells the move apart by, from public facts of the move only."""
        ...


@runtime_checkable
class Forcing(Protocol):
    """A game that says when the seat to move has one choice only and that fact is public
    (Watergate): the platform then takes it at once, in the transaction of the change that
    offered it, as the seat's action, with the game's log line saying so. A count that depends
    on what another seat cannot see is never forced: an instant answer would tell."""

    def forced(self, state: Any) -> tuple[Seat, Any] | None:
        """The seat to move and its only legal action, or None (a real or a hidden choice)."""
        ...

    def only_choice(self, seat: Seat) -> Any:
        """The log event put before that action ("the only choice")."""
        ...
