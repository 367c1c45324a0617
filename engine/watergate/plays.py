"""Playing a card on a turn (or Howard Hunt's drawn card): value part with its targets (R10–R13),
the Editor's question for a face-down colour (R11), or the action part with requirements (R16)."""

from __future__ import annotations

from typing import assert_never

from .actions import ChooseTarget, ChooseToken, PlayAction, PlayValue, offer
from .catalog import Role
from .choosing import requirements_met
from .events import (
    Event,
    FaceDownAsked,
    FaceDownDenied,
    NothingMoved,
    PlaySource,
    TokenRevealed,
)
from .events.interned import card_played, shared
from .offers import CARD_OFFERS_GET, card_offers
from .state import (
    RESOLVES,
    TURN_END,
    WINDOWS,
    Ann,
    FaceDownD,
    FallbackD,
    MatchState,
    Move,
    PlayD,
    Resolve,
    Token,
    Window,
    discard,
    replaced,
)
from .track import token_payload


def can_use_action(s: MatchState, role: Role, card_id: str, turn: int) -> bool:
    """R16, R21: the action part is offered only when allowed now (never a reaction on a turn)."""
    card = s.rules.cards[card_id]
    if not card.effects:
        return False
    if role == "editor" and card.kind == "event" and "editor_events_value_only" in s.restrictions:
        return False
    return requirements_met(s, role, card_id, turn)


def _targets_by_color(s: MatchState, role: Role) -> dict[str, list[int]]:
    """Handles of the evidence tokens a value of each card colour may name directly (R10, R11)."""
    nixon, tokens = role == "nixon", s.rules.tokens
    by_color: dict[str, list[int]] = {"blue": [], "yellow": [], "green": [], "joker": []}
    for t in s.track:
        if nixon or t.up:
            for color in tokens[t.id].colors:
                by_color[color].append(t.handle)
            by_color["joker"].append(t.handle)
    return by_color


def play_choices(s: MatchState, d: PlayD) -> list[PlayValue | PlayAction]:
    """Every play of every card the seat may play now, card by card in hand order: its value
    on each target it may name (R10, R11, R12), then its action part when usable (R16, R21).

    The commonest decision of a match (about 60% of a random game's), so it is written for
    speed: the offers are shared records (`card_offers`), a card's evidence moves are appended
    with one `map`, and `can_use_action`'s checks are inlined so a card without requirements
    costs no call."""
    role = d.role
    cards = s.hands[role] if d.card == "" else (d.card,)
    by_color = _targets_by_color(s, role)
    has_initiative, has_momentum = s.track_initiative is not None, s.track_momentum is not None
    restrictions = s.restrictions
    # R11: the Editor may ask whatever it holds; the count of face-down tokens is public
    may_ask = (
        role == "editor" and "editor_no_ask" not in restrictions and any(not t.up for t in s.track)
    )
    # R21: under A brilliant mood the Editor's events are played for their value only
    events_blocked = role == "editor" and "editor_events_value_only" in restrictions
    out: list[PlayValue | PlayAction] = []
    catalogue, offers_of = s.rules.cards, CARD_OFFERS_GET
    for c in cards:
        card = catalogue[c]
        offers = offers_of(c) or card_offers(c)
        if has_initiative:
            out.append(offers.initiative)
        if has_momentum:
            out.append(offers.momentum)
        handles = by_color[card.color]
        if handles:
            out += map(offers.evidence.__getitem__, handles)
        if may_ask:
            out += offers.asks[card.color]
        elif not (has_initiative or has_momentum or handles):
            out.append(offers.none)  # R12
        if (
            card.effects
            and not (events_blocked and card.kind == "event")
            and (not card.requires or requirements_met(s, role, c, d.turn))
        ):
            out.append(offers.play_action)
    return out


def resolve_play(s: MatchState, d: PlayD, action: PlayValue | PlayAction, ev: list[Event]) -> None:
    role, card_id = d.role, action.card
    if d.card == "":
        s.hands[role].remove(card_id)
        s.in_play.append(card_id)
        s.turns = replaced(s.turns, role, d.turn)
        s.stack.append(TURN_END[role])
    source: PlaySource = "hand" if d.card == "" else "deck"
    match action:
        case PlayAction():
            _play_action(s, role, card_id, source, ev)
        case PlayValue():
            _play_value(s, role, action, source, ev)
        case _:
            assert_never(action)


def _play_action(
    s: MatchState, role: Role, card_id: str, source: PlaySource, ev: list[Event]
) -> None:
    ev.append(card_played(role, card_id, "action", source))
    kind = s.rules.cards[card_id].kind + "_action"
    announce(s, Ann(role, card_id, "action", kind, -1, -1, False))


def _play_value(
    s: MatchState, role: Role, action: PlayValue, source: PlaySource, ev: list[Event]
) -> None:
    card_id, target = action.card, action.target
    ev.append(card_played(role, card_id, "value", source, target, action.handle, action.color))
    _value_effect(s, role, action, ev)


def _value_effect(s: MatchState, role: Role, action: PlayValue, ev: list[Event]) -> None:
    card_id, target = action.card, action.target
    steps = s.rules.cards[card_id].value
    if target == "evidence" and role == "nixon":
        handle = int(action.handle or 0)
        i = next(i for i, t in enumerate(s.track) if t.handle == handle)
        token = s.track[i]
        if not token.up:  # R13
            s.track[i] = token = Token(token.handle, token.id, token.pos, True, False)
            ev.append(shared(TokenRevealed, token_payload(s, token), token.pos))
        # R17: "Follow the money!" may answer before the token moves (or is gained at space 5)
        announce(s, Ann(role, card_id, "value", "value_evidence_move", -1, handle, False))
        return
    # Nothing can answer this value play: the card goes to the discard pile at once.
    s.in_play.remove(card_id)
    discard(s, role, card_id)
    if target in ("initiative", "momentum"):
        s.stack.append(Move(target, -1, steps, role, role))
    elif target == "evidence":
        s.stack.append(Move("evidence", int(action.handle or 0), steps, role, role))
    elif target == "ask":
        _ask(s, card_id, str(action.color), steps, ev)
    else:
        ev.append(NothingMoved(role))  # R12


def _ask(s: MatchState, card_id: str, color: str, steps: int, ev: list[Event]) -> None:
    """R11: the Editor names a colour; Nixon must flip and move one of his choice if he has one."""
    ev.append(shared(FaceDownAsked, "editor", color))
    if any(not t.up and color in s.rules.tokens[t.id].colors for t in s.track):
        # R11, R18: Nixon is asked even when only one token fits, so the prompt's timing tells
        # the Editor nothing about how many face-down tokens of that colour there are.
        s.decision = FaceDownD("nixon", card_id, color, steps)
        return
    ev.append(FaceDownDenied("nixon", color))
    fallback = FallbackD(
        "editor", card_id, "joker" if s.rules.cards[card_id].color == "joker" else color, steps
    )
    if fallback_choices(s, fallback):
        s.decision = fallback
    else:
        ev.append(NothingMoved("editor"))  # R12


def face_down_choices(s: MatchState, d: FaceDownD) -> list[ChooseToken]:
    return [
        offer(ChooseToken, t.handle)
        for t in s.track
        if not t.up and d.color in s.rules.tokens[t.id].colors
    ]


def resolve_face_down(s: MatchState, d: FaceDownD, action: ChooseToken, ev: list[Event]) -> None:
    s.stack.append(Move("evidence", action.handle, d.steps, "editor", "editor"))


def fallback_choices(s: MatchState, d: FallbackD) -> list[ChooseTarget]:
    out: list[ChooseTarget] = []
    if s.track_initiative is not None:
        out.append(offer(ChooseTarget, "initiative", None))
    if s.track_momentum is not None:
        out.append(offer(ChooseTarget, "momentum", None))
    tokens = s.rules.tokens
    for t in s.track:
        if t.up and (d.color == "joker" or d.color in tokens[t.id].colors):
            out.append(offer(ChooseTarget, "evidence", t.handle))
    return out


def resolve_fallback(s: MatchState, d: FallbackD, action: ChooseTarget, ev: list[Event]) -> None:
    target = action.target
    handle = int(action.handle or 0) if target == "evidence" else -1
    s.stack.append(Move(target, handle, d.steps, "editor", "editor"))


def announce(s: MatchState, ann: Ann) -> None:
    """Put a play on the chain: it resolves after the opponent's reaction window (R17)."""
    s.chain.append(ann)
    index = len(s.chain) - 1
    if index < len(WINDOWS):
        s.stack += (RESOLVES[index], WINDOWS[index])
    else:
        s.stack += (Resolve(index), Window(index))
