"""The match state: the table (cards, track, board, bag) and the flow (work stack, decision, chain).

`MatchState` is mutable inside the engine only: `apply` clones it first. What changes at nearly
every step is held in lists and dicts of immutable values, which `clone` copies once each; what
changes a few times a round is held in tuples and read-only mappings, which `clone` shares and a
change replaces. So the caller's state is never touched; the Ruleset (`rules`) is shared too, as
the components never change during a match.
Nested records are NamedTuples (immutable, comparable, cheap to build).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, NamedTuple, TypeVar

from .actions import Action
from .catalog import ROLES, Role
from .ruleset import Ruleset

JSON = str | int | bool | None | list["JSON"] | dict[str, "JSON"]
T = TypeVar("T")


class Token(NamedTuple):
    """An evidence token on the research track (or held by a player about to pin it)."""

    handle: int  # neutral number naming the physical token while it is in play
    id: str  # data id (colours); never shown to a seat that may not see the token
    pos: int  # -5..+5, Editor positive (R9); 0 while held
    up: bool  # face up
    peeked: bool  # the Editor has looked at this face-down token (peek_track)


class BoardToken(NamedTuple):
    """An evidence token pinned to an evidence space."""

    handle: int
    id: str
    up: bool


class Ann(NamedTuple):
    """An announced play that the opponent may react to (R17): one link of the reaction chain."""

    role: Role
    card: str
    mode: str  # "action" | "value" | "replay" (a card The system works uses again: R32)
    kind: str  # event_action | conspirator_action | journalist_action | value_evidence_move | ...
    target: int  # index in the chain of the announcement this reaction cancels, or -1
    handle: int  # value_evidence_move: the token to move; else -1
    cancelled: bool


# ---- work items on the stack (the engine's continuation) -------------------------------------


class StartRound(NamedTuple):
    """Initial phase of a new round (draw cards, Nixon draws 3 evidence tokens: R1)."""


class Turn(NamedTuple):
    """Give the next player with cards a turn; start evaluation when both hands are empty (R6)."""


class TurnEnd(NamedTuple):
    role: Role


class Resolve(NamedTuple):
    """Carry out (or skip, if cancelled) announcement `ann` of the chain."""

    ann: int


class Window(NamedTuple):
    """Open the reaction window on announcement `ann` if the reaction is publicly possible (R18)."""

    ann: int


class Dispose(NamedTuple):
    """Put a card whose action was used where it belongs (R15, R20)."""

    ann: int


class DiscardPlayed(NamedTuple):
    """Discard a card whose value part was used."""

    role: Role
    card: str


class Move(NamedTuple):
    """Move a track token `steps` towards `toward` (R9); what: initiative | momentum | evidence."""

    what: str
    handle: int
    steps: int
    toward: Role
    by: Role  # whose card or pin caused the move (for the log)


class MomentumGain(NamedTuple):
    role: Role


class PinHolding(NamedTuple):
    """Let `role` pin the evidence tokens it holds, one decision each (R23)."""

    role: Role


class EvalStep(NamedTuple):
    """Evaluation phase step 1..5."""

    step: int


class PinSide(NamedTuple):
    """Evaluation step 5 for one player: gain the tokens on their side and pin them (R25)."""

    role: Role


class OpTask(NamedTuple):
    """Run effect number `at` of effect source `source` (a card id or M<k>) for `role`.

    remaining: how many more items this op still has to handle (-1 before it starts);
    excluded: handles already chosen by this op (a count-op moves different tokens).
    """

    role: Role
    source: str
    at: int
    remaining: int
    excluded: tuple[int, ...]


Task = (
    StartRound
    | Turn
    | TurnEnd
    | Resolve
    | Window
    | Dispose
    | DiscardPlayed
    | Move
    | MomentumGain
    | PinHolding
    | EvalStep
    | PinSide
    | OpTask
)


# ---- decisions: what the one deciding seat must choose now -------------------------------------


class PlayD(NamedTuple):
    """Play a card: from the hand on a turn, or the drawn top card (R19)."""

    role: Role
    card: str  # "" = any card from the hand; else the one drawn card that must be played
    turn: int  # which turn of this round the play belongs to (R21)


class ReactD(NamedTuple):
    """A reaction window on announcement `ann`: react with a card or pass (R17, R18)."""

    role: Role
    ann: int


class FaceDownD(NamedTuple):
    """Nixon chooses which face-down token of `color` the Editor's value moves (R11)."""

    role: Role
    card: str
    color: str
    steps: int


class FallbackD(NamedTuple):
    """No face-down token had the colour: the Editor moves something else (R11)."""

    role: Role
    card: str
    color: str  # the named colour, or "joker" for any colour
    steps: int


class TargetD(NamedTuple):
    """Choose the evidence token an effect moves or returns."""

    role: Role
    task: OpTask
    # R29: the Editor asked for the instruction's colour and Nixon had none face down, so only
    # face-up tokens of that colour remain to choose from.
    asked: bool = False


class AskedD(NamedTuple):
    """Nixon chooses the face-down token of `color` an Editor's instruction applies to (R29)."""

    role: Role
    task: OpTask
    color: str


class SpaceD(NamedTuple):
    """Choose a board space for a flip or removal effect."""

    role: Role
    task: OpTask


class PictureD(NamedTuple):
    """Choose a picture tile for pin_picture(any) or flip_picture."""

    role: Role
    task: OpTask


class CardD(NamedTuple):
    """The system works: choose a removed card to use again (R22)."""

    role: Role
    task: OpTask


class PinD(NamedTuple):
    """Pin one held evidence token to an empty space of its colour (R23, R25)."""

    role: Role


class GambitD(NamedTuple):
    """Gambit's alternative: remove a conspirator from the hand to discard Gambit (R20)."""

    role: Role
    ann: int


Decision = (
    PlayD
    | ReactD
    | FaceDownD
    | FallbackD
    | TargetD
    | AskedD
    | SpaceD
    | PictureD
    | CardD
    | PinD
    | GambitD
)


# ---- shared records ---------------------------------------------------------------------------
# A NamedTuple's constructor is Python code (about half a microsecond), and a random game builds
# about a thousand records; the work items and decisions queued most often take few values, so
# each of those is built once here and shared (they are immutable values, compared by ==).

TURN: Final = Turn()
TURN_END: Final = {r: TurnEnd(r) for r in ROLES}
PIN_HOLDING: Final = {r: PinHolding(r) for r in ROLES}
PIN_SIDE: Final = {r: PinSide(r) for r in ROLES}
PIN_D: Final = {r: PinD(r) for r in ROLES}
MOMENTUM_GAIN: Final = {r: MomentumGain(r) for r in ROLES}
EVAL_STEPS: Final = {k: EvalStep(k) for k in range(1, 6)}
_SHARED: Final = 32  # chain links and turns below this are shared (a turn's chain is short)
RESOLVES: Final = tuple(Resolve(i) for i in range(_SHARED))
WINDOWS: Final = tuple(Window(i) for i in range(_SHARED))
DISPOSES: Final = tuple(Dispose(i) for i in range(_SHARED))
_TURN_PLAYS: Final = {r: tuple(PlayD(r, "", t) for t in range(_SHARED)) for r in ROLES}


def turn_play(role: Role, turn: int) -> PlayD:
    """`PlayD(role, "", turn)`: the decision of a turn's card play (shared for early turns)."""
    return _TURN_PLAYS[role][turn] if turn < _SHARED else PlayD(role, "", turn)


# The fields that make up a match (equality, JSON), in the order its JSON lists them: all but the
# legal-action cache and the shared components. Written out (not read back from `__slots__`) so
# the optional compiled build (mypyc: `make mypyc`) takes the class as it is.
STATE_FIELDS: Final = (
    "bag",
    "board",
    "chain",
    "decision",
    "decks",
    "discards",
    "hands",
    "holding",
    "in_play",
    "initiative",
    "momentum",
    "momentum_removed",
    "momentum_supply",
    "next_handle",
    "pictures",
    "removed",
    "restrictions",
    "rng",
    "round",
    "seed",
    "stack",
    "track",
    "track_initiative",
    "track_momentum",
    "turn",
    "turns",
    "version",
    "win_reason",
    "winner",
)
# The fields held as tuples, and as read-only mappings of tuples by role (see MatchState).
TUPLE_FIELDS: Final = ("bag", "board", "pictures", "removed", "restrictions")
TUPLES_BY_ROLE_FIELDS: Final = ("decks", "discards", "holding")


class MatchState:
    """All of one match. Compare with ==, copy with clone(); never mutate a returned state."""

    __slots__ = ("_legal", "rules", *STATE_FIELDS)

    seed: int
    rng: int
    version: int
    round: int
    initiative: Role  # who holds the initiative card (the arrows point to them)
    turn: Role
    # What changes at most a few times a round is immutable (tuples, read-only mappings), so
    # `clone` shares it instead of copying it at every step; a change builds a new value (the
    # types make mypy reject an edit in place). What changes at nearly every step is a list.
    turns: Mapping[Role, int]  # turns started this round
    # this round's restrictions on the Editor (R21, Executive privilege)
    restrictions: tuple[str, ...]
    hands: dict[Role, list[str]]
    decks: Mapping[Role, tuple[str, ...]]  # top of the deck is the LAST element
    discards: Mapping[Role, tuple[str, ...]]  # top of the pile is the LAST element
    removed: tuple[str, ...]  # removed from the game (public), in order
    in_play: list[str]  # announced cards not yet put away
    bag: tuple[str, ...]
    track_initiative: int | None
    track_momentum: int | None
    track: list[Token]
    holding: Mapping[Role, tuple[Token, ...]]
    board: tuple[BoardToken | None, ...]  # indexed like catalog.SPACES
    pictures: tuple[str | None, ...]  # indexed like catalog.PEOPLE: None (supply) | "up" | "down"
    momentum: Mapping[Role, int]  # tokens on each momentum card
    momentum_supply: int
    momentum_removed: int
    next_handle: int
    stack: list[Task]  # last element runs next
    chain: list[Ann]  # this turn's announcements (R17)
    decision: Decision | None
    winner: Role | None
    win_reason: str | None
    _legal: tuple[Role, Sequence[Action]] | None  # cache of legal_actions for the deciding seat
    # The components this match is played with: shared by reference, never copied, not part of
    # equality or the JSON (the game object that made the state supplies it again on load).
    rules: Ruleset

    def clone(self) -> MatchState:
        """A copy that shares only immutable values with self: the lists and dicts are copied."""
        c = MatchState.__new__(MatchState)
        c.rules = self.rules
        c.seed = self.seed
        c.rng = self.rng
        c.version = self.version
        c.round = self.round
        c.initiative = self.initiative
        c.turn = self.turn
        c.turns = self.turns
        c.restrictions = self.restrictions
        h = self.hands
        c.hands = {"editor": h["editor"][:], "nixon": h["nixon"][:]}
        c.decks = self.decks
        c.discards = self.discards
        c.holding = self.holding
        c.removed = self.removed
        c.in_play = self.in_play[:]
        c.bag = self.bag
        c.track_initiative = self.track_initiative
        c.track_momentum = self.track_momentum
        c.track = self.track[:]
        c.board = self.board
        c.pictures = self.pictures
        c.momentum = self.momentum
        c.momentum_supply = self.momentum_supply
        c.momentum_removed = self.momentum_removed
        c.next_handle = self.next_handle
        c.stack = self.stack[:]
        c.chain = self.chain[:]
        c.decision = self.decision
        c.winner = self.winner
        c.win_reason = self.win_reason
        c._legal = None
        return c

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MatchState):
            return NotImplemented
        return self.rules.version == other.rules.version and all(
            getattr(self, name) == getattr(other, name) for name in STATE_FIELDS
        )

    __hash__ = None  # type: ignore[assignment]  # mutable inside the engine

    def __repr__(self) -> str:
        return f"<MatchState round={self.round} version={self.version} decision={self.decision}>"


def replaced(mapping: Mapping[Role, T], role: Role, value: T) -> dict[Role, T]:
    """A new mapping with `role`'s entry replaced (the state's own is shared: never edited)."""
    new = dict(mapping)
    new[role] = value
    return new


def set_at(items: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """A new tuple with item i replaced."""
    return (*items[:i], value, *items[i + 1 :])


def without(items: tuple[T, ...], item: T) -> tuple[T, ...]:
    """A new tuple without the first item equal to `item` (which must be there)."""
    i = items.index(item)
    return items[:i] + items[i + 1 :]


def discard(s: MatchState, role: Role, card: str) -> None:
    """Put `card` on top of `role`'s discard pile."""
    s.discards = replaced(s.discards, role, (*s.discards[role], card))


def token_by_handle(tokens: list[Token], handle: int) -> int:
    """Index of the token with this handle in a list, or -1."""
    for i, t in enumerate(tokens):
        if t.handle == handle:
            return i
    return -1
