"""The evaluation phase (five steps in order: R3, R4, R25) and pinning held evidence (R23)."""

from __future__ import annotations

from .actions import Pin, offer
from .board import open_spaces, pin_token
from .catalog import Role, other
from .events import (
    EvaluationStarted,
    Event,
    EvidenceGained,
    MomentumGained,
    MomentumReturned,
    TokenReturnedToBag,
    TokensReset,
)
from .events.interned import shared
from .state import (
    EVAL_STEPS,
    MOMENTUM_GAIN,
    PIN_D,
    PIN_HOLDING,
    PIN_SIDE,
    EvalStep,
    MatchState,
    PinD,
    PinHolding,
    PinSide,
    StartRound,
    Token,
    replaced,
    without,
)
from .track import gain_initiative, token_payload, win


def start_evaluation(s: MatchState, ev: list[Event]) -> None:
    ev.append(shared(EvaluationStarted, s.round))
    for step in (5, 4, 3, 2, 1):
        s.stack.append(EVAL_STEPS[step])


def run_eval_step(s: MatchState, t: EvalStep, ev: list[Event]) -> None:
    step = t.step
    if step == 1:  # neutral tokens go back to the bag
        for token in [tok for tok in s.track if tok.pos == 0]:
            s.track.remove(token)
            s.bag += (token.id,)
            ev.append(TokenReturnedToBag(None, token_payload(s, token), token.peeked, "neutral"))
    elif step == 2:  # this round's initiative token
        pos = s.track_initiative
        if pos is not None:
            gain_initiative(
                s, "editor" if pos > 0 else "nixon" if pos < 0 else other(s.initiative), ev
            )
    elif step == 3:  # this round's momentum token
        pos = s.track_momentum
        if pos is not None:
            s.track_momentum = None
            if pos == 0:  # R3: back to the supply
                s.momentum_supply += 1
                ev.append(MomentumReturned())
            else:
                gainer: Role = "editor" if pos > 0 else "nixon"
                ev.append(shared(MomentumGained, gainer))
                s.stack.append(MOMENTUM_GAIN[gainer])
    elif step == 4:  # new initiative and momentum tokens on space 0
        if s.momentum_supply == 0:
            win(s, "nixon", "empty_supply", ev)  # R4, R27
            return
        s.momentum_supply -= 1
        s.track_initiative = 0
        s.track_momentum = 0
        ev.append(shared(TokensReset))
    else:  # R25: the player with initiative pins first, then the other; then a new round
        s.stack.append(StartRound())
        s.stack.append(PIN_SIDE[other(s.initiative)])
        s.stack.append(PIN_SIDE[s.initiative])


def run_pin_side(s: MatchState, t: PinSide, ev: list[Event]) -> None:
    """Step 5 for one player: gain every evidence token on their side, then pin them."""
    sign = 1 if t.role == "editor" else -1
    gained = [tok for tok in s.track if tok.pos * sign > 0]
    if not gained:
        return
    for token in gained:
        s.track.remove(token)
    held = (Token(tok.handle, tok.id, 0, tok.up, tok.peeked) for tok in gained)
    s.holding = replaced(s.holding, t.role, (*s.holding[t.role], *held))
    ev.append(EvidenceGained(t.role, tuple(token_payload(s, tok) for tok in gained)))
    s.stack.append(PIN_HOLDING[t.role])


def run_pin_holding(s: MatchState, t: PinHolding, ev: list[Event]) -> None:
    """Ask for the next pin; a token with no empty space of its colour returns to the bag (R23)."""
    held = s.holding[t.role]
    unpinnable = [tok for tok in held if not open_spaces(s, tok.id)]
    if unpinnable:
        held = tuple(tok for tok in held if tok not in unpinnable)
        s.holding = replaced(s.holding, t.role, held)
    for token in unpinnable:
        s.bag += (token.id,)
        ev.append(TokenReturnedToBag(t.role, token_payload(s, token), False, "no_space"))
    if held:
        s.decision = PIN_D[t.role]


def pin_choices(s: MatchState, d: PinD) -> list[Pin]:
    spaces = s.rules.spaces
    return [
        offer(Pin, tok.handle, spaces[i].id)
        for tok in s.holding[d.role]
        for i in open_spaces(s, tok.id)
    ]


def resolve_pin(s: MatchState, d: PinD, action: Pin, ev: list[Event]) -> None:
    held = s.holding[d.role]
    handle = action.handle
    token = next(tok for tok in held if tok.handle == handle)
    s.holding = replaced(s.holding, d.role, without(held, token))
    space = s.rules.space_index[action.space]
    s.stack.append(PIN_HOLDING[d.role])
    pin_token(s, d.role, token, space, ev)
