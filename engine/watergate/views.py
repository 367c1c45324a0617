"""Per-seat projections: `view_for` (a whitelist, field by field), `open_view` and `admin_view`;
`events_for` comes from the event records (events/), which declare their own visibility.

Hidden information (product.md): a seat sees its own hand, counts of the other hand, decks and bag,
and the colours of a face-down track token only if it is Nixon or the Editor has peeked at it.
Token data ids never reach a seat; the admin view shows everything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, cast

from .actions import action_to_json
from .board import connected_people, connected_spaces
from .catalog import Role, other
from .choosing import op_of
from .events import events_for as events_for  # the log's projection, declared on the records
from .forced import forced_action
from .ruleset import Ruleset
from .serialize import state_to_json
from .skips import idle_choices
from .state import (
    JSON,
    AskedD,
    BoardToken,
    CardD,
    Decision,
    FaceDownD,
    FallbackD,
    GambitD,
    MatchState,
    PictureD,
    PinD,
    PlayD,
    ReactD,
    SpaceD,
    TargetD,
    Token,
)


def _strings(items: Sequence[str]) -> list[JSON]:
    return list(items)


Viewer = Role | None  # a seat, or None for a spectator


def _hands(s: MatchState, role: Viewer) -> dict[str, JSON]:
    if role is None:
        return {"editor": len(s.hands["editor"]), "nixon": len(s.hands["nixon"])}
    opp = other(role)
    return {role: [card_view(s.rules, c) for c in s.hands[role]], opp: len(s.hands[opp])}


def card_view(rules: Ruleset, card_id: str) -> dict[str, JSON]:
    card = rules.cards[card_id]
    return {
        "id": card.id,
        "name": card.name,
        "faction": card.faction,
        "kind": card.kind,
        "value": card.value,
        "color": card.color,
        "reaction": card.is_reaction,
    }


def _token_view(rules: Ruleset, t: Token, role: Viewer) -> dict[str, JSON]:
    view: dict[str, JSON] = {
        "handle": t.handle,
        "face": "up" if t.up else "down",
        "position": t.pos,
    }
    if t.up or role == "nixon" or (t.peeked and role == "editor"):
        data = rules.tokens[t.id]
        view["colors"] = list(data.colors)
        view["momentum_symbol"] = data.momentum_symbol
    if t.peeked and not t.up:
        view["peeked"] = True
    return view


def _board_token_view(rules: Ruleset, b: BoardToken | None) -> dict[str, JSON] | None:
    if b is None:
        return None
    data = rules.tokens[b.id]  # the rules let both players look at board tokens
    return {
        "handle": b.handle,
        "face": "up" if b.up else "down",
        "colors": list(data.colors),
        "momentum_symbol": data.momentum_symbol,
    }


def _drawn_card_hidden_from(s: MatchState, role: Viewer) -> str:
    """Howard Hunt's drawn card is seen by the other seat only once it is played (R19)."""
    d = s.decision
    return d.card if isinstance(d, PlayD) and d.card and d.role != role else ""


def decision_view(s: MatchState, role: Viewer) -> dict[str, JSON] | None:
    """The public part of the pending decision: who decides and what kind of choice it is."""
    d: Decision | None = s.decision if s.winner is None else None
    if d is None:
        return None
    out: dict[str, JSON] = {"role": d.role, "kind": _KIND[type(d)]}
    if isinstance(d, PlayD):
        out["turn"] = d.turn
        if d.card:
            out["from_deck"] = True
            if d.role == role:
                out["card"] = d.card
    elif isinstance(d, ReactD):
        ann = s.chain[d.ann]
        against: dict[str, JSON] = {"role": ann.role, "card": ann.card, "mode": ann.mode}
        if ann.handle >= 0:
            against["handle"] = ann.handle
        out["against"] = against
    elif isinstance(d, FaceDownD | FallbackD):
        out["card"] = d.card
        out["color"] = d.color
        out["steps"] = d.steps
    elif isinstance(d, TargetD | AskedD | SpaceD | PictureD | CardD):
        out["source"] = d.task.source
        out["op"] = str(_op_name(s, d))
        out["remaining"] = d.task.remaining
        if isinstance(d, AskedD):  # R29: the Editor's instruction asked for this colour
            out["card"] = d.task.source
            out["color"] = d.color
    return out


def _op_name(s: MatchState, d: TargetD | AskedD | SpaceD | PictureD | CardD) -> str:
    return op_of(s, d.task)["op"]


_KIND: Final[dict[type, str]] = {
    PlayD: "play",
    ReactD: "react",
    FaceDownD: "choose_face_down",
    FallbackD: "choose_fallback",
    TargetD: "choose_target",
    AskedD: "choose_face_down",
    SpaceD: "choose_space",
    PictureD: "choose_picture",
    CardD: "choose_card",
    PinD: "pin",
    GambitD: "gambit",
}


def view_for(s: MatchState, role: Viewer) -> dict[str, JSON]:
    """Everything `role` may see, built field by field (a whitelist). Legal actions are separate.

    `role` None is a spectator: public information only (both hands as counts, no face-down
    track colours, not even those the Editor has peeked at)."""
    hidden_drawn = _drawn_card_hidden_from(s, role)
    lit = connected_spaces(s)
    rules = s.rules
    return {
        "role": role,
        "round": s.round,
        "version": s.version,
        "initiative": s.initiative,
        "turn": s.turn,
        "decision": decision_view(s, role),
        "track": {
            "initiative": s.track_initiative,
            "momentum": s.track_momentum,
            "evidence": [_token_view(rules, t, role) for t in s.track],
        },
        "holding": {
            r: [_token_view(rules, t, role) for t in s.holding[r]] for r in ("editor", "nixon")
        },
        "board": {
            "spaces": {
                sp.id: _board_token_view(rules, s.board[i]) for i, sp in enumerate(rules.spaces)
            },
            "pictures": {p: s.pictures[k] for k, p in enumerate(rules.people)},
            "connected": _strings(connected_people(s)),
            "lit": [sp.id for i, sp in enumerate(rules.spaces) if lit[i]],
        },
        "hands": _hands(s, role),
        "decks": {"editor": len(s.decks["editor"]), "nixon": len(s.decks["nixon"])},
        "discards": {r: _strings(s.discards[r]) for r in ("editor", "nixon")},
        "removed": _strings(s.removed),
        "in_play": _strings([c for c in s.in_play if c != hidden_drawn]),
        "bag": len(s.bag),
        "momentum": {
            "editor": s.momentum["editor"],
            "nixon": s.momentum["nixon"],
            "supply": s.momentum_supply,
            "removed": s.momentum_removed,
        },
        "restrictions": _strings(s.restrictions),
        # R14 stated before the click, hints or no hints: the seat's own cards, its own verdicts
        "idle": idle_choices(s, role) if role is not None else {},
        "winner": s.winner,
        "win_reason": s.win_reason,
        **_forced(s, role),
    }


def _forced(s: MatchState, role: Viewer) -> dict[str, JSON]:
    """The deciding seat's `forced`: its only action, when everyone could count it (forced.py);
    absent otherwise. Public by construction; given to that seat, the one it concerns."""
    forced = forced_action(s) if role is not None else None
    if forced is None or forced[0] != role:
        return {}
    return {"forced": cast(JSON, action_to_json(forced[1]))}


def open_view(s: MatchState) -> dict[str, JSON]:
    """The view shape with nothing hidden (admin step-through, replays of finished matches):
    both hands, deck orders (top last), the bag, and every token's colours; face-down track tokens
    the Editor had not seen carry "hidden_from": ["editor"]."""
    view = view_for(s, "nixon")
    view["role"] = None
    view["idle"] = {}  # a seat's foresight while it chooses: nobody chooses here
    view.pop("forced", None)  # likewise: the step-through shows what was chosen
    view["decision"] = decision_view(s, s.decision.role) if s.decision is not None else None
    view["hands"] = {r: [card_view(s.rules, c) for c in s.hands[r]] for r in ("editor", "nixon")}
    view["deck_cards"] = {r: _strings(s.decks[r]) for r in ("editor", "nixon")}
    view["in_play"] = _strings(s.in_play)
    view["bag_tokens"] = [
        {
            "id": t,
            "colors": _strings(list(s.rules.tokens[t].colors)),
            "momentum_symbol": s.rules.tokens[t].momentum_symbol,
        }
        for t in s.bag
    ]
    track = view["track"]
    assert isinstance(track, dict)
    evidence: list[JSON] = []
    for t in s.track:
        token = _token_view(s.rules, t, "nixon")
        token["id"] = t.id
        if not t.up and not t.peeked:
            token["hidden_from"] = ["editor"]
        evidence.append(token)
    track["evidence"] = evidence
    return view


def admin_view(s: MatchState) -> dict[str, JSON]:
    """Everything, hidden parts included (hands, deck orders, bag, face-down tokens, seed)."""
    data = state_to_json(s)
    data["connected"] = _strings(connected_people(s))
    return data
