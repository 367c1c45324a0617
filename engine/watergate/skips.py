"""Instructions with nothing to do (R14, issue 42 item 4): one verdict, used twice. When an op is
about to start, `skip_of` tells the engine to skip it whole and say why in the log
(`InstructionSkipped`); while a seat chooses a card, `idle_parts` tells it which parts of a
card's action would do nothing if played now, so the table can say "(no effect now)" before the
click instead of after it. `idle_choices` is that for the cards the seat may play for their action
now, as every seat's view carries it (views.py, `idle`), rated or not: it states a rule (R14), it
is no hint.

The verdict of an op is exactly its handler's (effects.py): a skipped op would have changed
nothing, and an op not skipped does something, checked on random matches by the tests. For a seat
it is worked out from what that seat sees only: the one op that reads hidden colours, moving all
tokens of a colour, is idle for the Editor only when every track token's colours are known to it
(when it then runs, its token moves show the colours anyway).
"""

from __future__ import annotations

from typing import Final

from .catalog import Op, Role, direction, other
from .choosing import OpDecision, has_choice
from .plays import can_use_action
from .state import JSON, CardD, MatchState, OpTask, PictureD, PlayD, SpaceD, TargetD

Skip = tuple[str, str | None]  # (reason, what): the event's and the hint's fields

# the ops whose items are chosen one by one: the decision each opens, and its reason for none
_CHOSEN: Final[dict[str, tuple[type[OpDecision], str]]] = {
    "return_to_bag": (TargetD, "no_token"),
    "flip_board_evidence": (SpaceD, "no_board_token"),
    "remove_board_evidence": (SpaceD, "no_board_token"),
    "flip_picture": (PictureD, "no_picture"),
    "replay_removed_own": (CardD, "nothing_to_replay"),
}


def _round_token(s: MatchState, role: Role, op: Op) -> Skip | None:
    """R14: the initiative or momentum token already gained this round is off the track; a
    "move to space N" whose token stands there already has nothing to do either."""
    what = op["token"]
    start = s.track_initiative if what == "initiative" else s.track_momentum
    if start is None:
        return ("token_gained", what)
    toward = other(role) if op.get("toward") == "opponent" else role
    if op["op"] == "move_to" and start == op["space"] * direction(toward):
        return ("already_there", what)
    return None


def _chosen(s: MatchState, role: Role, source: str, at: int, kind: type[OpDecision]) -> bool:
    """Whether a choosing op would open its decision (its handler's own test, `has_choice`)."""
    return has_choice(s, kind(role, OpTask(role, source, at, -1, ())))


def skip_of(s: MatchState, role: Role, source: str, at: int, knows_all: bool) -> Skip | None:
    """Why op `at` of `source`, starting now for `role`, would do nothing (None: it does
    something). `knows_all`: the engine's verdict; else the seat's, from what `role` sees."""
    op = s.rules.effect_sources[source][at]
    name = op["op"]
    if name in ("move", "move_to"):
        if op["token"] != "evidence":
            return _round_token(s, role, op)
        return None if _chosen(s, role, source, at, TargetD) else ("no_token", op.get("color"))
    if name in _CHOSEN:
        kind, reason = _CHOSEN[name]
        return None if _chosen(s, role, source, at, kind) else (reason, None)
    if name == "pin_picture":
        person = op["person"]
        if person == "any":
            return None if _chosen(s, role, source, at, PictureD) else ("no_picture", None)
        taken = s.pictures[s.rules.person_index[person]] is not None
        return ("picture_pinned", person) if taken else None
    if name == "move_all":
        color, tokens = op.get("color"), s.rules.tokens
        sees = knows_all or role == "nixon"
        if any(
            color is None or color in tokens[t.id].colors or not (sees or t.up or t.peeked)
            for t in s.track
        ):
            return None
        return ("no_token", color)
    if name == "pin_from_bag":  # tokens already held are pinned by it too (its handler)
        return ("bag_empty", None) if not s.bag and not s.holding[role] else None
    if name == "peek_track":
        return None if any(not t.up and not t.peeked for t in s.track) else ("nothing_hidden", None)
    if name == "draw_and_play_top":  # R7, R19: nothing to draw once deck and discards are empty
        return None if s.decks[role] or s.discards[role] else ("deck_empty", None)
    if name == "restrict":
        return ("restricted_already", op["rule"]) if op["rule"] in s.restrictions else None
    raise ValueError(f"unknown op {name!r}")  # pragma: no cover - the data test rejects it


def idle_parts(s: MatchState, role: Role, card_id: str) -> dict[str, JSON] | None:
    """The parts of the card's action that would do nothing if it were played now, as `role`
    sees the match (None: every part does something). `all`: the whole action would do nothing.
    Each part is judged on the state as it is now: no card's earlier part feeds a later one (the
    tests play it out)."""
    parts: list[JSON] = []
    ops = s.rules.effect_sources[card_id]
    for at in range(len(ops)):
        skip = skip_of(s, role, card_id, at, False)
        if skip is not None:
            part: dict[str, JSON] = {"at": at, "reason": skip[0]}
            if skip[1] is not None:
                part["what"] = skip[1]
            parts.append(part)
    if not parts:
        return None
    return {"all": len(parts) == len(ops), "parts": parts}


def idle_choices(s: MatchState, role: Role) -> dict[str, JSON]:
    """While `role` chooses a card to play (its hand's, or the card Howard Hunt drew, R19), the
    idle parts of each card whose action is offered now, by card; empty otherwise. The cards and
    the verdicts are the seat's own (its hand, `can_use_action` as the legal actions decide it,
    `idle_parts` from what it sees), so the view may carry them whoever looks."""
    d = s.decision
    if s.winner is not None or not isinstance(d, PlayD) or d.role != role:
        return {}
    out: dict[str, JSON] = {}
    for card_id in s.hands[role] if d.card == "" else (d.card,):
        if can_use_action(s, role, card_id, d.turn):
            parts = idle_parts(s, role, card_id)
            if parts is not None:
                out[card_id] = parts
    return out
