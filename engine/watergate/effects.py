"""Card effects: each operation of the effect vocabulary (game-data.md) implemented once.

An effect runs as an `OpTask` on the work stack. An op that needs a choice sets a decision
(TargetD, SpaceD, PictureD, CardD) holding its task; `resolve_op_choice` finishes the choice and
re-queues the task when the op's count allows more (R14: what cannot be done is skipped).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, assert_never, cast

from .actions import ChooseCard, ChoosePicture, ChooseSpace, ChooseTarget, offer
from .board import check_editor_win, connected_people
from .catalog import Op, Role, other
from .events import (
    BoardEvidenceFlipped,
    BoardEvidenceRemoved,
    CardReplayed,
    Event,
    Face,
    PictureFlipped,
    PicturePinned,
    RestrictionAdded,
    TokenDrawnFromBag,
    TokenReturnedToBag,
    TopCardDrawn,
    TrackPeeked,
)
from .state import (
    CardD,
    MatchState,
    Move,
    OpTask,
    PictureD,
    PinHolding,
    PlayD,
    SpaceD,
    TargetD,
    Token,
)
from .track import draw_cards, draw_from_bag, new_handle, token_payload

OpHandler = Callable[[MatchState, OpTask, Op, list[Event]], None]


def op_of(s: MatchState, task: OpTask) -> Op:
    return s.rules.effect_sources[task.source][task.at]


def push_effects(s: MatchState, role: Role, source: str) -> None:
    """Queue every op of a card (or momentum space) so that the first one runs next."""
    for i in range(len(s.rules.effect_sources[source]) - 1, -1, -1):
        s.stack.append(OpTask(role, source, i, -1, ()))


def _count(task: OpTask, op: Op) -> int:
    # "Up to N" is done as far as possible (rulebook: carry out every instruction that can be
    # carried out, R14); a player cannot stop early.
    return op.get("count", 1) if task.remaining < 0 else task.remaining


def _toward(task: OpTask, op: Op) -> Role:
    return other(task.role) if op.get("toward") == "opponent" else task.role


# ---- options of each choosing op (computed only from what the acting seat may see) -----------


def _evidence_targets(s: MatchState, task: OpTask, op: Op) -> list[Token]:
    excluded, color = task.excluded, op.get("color")
    if op["op"] == "return_to_bag":
        return [t for t in s.track if t.pos >= 0 and t.handle not in excluded]
    if color is None:  # "you can choose among all those on the track, face up or face down"
        return [t for t in s.track if t.handle not in excluded]
    # Our ruling (R11 extended): a colour-bound effect lets the Editor pick only tokens whose
    # colours it has seen (face up or peeked); face-down ones are reached only by asking (R11).
    sees_all, tokens = task.role == "nixon", s.rules.tokens
    return [
        t
        for t in s.track
        if t.handle not in excluded
        and (sees_all or t.up or t.peeked)
        and color in tokens[t.id].colors
    ]


def _space_targets(s: MatchState, op: Op) -> list[int]:
    if op["op"] == "flip_board_evidence":
        want_up = op["to"] == "down"  # flipping down takes face-up tokens and vice versa
        return [i for i, b in enumerate(s.board) if b is not None and b.up == want_up]
    want_up, color, tokens = op["face"] == "up", op.get("color"), s.rules.tokens
    return [
        i
        for i, b in enumerate(s.board)
        if b is not None and b.up == want_up and (color is None or color in tokens[b.id].colors)
    ]


def _picture_targets(s: MatchState, op: Op) -> list[str]:
    if op["op"] == "pin_picture":
        return [p for k, p in enumerate(s.rules.people) if s.pictures[k] is None]
    want = "up" if op["to"] == "down" else "down"
    people = [p for k, p in enumerate(s.rules.people) if s.pictures[k] == want]
    if op.get("filter") == "not_connected":
        linked = connected_people(s)
        people = [p for p in people if p not in linked]
    return people


def replayable_removed(s: MatchState, role: Role) -> list[str]:
    """R22: own removed cards usable by The system works — not reactions, not The system works
    itself (our ruling: replaying it would let one card loop forever), requirements met."""
    return [
        c
        for c in s.removed
        if (card := s.rules.cards[c]).faction == role
        and card.effects
        and not card.is_reaction
        and all(op["op"] != "replay_removed_own" for op in card.effects)
        and requirements_met(s, role, c, turn=99)
    ]


def requirements_met(s: MatchState, role: Role, card_id: str, turn: int) -> bool:
    """R16: a card's action is offered only when its requirements hold now."""
    for req in s.rules.cards[card_id].requires:
        kind = req["req"]
        if kind == "not_first_turn":
            if turn < 2:
                return False
        elif kind == "face_up_pictures":
            skip = s.rules.person_index.get(req.get("except", ""), -1)
            ups = sum(1 for k, p in enumerate(s.pictures) if p == "up" and k != skip)
            if ups < req["min"]:
                return False
        elif kind == "removed_own_replayable":
            if not replayable_removed(s, role):
                return False
        else:  # pragma: no cover - the data test rejects unknown requirements
            raise ValueError(f"unknown requirement {kind!r}")
    return True


Choice = ChooseTarget | ChooseSpace | ChoosePicture | ChooseCard


def op_choices(s: MatchState, d: TargetD | SpaceD | PictureD | CardD) -> list[Choice]:
    """Legal actions of a choosing op's decision."""
    op = op_of(s, d.task)
    match d:
        case TargetD():
            return [
                offer(ChooseTarget, "evidence", t.handle) for t in _evidence_targets(s, d.task, op)
            ]
        case SpaceD():
            return [offer(ChooseSpace, s.rules.spaces[i].id) for i in _space_targets(s, op)]
        case PictureD():
            return [offer(ChoosePicture, p) for p in _picture_targets(s, op)]
        case CardD():
            return [offer(ChooseCard, c) for c in replayable_removed(s, d.role)]
        case _:
            assert_never(d)


# ---- the op handlers -----------------------------------------------------------------------


def _op_move(s: MatchState, task: OpTask, op: Op, ev: list[Event]) -> None:
    what = op["token"]
    if what != "evidence":
        s.stack.append(Move(what, -1, op["steps"], _toward(task, op), task.role))
        return
    task = task._replace(remaining=_count(task, op))
    if task.remaining > 0 and _evidence_targets(s, task, op):
        s.decision = TargetD(task.role, task)


def _op_choose_again(
    kind: type[TargetD] | type[SpaceD] | type[PictureD] | type[CardD],
) -> OpHandler:
    """A handler for ops whose every item is chosen: open the decision while options remain."""

    def handler(s: MatchState, task: OpTask, op: Op, ev: list[Event]) -> None:
        task = task._replace(remaining=_count(task, op))
        d = kind(task.role, task)
        if task.remaining > 0 and op_choices(s, d):
            s.decision = d

    return handler


def _op_move_all(s: MatchState, task: OpTask, op: Op, ev: list[Event]) -> None:
    color, toward = op.get("color"), _toward(task, op)
    tokens = [t for t in s.track if color is None or color in s.rules.tokens[t.id].colors]
    for t in sorted(tokens, key=lambda t: t.handle, reverse=True):
        s.stack.append(Move("evidence", t.handle, op["steps"], toward, task.role))


def _op_pin_from_bag(s: MatchState, task: OpTask, op: Op, ev: list[Event]) -> None:
    held = s.holding[task.role]
    for _ in range(min(op.get("count", 1), len(s.bag))):
        token = Token(new_handle(s), draw_from_bag(s), 0, True, False)
        held.append(token)
        ev.append(TokenDrawnFromBag(task.role, token_payload(s, token)))
    if held:
        s.stack.append(PinHolding(task.role))


def _op_pin_picture(s: MatchState, task: OpTask, op: Op, ev: list[Event]) -> None:
    person = op["person"]
    if person == "any":
        _op_choose_again(PictureD)(s, task, op, ev)
    elif s.pictures[s.rules.person_index[person]] is None:
        pin_picture(s, task.role, person, ev)


def pin_picture(s: MatchState, role: Role, person: str, ev: list[Event]) -> None:
    """Take a picture from the supply: the Editor pins it face up, Nixon face down."""
    face: Face = "up" if role == "editor" else "down"
    s.pictures[s.rules.person_index[person]] = face
    ev.append(PicturePinned(role, person, face))
    if face == "up":
        check_editor_win(s, ev)


def _op_peek(s: MatchState, task: OpTask, op: Op, ev: list[Event]) -> None:
    hidden = [i for i, t in enumerate(s.track) if not t.up]
    for i in hidden:
        s.track[i] = s.track[i]._replace(peeked=True)
    ev.append(TrackPeeked(task.role, tuple(token_payload(s, s.track[i]) for i in hidden)))


def _op_draw_and_play(s: MatchState, task: OpTask, op: Op, ev: list[Event]) -> None:
    drawn = draw_cards(s, task.role, 1, ev)  # R19: reshuffles per R7; nothing if both are empty
    if drawn:
        s.in_play.append(drawn[0])
        ev.append(TopCardDrawn(task.role))
        s.decision = PlayD(task.role, drawn[0], s.turns[task.role])


def _op_restrict(s: MatchState, task: OpTask, op: Op, ev: list[Event]) -> None:
    if op["rule"] not in s.restrictions:
        s.restrictions.append(op["rule"])
    ev.append(RestrictionAdded(task.role, op["rule"]))


OPS: Final[dict[str, OpHandler]] = {
    "move": _op_move,
    "move_all": _op_move_all,
    "return_to_bag": _op_choose_again(TargetD),
    "pin_from_bag": _op_pin_from_bag,
    "pin_picture": _op_pin_picture,
    "flip_board_evidence": _op_choose_again(SpaceD),
    "flip_picture": _op_choose_again(PictureD),
    "remove_board_evidence": _op_choose_again(SpaceD),
    "peek_track": _op_peek,
    "draw_and_play_top": _op_draw_and_play,
    "restrict": _op_restrict,
    "replay_removed_own": _op_choose_again(CardD),
}


def run_op(s: MatchState, task: OpTask, ev: list[Event]) -> None:
    op = op_of(s, task)
    OPS[op["op"]](s, task, op, ev)


# ---- finishing a choice -----------------------------------------------------------------------


def resolve_op_choice(
    s: MatchState, d: TargetD | SpaceD | PictureD | CardD, action: Choice, ev: list[Event]
) -> None:
    task, op, role = d.task, op_of(s, d.task), d.role
    if isinstance(action, ChooseCard):  # replay_removed_own
        # R22: the chosen card's action runs as part of The system works; only The system works
        # itself was announced, so only it can be answered by a reaction (our ruling).
        ev.append(CardReplayed(role, action.card))
        # R22: it stays removed; the card of the op is removed after
        push_effects(s, role, action.card)
        return
    chosen = -1 if not isinstance(action, ChooseTarget) or action.handle is None else action.handle
    # re-queue the rest of a counted op below the effect of this choice
    if task.remaining > 1:
        s.stack.append(
            task._replace(remaining=task.remaining - 1, excluded=(*task.excluded, chosen))
        )
    match action:
        case ChooseTarget():
            _resolve_target_choice(s, task, op, chosen, ev)
        case ChoosePicture(person):
            _resolve_picture_choice(s, role, op, person, ev)
        case ChooseSpace(space):
            _resolve_space_choice(s, role, op, space, ev)
        case _:
            assert_never(action)


def _resolve_target_choice(
    s: MatchState, task: OpTask, op: Op, chosen: int, ev: list[Event]
) -> None:
    name, role = op["op"], task.role
    if name == "move":
        s.stack.append(Move("evidence", chosen, op["steps"], _toward(task, op), role))
    elif name == "return_to_bag":
        i = next(i for i, t in enumerate(s.track) if t.handle == chosen)
        token = s.track.pop(i)
        s.bag.append(token.id)
        ev.append(TokenReturnedToBag(role, token_payload(s, token), token.peeked, "card"))


def _resolve_picture_choice(
    s: MatchState, role: Role, op: Op, person: str, ev: list[Event]
) -> None:
    if op["op"] == "pin_picture":
        pin_picture(s, role, person, ev)
    else:  # flip_picture
        face = cast(Face, op["to"])  # the data test allows only "up" and "down"
        s.pictures[s.rules.person_index[person]] = face
        ev.append(PictureFlipped(role, person, face))
        if face == "up":
            check_editor_win(s, ev)


def _resolve_space_choice(
    s: MatchState, role: Role, op: Op, space_id: str, ev: list[Event]
) -> None:
    i = s.rules.space_index[space_id]
    token = s.board[i]
    assert token is not None  # offered only for occupied spaces
    if op["op"] == "flip_board_evidence":
        token = token._replace(up=op["to"] == "up")
        s.board[i] = token
        ev.append(BoardEvidenceFlipped(role, space_id, token_payload(s, token)))
        if token.up:
            check_editor_win(s, ev)
    else:
        s.board[i] = None
        s.bag.append(token.id)
        ev.append(BoardEvidenceRemoved(role, space_id, token_payload(s, token)))
