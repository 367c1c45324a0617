"""Playing a card on a turn (or Howard Hunt's drawn card): value part with its targets (R10–R13),
the Editor's question for a face-down colour (R11), or the action part with requirements (R16)."""

from __future__ import annotations

from .catalog import COLORS, Role
from .effects import requirements_met
from .state import (
    Action,
    Ann,
    Event,
    FaceDownD,
    FallbackD,
    MatchState,
    Move,
    PlayD,
    Resolve,
    TurnEnd,
    Window,
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


def play_choices(s: MatchState, d: PlayD) -> list[Action]:
    role = d.role
    cards = s.hands[role] if d.card == "" else [d.card]
    by_color = _targets_by_color(s, role)
    fixed = [
        t
        for t, pos in (("initiative", s.track_initiative), ("momentum", s.track_momentum))
        if pos is not None
    ]
    # R11: the Editor may ask whatever it holds; the count of face-down tokens is public
    may_ask = (
        role == "editor"
        and "editor_no_ask" not in s.restrictions
        and any(not t.up for t in s.track)
    )
    out: list[Action] = []
    catalogue = s.rules.cards
    for c in cards:
        card = catalogue[c]
        n = len(out)
        for target in fixed:
            out.append({"type": "play_value", "card": c, "target": target})
        for handle in by_color[card.color]:
            out.append({"type": "play_value", "card": c, "target": "evidence", "handle": handle})
        if may_ask:
            for color in COLORS if card.color == "joker" else (card.color,):
                out.append({"type": "play_value", "card": c, "target": "ask", "color": color})
        if len(out) == n:
            out.append({"type": "play_value", "card": c, "target": "none"})  # R12
        if can_use_action(s, role, c, d.turn):
            out.append({"type": "play_action", "card": c})
    return out


def resolve_play(s: MatchState, d: PlayD, action: Action, ev: list[Event]) -> None:
    role, card_id = d.role, str(action["card"])
    if d.card == "":
        s.hands[role].remove(card_id)
        s.in_play.append(card_id)
        s.turns[role] = d.turn
        s.stack.append(TurnEnd(role))
    source = "hand" if d.card == "" else "deck"
    if action["type"] == "play_action":
        ev.append(
            {
                "type": "card_played",
                "role": role,
                "card": card_id,
                "mode": "action",
                "source": source,
            }
        )
        announce(
            s, Ann(role, card_id, "action", s.rules.cards[card_id].kind + "_action", -1, -1, False)
        )
        return
    target = str(action["target"])
    played: Event = {
        "type": "card_played",
        "role": role,
        "card": card_id,
        "mode": "value",
        "source": source,
        "target": target,
    }
    if "handle" in action:
        played["handle"] = action["handle"]
    if "color" in action:
        played["color"] = action["color"]
    ev.append(played)
    _value_effect(s, role, card_id, target, action, ev)


def _value_effect(
    s: MatchState, role: Role, card_id: str, target: str, action: Action, ev: list[Event]
) -> None:
    steps = s.rules.cards[card_id].value
    if target == "evidence" and role == "nixon":
        handle = int(action["handle"])
        i = next(i for i, t in enumerate(s.track) if t.handle == handle)
        token = s.track[i]
        if not token.up:  # R13
            s.track[i] = token = token._replace(up=True, peeked=False)
            ev.append(
                {"type": "token_revealed", "token": token_payload(s, token), "position": token.pos}
            )
        # R17: "Follow the money!" may answer before the token moves (or is gained at space 5)
        announce(s, Ann(role, card_id, "value", "value_evidence_move", -1, handle, False))
        return
    # Nothing can answer this value play: the card goes to the discard pile at once.
    s.in_play.remove(card_id)
    s.discards[role].append(card_id)
    if target in ("initiative", "momentum"):
        s.stack.append(Move(target, -1, steps, role, role))
    elif target == "evidence":
        s.stack.append(Move("evidence", int(action["handle"]), steps, role, role))
    elif target == "ask":
        _ask(s, card_id, str(action["color"]), steps, ev)
    else:
        ev.append({"type": "nothing_moved", "role": role})  # R12


def _ask(s: MatchState, card_id: str, color: str, steps: int, ev: list[Event]) -> None:
    """R11: the Editor names a colour; Nixon must flip and move one of his choice if he has one."""
    ev.append({"type": "face_down_asked", "role": "editor", "color": color})
    if any(not t.up and color in s.rules.tokens[t.id].colors for t in s.track):
        # R11, R18: Nixon is asked even when only one token fits, so the prompt's timing tells
        # the Editor nothing about how many face-down tokens of that colour there are.
        s.decision = FaceDownD("nixon", card_id, color, steps)
        return
    ev.append({"type": "face_down_denied", "role": "nixon", "color": color})
    fallback = FallbackD(
        "editor", card_id, "joker" if s.rules.cards[card_id].color == "joker" else color, steps
    )
    if fallback_choices(s, fallback):
        s.decision = fallback
    else:
        ev.append({"type": "nothing_moved", "role": "editor"})  # R12


def face_down_choices(s: MatchState, d: FaceDownD) -> list[Action]:
    return [
        {"type": "choose_token", "handle": t.handle}
        for t in s.track
        if not t.up and d.color in s.rules.tokens[t.id].colors
    ]


def resolve_face_down(s: MatchState, d: FaceDownD, action: Action, ev: list[Event]) -> None:
    s.stack.append(Move("evidence", int(action["handle"]), d.steps, "editor", "editor"))


def fallback_choices(s: MatchState, d: FallbackD) -> list[Action]:
    out: list[Action] = []
    if s.track_initiative is not None:
        out.append({"type": "choose_target", "target": "initiative"})
    if s.track_momentum is not None:
        out.append({"type": "choose_target", "target": "momentum"})
    for t in s.track:
        if t.up and (d.color == "joker" or d.color in s.rules.tokens[t.id].colors):
            out.append({"type": "choose_target", "target": "evidence", "handle": t.handle})
    return out


def resolve_fallback(s: MatchState, d: FallbackD, action: Action, ev: list[Event]) -> None:
    target = str(action["target"])
    handle = int(action["handle"]) if target == "evidence" else -1
    s.stack.append(Move(target, handle, d.steps, "editor", "editor"))


def announce(s: MatchState, ann: Ann) -> None:
    """Put a play on the chain: it resolves after the opponent's reaction window (R17)."""
    s.chain.append(ann)
    index = len(s.chain) - 1
    s.stack.append(Resolve(index))
    s.stack.append(Window(index))
