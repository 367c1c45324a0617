"""Card effects: each operation of the effect vocabulary (game-data.md) implemented once.

An effect runs as an `OpTask` on the work stack. An op that needs a choice sets a decision
(TargetD, SpaceD, PictureD, CardD; the options are choosing.py's) holding its task;
`resolve_op_choice` finishes the choice and re-queues the task when the op's count allows more
(R14: what cannot be done is skipped; R28: "up to N" may stop; R29: the Editor may ask).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, assert_never, cast

from .actions import (
    Ask,
    ChooseCard,
    ChoosePicture,
    ChooseSpace,
    ChooseTarget,
    ChooseToken,
    Done,
    offer,
)
from .board import check_editor_win
from .catalog import Op, Role, direction, other
from .choosing import (
    Choice,
    OpDecision,
    asked_tokens,
    has_choice,
    op_of,
    remaining,
)
from .events import (
    BoardEvidenceFlipped,
    BoardEvidenceRemoved,
    CardReplayed,
    Event,
    Face,
    FaceDownAsked,
    FaceDownDenied,
    InstructionSkipped,
    InstructionStopped,
    PictureFlipped,
    PicturePinned,
    RestrictionAdded,
    TokenDrawnFromBag,
    TokenReturnedToBag,
    TokenRevealed,
    TopCardDrawn,
    TrackPeeked,
)
from .events.interned import shared
from .plays import announce
from .skips import skip_of
from .state import (
    PIN_HOLDING,
    Ann,
    AskedD,
    CardD,
    MatchState,
    Move,
    OpTask,
    PictureD,
    PlayD,
    SpaceD,
    TargetD,
    Token,
    replaced,
    set_at,
    token_by_handle,
    without,
)
from .track import draw_cards, draw_from_bag, new_handle, token_payload

OpHandler = Callable[[MatchState, OpTask, Op, list[Event]], None]


def push_effects(s: MatchState, role: Role, source: str) -> None:
    """Queue every op of a card (or momentum space) so that the first one runs next."""
    for i in range(len(s.rules.effect_sources[source]) - 1, -1, -1):
        s.stack.append(OpTask(role, source, i, -1, ()))


def _toward(task: OpTask, op: Op) -> Role:
    return other(task.role) if op.get("toward") == "opponent" else task.role


# ---- the op handlers -----------------------------------------------------------------------


def _op_move(s: MatchState, task: OpTask, op: Op, ev: list[Event]) -> None:
    what = op["token"]
    if what != "evidence":
        s.stack.append(Move(what, -1, op["steps"], _toward(task, op), task.role))
        return
    task = OpTask(task.role, task.source, task.at, remaining(task, op), task.excluded)
    d = TargetD(task.role, task)
    if task.remaining > 0 and has_choice(s, d):
        s.decision = d


def _op_move_to(s: MatchState, task: OpTask, op: Op, ev: list[Event]) -> None:
    """The rulebook's common instruction "if an instruction states a space of the research
    track, move the token to that space": the token goes there from wherever it stands, towards
    either side (a token already past the space comes back to it)."""
    what = op["token"]
    if what == "evidence":  # which token is the player's choice, as for a move of steps
        _op_move(s, task, op, ev)
        return
    start = s.track_initiative if what == "initiative" else s.track_momentum
    if start is not None:  # R14: a token already gained this round is not on the track
        _move_to(s, task, op, what, -1, start)


def _move_to(s: MatchState, task: OpTask, op: Op, what: str, handle: int, start: int) -> None:
    target = op["space"] * direction(_toward(task, op))
    if target != start:  # already there: the instruction has nothing to carry out (R14)
        toward: Role = "editor" if target > start else "nixon"
        s.stack.append(Move(what, handle, abs(target - start), toward, task.role))


def _op_choose_again(
    kind: type[TargetD] | type[SpaceD] | type[PictureD] | type[CardD],
) -> OpHandler:
    """A handler for ops whose every item is chosen: open the decision while options remain."""

    def handler(s: MatchState, task: OpTask, op: Op, ev: list[Event]) -> None:
        task = OpTask(task.role, task.source, task.at, remaining(task, op), task.excluded)
        d = kind(task.role, task)
        if task.remaining > 0 and has_choice(s, d):
            s.decision = d

    return handler


def _op_move_all(s: MatchState, task: OpTask, op: Op, ev: list[Event]) -> None:
    color, toward = op.get("color"), _toward(task, op)
    tokens = [t for t in s.track if color is None or color in s.rules.tokens[t.id].colors]
    for t in sorted(tokens, key=lambda t: t.handle, reverse=True):
        s.stack.append(Move("evidence", t.handle, op["steps"], toward, task.role))


def _op_pin_from_bag(s: MatchState, task: OpTask, op: Op, ev: list[Event]) -> None:
    held = list(s.holding[task.role])
    for _ in range(min(op.get("count", 1), len(s.bag))):
        token = Token(new_handle(s), draw_from_bag(s), 0, True, False)
        held.append(token)
        ev.append(TokenDrawnFromBag(task.role, token_payload(s, token)))
    s.holding = replaced(s.holding, task.role, tuple(held))
    if held:
        s.stack.append(PIN_HOLDING[task.role])


def _op_pin_picture(s: MatchState, task: OpTask, op: Op, ev: list[Event]) -> None:
    person = op["person"]
    if person == "any":
        _op_choose_again(PictureD)(s, task, op, ev)
    elif s.pictures[s.rules.person_index[person]] is None:
        pin_picture(s, task.role, person, ev)


def pin_picture(s: MatchState, role: Role, person: str, ev: list[Event]) -> None:
    """Take a picture from the supply: the Editor pins it face up, Nixon face down."""
    face: Face = "up" if role == "editor" else "down"
    s.pictures = set_at(s.pictures, s.rules.person_index[person], face)
    ev.append(shared(PicturePinned, role, person, face))
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
        s.restrictions += (op["rule"],)
    ev.append(RestrictionAdded(task.role, op["rule"]))


OPS: Final[dict[str, OpHandler]] = {
    "move": _op_move,
    "move_all": _op_move_all,
    "move_to": _op_move_to,
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
    if task.remaining < 0:  # the op starts: one with nothing to do is skipped, and the log says why
        skip = skip_of(s, task.role, task.source, task.at, True)
        if skip is not None:
            ev.append(InstructionSkipped(task.role, task.source, *skip))
            return
    op = op_of(s, task)
    OPS[op["op"]](s, task, op, ev)


# ---- finishing a choice -----------------------------------------------------------------------


def resolve_op_choice(
    s: MatchState, d: OpDecision, action: Choice | Ask | Done, ev: list[Event]
) -> None:
    task, op, role = d.task, op_of(s, d.task), d.role
    match action:
        case ChooseCard(card):  # replay_removed_own
            _replay(s, role, card, ev)
        case Done():  # R28: the rest of an "up to N" instruction is not carried out
            ev.append(InstructionStopped(role, task.source))
        case Ask(color):
            _ask(s, task, color, ev)
        case ChooseTarget(_, handle):
            _chosen(s, task, op, -1 if handle is None else handle, ev)
        case ChoosePicture(person):
            _requeue(s, task, -1)
            _resolve_picture_choice(s, role, op, person, ev)
        case ChooseSpace(space):
            _requeue(s, task, -1)
            _resolve_space_choice(s, role, op, space, ev)
        case _:
            assert_never(action)


def _requeue(s: MatchState, task: OpTask, chosen: int) -> None:
    """Queue the rest of a counted op below the effect of this choice."""
    if task.remaining > 1:
        s.stack.append(
            OpTask(task.role, task.source, task.at, task.remaining - 1, (*task.excluded, chosen))
        )


def _replay(s: MatchState, role: Role, card: str, ev: list[Event]) -> None:
    """R22: The system works uses a removed card's action again; the card ends removed."""
    ev.append(CardReplayed(role, card))
    if not s.rules.version.features.replay_is_announced:
        # Rules versions 1 and 2: only The system works was announced, so only it could be
        # answered; the card's action simply runs, and the card never leaves the removed area.
        push_effects(s, role, card)
        return
    # R32: "as if played normally": the card comes back into play and is announced, so the
    # opponent's reaction window opens against it; disposal sends it out of the game again.
    s.removed = without(s.removed, card)
    s.in_play.append(card)
    announce(s, Ann(role, card, "replay", s.rules.cards[card].kind + "_action", -1, -1, False))


def _ask(s: MatchState, task: OpTask, color: str, ev: list[Event]) -> None:
    """R29, as R11: Nixon must turn up a face-down token of the colour if he has one (his
    choice); if not, that is said publicly and the Editor chooses among the face-up ones."""
    ev.append(shared(FaceDownAsked, "editor", color))
    asked = AskedD("nixon", task, color)
    if asked_tokens(s, asked):
        s.decision = asked  # asked even when only one fits: the timing tells nothing (R18)
        return
    ev.append(FaceDownDenied("nixon", color))
    fallback = TargetD("editor", task, asked=True)
    if has_choice(s, fallback):  # else nothing face up of the colour either: skipped (R14)
        s.decision = fallback


def asked_choices(s: MatchState, d: AskedD) -> list[ChooseToken]:
    return [offer(ChooseToken, t.handle) for t in asked_tokens(s, d)]


def resolve_asked(s: MatchState, d: AskedD, action: ChooseToken, ev: list[Event]) -> None:
    """R29: the token Nixon named is turned face up, then the Editor's instruction takes it."""
    i = token_by_handle(s.track, action.handle)
    token = s.track[i] = s.track[i]._replace(up=True, peeked=False)
    ev.append(shared(TokenRevealed, token_payload(s, token), token.pos))
    _chosen(s, d.task, op_of(s, d.task), action.handle, ev)


def _chosen(s: MatchState, task: OpTask, op: Op, chosen: int, ev: list[Event]) -> None:
    """An evidence token was chosen for a move or return op: do it, then the op's rest."""
    _requeue(s, task, chosen)
    name, role = op["op"], task.role
    if name == "move":
        s.stack.append(Move("evidence", chosen, op["steps"], _toward(task, op), role))
    elif name == "move_to":
        _move_to(s, task, op, "evidence", chosen, s.track[token_by_handle(s.track, chosen)].pos)
    elif name == "return_to_bag":
        token = s.track.pop(token_by_handle(s.track, chosen))
        s.bag += (token.id,)
        ev.append(TokenReturnedToBag(role, token_payload(s, token), token.peeked, "card"))


def _resolve_picture_choice(
    s: MatchState, role: Role, op: Op, person: str, ev: list[Event]
) -> None:
    if op["op"] == "pin_picture":
        pin_picture(s, role, person, ev)
    else:  # flip_picture
        face = cast(Face, op["to"])  # the data test allows only "up" and "down"
        s.pictures = set_at(s.pictures, s.rules.person_index[person], face)
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
        s.board = set_at(s.board, i, token)
        ev.append(BoardEvidenceFlipped(role, space_id, token_payload(s, token)))
        if token.up:
            check_editor_win(s, ev)
    else:
        s.board = set_at(s.board, i, None)
        s.bag += (token.id,)
        ev.append(BoardEvidenceRemoved(role, space_id, token_payload(s, token)))
