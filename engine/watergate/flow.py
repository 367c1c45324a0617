"""The public engine: set-up, the round/turn sequence, the work-stack interpreter, `legal_actions`,
`apply` and `replay`.

The state carries a stack of work items; `_run` pops and runs them until a seat must decide or the
match is over. An action resolves the pending decision, which queues more work, and so on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

from ..core.actions import find_offered
from ..core.errors import IllegalAction, MatchOver, NotYourDecision
from ..core.game import Step
from ..core.rng import initial_state, shuffle
from .actions import ACTION_TYPES, Action, PlayAction, PlayValue, React, parse_action
from .catalog import Role, other
from .choosing import op_choices
from .disposal import gambit_choices, resolve_gambit, run_discard_played, run_dispose
from .effects import asked_choices, resolve_asked, resolve_op_choice, run_op
from .evaluation import (
    pin_choices,
    resolve_pin,
    run_eval_step,
    run_pin_holding,
    run_pin_side,
    start_evaluation,
)
from .events import CardsDrawn, Event, MatchStarted, RoundStarted, TokensPlaced
from .events.interned import shared
from .plays import (
    face_down_choices,
    fallback_choices,
    play_choices,
    resolve_face_down,
    resolve_fallback,
    resolve_play,
)
from .reactions import react_choices, resolve_react, run_resolve, run_window
from .ruleset import Ruleset
from .state import (
    TURN,
    AskedD,
    CardD,
    Decision,
    DiscardPlayed,
    Dispose,
    EvalStep,
    FaceDownD,
    FallbackD,
    GambitD,
    MatchState,
    MomentumGain,
    Move,
    OpTask,
    PictureD,
    PinD,
    PinHolding,
    PinSide,
    PlayD,
    ReactD,
    Resolve,
    SpaceD,
    StartRound,
    TargetD,
    Task,
    Token,
    Turn,
    TurnEnd,
    Window,
    turn_play,
)
from .track import draw_cards, draw_from_bag, new_handle, run_momentum_gain, run_move, token_payload

# What `apply` returns: the new state and what happened, in order (past tense). The platform's
# own Step, so the protocol adapter hands it on without re-wrapping.
WatergateStep = Step[MatchState, Event]


# ---- round and turn sequencing -----------------------------------------------------------------


def _start_round(s: MatchState, t: StartRound, ev: list[Event]) -> None:
    """Initial phase: draw 5 (initiative) or 4 cards (R5, R7); Nixon puts 3 tokens on 0 (R1)."""
    s.round += 1
    s.turns = {"editor": 0, "nixon": 0}
    s.restrictions = ()
    ev.append(shared(RoundStarted, s.round, s.initiative))
    for role in ("editor", "nixon"):
        drawn = draw_cards(s, role, 5 if role == s.initiative else 4, ev)
        s.hands[role].extend(drawn)
        ev.append(CardsDrawn(role, len(drawn), tuple(drawn)))
    placed = []
    for _ in range(min(3, len(s.bag))):
        token = Token(new_handle(s), draw_from_bag(s), 0, False, False)
        s.track.append(token)
        placed.append(token_payload(s, token))
    ev.append(TokensPlaced("nixon", tuple(placed)))
    s.turn = s.initiative
    s.stack.append(TURN)


def _turn(s: MatchState, t: Turn, ev: list[Event]) -> None:
    """R6: alternate; a player without cards is skipped; both empty starts the evaluation."""
    s.chain.clear()
    role = s.turn
    if not s.hands[role]:
        role = other(role)
        if not s.hands[role]:
            start_evaluation(s, ev)
            return
        s.turn = role  # R6: the player without cards is skipped
    s.decision = turn_play(role, s.turns[role] + 1)


def _turn_end(s: MatchState, t: TurnEnd, ev: list[Event]) -> None:
    s.turn = other(t.role)
    _turn(s, TURN, ev)


_TASKS: Final[dict[type, Callable[[MatchState, Any, list[Event]], None]]] = {
    StartRound: _start_round,
    Turn: _turn,
    TurnEnd: _turn_end,
    Resolve: run_resolve,
    Window: run_window,
    Dispose: run_dispose,
    DiscardPlayed: run_discard_played,
    Move: run_move,
    MomentumGain: run_momentum_gain,
    PinHolding: run_pin_holding,
    EvalStep: run_eval_step,
    PinSide: run_pin_side,
    OpTask: run_op,
}

_CHOICES: Final[dict[type, Callable[[MatchState, Any], Sequence[Action]]]] = {
    PlayD: play_choices,
    ReactD: react_choices,
    FaceDownD: face_down_choices,
    FallbackD: fallback_choices,
    TargetD: op_choices,
    AskedD: asked_choices,
    SpaceD: op_choices,
    PictureD: op_choices,
    CardD: op_choices,
    PinD: pin_choices,
    GambitD: gambit_choices,
}

# Each resolver takes the action types its decision offers (legality guarantees them).
_RESOLVERS: Final[dict[type, Callable[[MatchState, Any, Any, list[Event]], None]]] = {
    PlayD: resolve_play,
    ReactD: resolve_react,
    FaceDownD: resolve_face_down,
    FallbackD: resolve_fallback,
    TargetD: resolve_op_choice,
    AskedD: resolve_asked,
    SpaceD: resolve_op_choice,
    PictureD: resolve_op_choice,
    CardD: resolve_op_choice,
    PinD: resolve_pin,
    GambitD: resolve_gambit,
}


def _run(s: MatchState, ev: list[Event]) -> None:
    """Run queued work until a seat must decide or the match is over."""
    stack, tasks = s.stack, _TASKS
    while s.decision is None and s.winner is None:
        task: Task = stack.pop()
        tasks[type(task)](s, task, ev)


# ---- public surface ----------------------------------------------------------------------------


def start(seed: int, rules: Ruleset) -> WatergateStep:
    """Set up a match from a seed (R5: the Editor starts with initiative) to the first decision,
    played with the components and under the rules version of `rules`; its shuffles and draws
    come from that version's generator."""
    s = MatchState.__new__(MatchState)
    s.rules = rules
    s.seed = seed
    s.rng = initial_state(rules.version.generator, seed)
    s.version = 0
    s.round = 0
    s.initiative = "editor"
    s.turn = "editor"
    s.turns = {"editor": 0, "nixon": 0}
    s.restrictions = ()
    editor, nixon = list(rules.card_ids["editor"]), list(rules.card_ids["nixon"])
    s.rng = shuffle(s.rng, editor)
    s.rng = shuffle(s.rng, nixon)
    s.decks = {"editor": tuple(editor), "nixon": tuple(nixon)}
    s.hands = {"editor": [], "nixon": []}
    s.discards = {"editor": (), "nixon": ()}
    s.removed = ()
    s.in_play = []
    s.bag = tuple(rules.bag_token_ids)
    s.track_initiative = 0
    s.track_momentum = 0
    s.track = []
    s.holding = {"editor": (), "nixon": ()}
    s.board = (None,) * len(rules.spaces)
    s.pictures = (None,) * len(rules.people)
    s.momentum = {"editor": 0, "nixon": 0}
    s.momentum_supply = rules.momentum_tokens - 1
    s.momentum_removed = 0
    s.next_handle = 0
    s.stack = [StartRound()]
    s.chain = []
    s.decision = None
    s.winner = None
    s.win_reason = None
    s._legal = None
    ev: list[Event] = [MatchStarted()]
    _run(s, ev)
    return Step(s, tuple(ev))


def new_match(seed: int, rules: Ruleset) -> MatchState:
    """The state of a new match for this seed, waiting for the Editor's first play."""
    return start(seed, rules).state


def awaiting(s: MatchState) -> Decision | None:
    """The pending decision (its `role` is the one seat that decides now), or None when over."""
    return None if s.winner is not None else s.decision


def current_role(s: MatchState) -> Role | None:
    d = awaiting(s)
    return d.role if d is not None else None


def legal_actions(s: MatchState, role: Role) -> Sequence[Action]:
    """Every action `role` may take now (empty when the decision is the other seat's or it is over).

    Computed only from what `role` can see (R16, R18). Do not mutate the returned list.
    """
    d = s.decision
    if d is None or s.winner is not None or d.role != role:
        return []
    cached = s._legal
    if cached is not None:
        return cached[1]
    actions = _CHOICES[type(d)](s, d)
    s._legal = (role, actions)
    return actions


def apply(s: MatchState, role: Role, action: object) -> WatergateStep:
    """Apply one action of `role`; return the new state and events. Never mutates `s`.

    Raises MatchOver, NotYourDecision, MalformedAction or IllegalAction, in that order of checks.
    """
    if s.winner is not None:
        raise MatchOver("The match is over.")
    d = s.decision
    if d is None or d.role != role:
        raise NotYourDecision("It is not your decision now.")
    cached = s._legal
    legal = cached[1] if cached is not None else legal_actions(s, role)
    # The fast path of `find_offered`, inline: a bot in-process hands back the very object offered.
    for offered in legal:
        if offered is action:
            act = offered
            break
    else:
        act, is_legal = find_offered(legal, action, parse_action, ACTION_TYPES)
        if not is_legal:
            raise IllegalAction(_illegal_reason(s, role, act))
    n = s.clone()
    ev: list[Event] = []
    _decide(n, d, act, ev)
    # `Step(n, tuple(ev))` without the NamedTuple's constructor, which is Python code: one Step
    # a decision cost about 1.5% of a compiled random game (make mypyc; callgrind)
    step: WatergateStep = tuple.__new__(Step, (n, tuple(ev)))
    return step


def _decide(n: MatchState, d: Decision, act: Action, ev: list[Event]) -> None:
    """Resolve the pending decision `d` of `n` with `act`, in `n` itself, and run on."""
    n.decision = None
    n._legal = None
    _RESOLVERS[type(d)](n, d, act, ev)
    n.version += 1
    _run(n, ev)


def advance(s: MatchState, action: Action) -> None:
    """Play `action`, one of `legal_actions` of the seat to move, in `s` itself, dropping the
    events: for a state no one else holds, such as a search's sample, which `apply` would copy at
    every step (a copy and its freeing cost about an eighth of a compiled search). Unchecked:
    an action not offered is a caller's bug, not a player's error."""
    d = s.decision
    assert d is not None and s.winner is None, "advance: the match is not waiting for anyone"
    _decide(s, d, action, [])


def _illegal_reason(s: MatchState, role: Role, action: Action) -> str:
    """Why an action is refused, told only from the acting seat's own knowledge."""
    drawn = s.decision.card if isinstance(s.decision, PlayD) else ""
    match action:
        case PlayValue(card) | PlayAction(card) | React(card):
            if card not in s.hands[role] and card != drawn:
                return "That card is not in your hand."
        case _:
            pass
    return "That action is not one of your legal actions now; choose one of those offered."


def replay(seed: int, rules: Ruleset, actions: Iterable[tuple[Role, object]]) -> MatchState:
    """Rebuild a match from its seed and its ordered (role, action) list."""
    s = new_match(seed, rules)
    for role, action in actions:
        s = apply(s, role, action).state
    return s


def replay_events(
    seed: int, rules: Ruleset, actions: Iterable[tuple[Role, object]]
) -> tuple[MatchState, list[Event]]:
    """Like replay, also returning every event in order (the full game log)."""
    step = start(seed, rules)
    s, log = step.state, list(step.events)
    for role, action in actions:
        step = apply(s, role, action)
        s = step.state
        log.extend(step.events)
    return s, log
