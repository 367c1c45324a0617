"""Hints for a seat (issue "Learn to play"): why each card in its hand would be played only for
its value now, and why its value may not ask for a face-down token, from the very tests the legal
actions are made of (R16, R21, A brilliant mood, Executive privilege). Public facts and the seat's
own hand only, so the seat's observation gives the same hints as the true state."""

from __future__ import annotations

from typing import Final

from .catalog import Role
from .choosing import requirement_holds
from .plays import can_use_action
from .skips import idle_parts
from .state import JSON, MatchState, PlayD

# why a card's action is not offered (the client words each code)
NO_ACTION: Final = "reaction_only"  # R17: a reaction card has no action of its own on a turn
BRILLIANT_MOOD: Final = "editor_events_value_only"  # A brilliant mood: the Editor's events
OTHER: Final = "unavailable"  # none of the reasons here: never expected (the tests say so)


def next_turn(s: MatchState, role: Role) -> int:
    """The turn of this round a card from the hand would be played on: the one being chosen
    now, else the seat's next one (R21: requirements such as "not on your first turn")."""
    d = s.decision
    if isinstance(d, PlayD) and d.role == role and d.card == "":
        return d.turn
    return s.turns[role] + 1


def why_not(s: MatchState, role: Role, card_id: str, turn: int) -> dict[str, JSON] | None:
    """Why the card's action would not be offered on `turn` (None: it would be). The verdict is
    `can_use_action`'s, the one legal actions use; the reason only explains it."""
    if can_use_action(s, role, card_id, turn):
        return None
    card = s.rules.cards[card_id]
    if not card.effects:
        return {"reason": NO_ACTION}
    if role == "editor" and card.kind == "event" and BRILLIANT_MOOD in s.restrictions:
        return {"reason": BRILLIANT_MOOD}
    for req in card.requires:  # R16: the first requirement that does not hold, with its figures
        if not requirement_holds(s, role, req, turn):
            reason: dict[str, JSON] = {"reason": req["req"]}
            if "min" in req:
                reason["min"] = req["min"]
            if "except" in req:
                reason["except"] = req["except"]  # a person whose picture does not count
            return reason
    return {"reason": OTHER}


def ask_barred(s: MatchState, role: Role) -> bool:
    """R11 under Executive privilege: the Editor may not ask for a face-down token this round,
    though one lies on the track (the panel says the restriction; this says what it stops)."""
    return (
        role == "editor"
        and "editor_no_ask" in s.restrictions
        and any(not t.up for t in s.track)
        and bool(s.hands[role])
    )


def hints_for(s: MatchState, role: Role) -> dict[str, JSON]:
    """The seat's hints as the view carries them (contract v1.1, "hints"): by card of its hand
    (and the card Howard Hunt drew, while it waits to be played), why its action would not be
    offered; "idle", by card whose action is offered, the parts of it that would do nothing now
    (skips.idle_parts); and "ask" when Executive privilege bars asking."""
    if s.winner is not None:
        return {"actions": {}}
    turn = next_turn(s, role)
    actions: dict[str, JSON] = {}
    idle: dict[str, JSON] = {}
    cards = [(card_id, turn) for card_id in s.hands[role]]
    d = s.decision
    if isinstance(d, PlayD) and d.role == role and d.card:  # R19: Howard Hunt's drawn card
        cards.append((d.card, d.turn))  # (R33: on the turn Howard Hunt was played)
    for card_id, on_turn in cards:
        reason = why_not(s, role, card_id, on_turn)
        if reason is not None:
            actions[card_id] = reason
        elif (parts := idle_parts(s, role, card_id)) is not None:
            idle[card_id] = parts  # its action is offered, yet (part of) it would do nothing
    out: dict[str, JSON] = {"actions": actions}
    if idle:
        out["idle"] = idle
    if ask_barred(s, role):
        out["ask"] = "editor_no_ask"
    return out
