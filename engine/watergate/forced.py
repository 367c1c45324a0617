"""A forced choice taken without a click (issue 42): `forced_action` is the one legal action of
the seat to move when it has exactly one AND that count is public — worked out from what every
viewer sees (a spectator's view), so that answering it at once tells nobody anything.

Answering instantly tells the other seat there was only one option; where the count depends on
what it cannot see, that is a leak (R18). So only the decision kinds whose options are built
from public facts are listed here, each with the condition under which its count is public:

- FallbackD (R11): the initiative and momentum tokens and the face-up tokens of the colour.
- SpaceD, PictureD, CardD: board tokens (both seats and spectators see them), pictures, removed
  cards and their requirements (R16, R22) — all public; "done" (R28) too.
- TargetD: public unless an eligible track token whose colour the deciding seat reads but the
  public cannot could be an option: any face-down token for Nixon, a peeked face-down one for the
  Editor (R29; a colourless instruction reads no colour). The Editor's question (R29) is offered
  from public facts.
- PinD (R23, R25): public when every token the seat holds is face up (the board is public).

Never forced, whatever they hold: a card play (the hand, Howard Hunt's drawn card: R19), a
reaction window (the hand, and R18 shows every window), Nixon's face-down choices (R11, R29: he
is asked "even when only one fits"), Gambit's prompt (the hand, R31).
"""

from __future__ import annotations

from .actions import Action
from .catalog import Role
from .choosing import op_of
from .flow import legal_actions
from .state import CardD, Decision, FallbackD, MatchState, PictureD, PinD, SpaceD, TargetD


def _target_count_public(s: MatchState, d: TargetD) -> bool:
    op = op_of(s, d.task)
    if op.get("color") is None:
        return True
    near, excluded = op.get("where") == "zero_or_editor_side", d.task.excluded
    return not any(
        not t.up and (d.role == "nixon" or t.peeked)
        for t in s.track
        if t.handle not in excluded and (not near or t.pos >= 0)
    )


def count_is_public(s: MatchState, d: Decision) -> bool:
    """Whether anyone watching could count `d`'s options (the whitelist above)."""
    if isinstance(d, FallbackD | SpaceD | PictureD | CardD):
        return True
    if isinstance(d, TargetD):
        return _target_count_public(s, d)
    if isinstance(d, PinD):
        return all(t.up for t in s.holding[d.role])
    return False


def forced_action(s: MatchState) -> tuple[Role, Action] | None:
    """The seat to move and its only legal action, when it has one only and that is public;
    else None (the match is over, or the seat has a real choice, or its count is hidden)."""
    d = s.decision
    if d is None or s.winner is not None or not count_is_public(s, d):
        return None
    legal = legal_actions(s, d.role)
    return (d.role, legal[0]) if len(legal) == 1 else None
