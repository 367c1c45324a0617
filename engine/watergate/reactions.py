"""Reaction windows and the last-in-first-out chain (R17, R18); where used cards then go is
disposal.py.

Every announced play is an `Ann` on the chain with a `Resolve` below a `Window` on the stack. A
reaction is itself announced, so re-reactions need no special case: the newest link resolves first
and, unless cancelled, cancels the link it answers.
"""

from __future__ import annotations

from typing import assert_never

from .actions import PASS, Pass, React, offer
from .catalog import Card, Role, other
from .effects import push_effects
from .events import (
    CardDiscarded,
    CardRemoved,
    Event,
    PlayCancelled,
    ReactionPassed,
)
from .events.interned import card_played, shared
from .plays import announce
from .state import (
    DISPOSES,
    Ann,
    DiscardPlayed,
    Dispose,
    MatchState,
    Move,
    ReactD,
    Resolve,
    Window,
    discard,
)


def _blocked(s: MatchState, role: Role, card: Card) -> bool:
    """R21, R18: under A brilliant mood the Editor's event reactions cannot be used."""
    return (
        role == "editor" and card.kind == "event" and "editor_events_value_only" in s.restrictions
    )


def window_opens(s: MatchState, reactor: Role, ann: Ann) -> bool:
    """R18: open whenever a reaction is possible from what is public — never from the hand."""
    if not s.hands[reactor]:
        return False
    for card in s.rules.reaction_cards[reactor]:
        if (
            ann.kind in card.reacts_to
            and card.id not in s.discards[reactor]
            and card.id not in s.removed
            and card.id not in s.in_play
            and not _blocked(s, reactor, card)
        ):
            return True
    return False


def run_window(s: MatchState, t: Window, ev: list[Event]) -> None:
    ann = s.chain[t.ann]
    reactor = other(ann.role)
    if window_opens(s, reactor, ann):
        s.decision = ReactD(reactor, t.ann)


def react_choices(s: MatchState, d: ReactD) -> list[Pass | React]:
    kind = s.chain[d.ann].kind
    out: list[Pass | React] = [PASS]
    cards = s.rules.cards
    for c in s.hands[d.role]:
        card = cards[c]
        if kind in card.reacts_to and not _blocked(s, d.role, card):
            out.append(offer(React, c))
    return out


def resolve_react(s: MatchState, d: ReactD, action: Pass | React, ev: list[Event]) -> None:
    match action:
        case Pass():
            ev.append(shared(ReactionPassed, d.role))
        case React(card_id):
            _react(s, d, card_id, ev)
        case _:
            assert_never(action)


def _react(s: MatchState, d: ReactD, card_id: str, ev: list[Event]) -> None:
    s.hands[d.role].remove(card_id)  # R8: out of turn; whose turn it is does not change
    s.in_play.append(card_id)
    against = s.chain[d.ann]
    ev.append(card_played(d.role, card_id, "reaction", "hand", against=against.card))
    announce(
        s, Ann(d.role, card_id, "action", s.rules.cards[card_id].kind + "_action", d.ann, -1, False)
    )


def run_resolve(s: MatchState, t: Resolve, ev: list[Event]) -> None:
    ann = s.chain[t.ann]
    if ann.cancelled:
        return  # the canceller already put the card away
    if ann.target >= 0:
        _cancel(s, ann, ev)
        s.stack.append(_dispose(t.ann))
        _after_cancel(s, ann)
    elif ann.mode == "value":
        s.stack.append(DiscardPlayed(ann.role, ann.card))
        s.stack.append(
            Move("evidence", ann.handle, s.rules.cards[ann.card].value, ann.role, ann.role)
        )
    else:
        s.stack.append(_dispose(t.ann))
        push_effects(s, ann.role, ann.card)


def _dispose(ann: int) -> Dispose:
    return DISPOSES[ann] if ann < len(DISPOSES) else Dispose(ann)


def _cancel(s: MatchState, reaction: Ann, ev: list[Event]) -> None:
    """Cancel the link a reaction answers and put its card where the reaction card says (R17)."""
    target = s.chain[reaction.target]
    s.chain[reaction.target] = target._replace(cancelled=True)
    ev.append(PlayCancelled(target.role, target.card, reaction.card))
    s.in_play.remove(target.card)
    # R32: a card replayed by The system works goes back out of the game, whoever cancels it
    if s.rules.cards[reaction.card].on_cancel == "remove" or target.mode == "replay":
        s.removed += (target.card,)
        ev.append(CardRemoved(target.role, target.card))
    else:  # "discard" (Mitchell) and "follow_the_money" send it to the owner's discard pile unused
        discard(s, target.role, target.card)
        ev.append(CardDiscarded(target.role, target.card))


def _after_cancel(s: MatchState, reaction: Ann) -> None:
    if s.rules.cards[reaction.card].on_cancel == "follow_the_money":
        # R17: the same token moves from where it stood towards the Editor by Nixon's value
        target = s.chain[reaction.target]
        steps = s.rules.cards[target.card].value
        s.stack.append(Move("evidence", target.handle, steps, reaction.role, reaction.role))
