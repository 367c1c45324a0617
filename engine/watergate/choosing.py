"""The options of an instruction that needs a choice, computed only from what the deciding seat may
see: evidence tokens, board spaces, pictures, removed cards; the "done" of an "up to N"
instruction (R28) and the Editor's question for a face-down token of the instruction's colour
(R29); and the requirements that decide whether a card's action is offered at all (R16)."""

from __future__ import annotations

from typing import assert_never

from .actions import DONE, Ask, ChooseCard, ChoosePicture, ChooseSpace, ChooseTarget, Done, offer
from .board import connected_people
from .catalog import Op, Req, Role
from .state import AskedD, CardD, MatchState, OpTask, PictureD, SpaceD, TargetD, Token

Choice = ChooseTarget | ChooseSpace | ChoosePicture | ChooseCard
OpDecision = TargetD | SpaceD | PictureD | CardD


def op_of(s: MatchState, task: OpTask) -> Op:
    return s.rules.effect_sources[task.source][task.at]


def remaining(task: OpTask, op: Op) -> int:
    """How many items the op still handles: its count before it starts (R14: as many as can be
    done), then what is left."""
    return op.get("count", 1) if task.remaining < 0 else task.remaining


def may_stop(s: MatchState, op: Op) -> bool:
    """R28: a card that says "up to N" may be stopped after any number of items, none included.
    Rules versions 1 and 2 carried it out as far as possible."""
    return s.rules.version.features.up_to_is_a_choice and op.get("up_to") is True


def evidence_targets(s: MatchState, task: OpTask, op: Op, sees_all: bool) -> list[Token]:
    """Track tokens the op may take now. A colour-bound op offers a seat only the tokens whose
    colours it knows (face up, or peeked by the Editor): Nixon, who sees every token, is the one
    who picks a face-down one when the Editor asks (R29, as R11)."""
    excluded, color, tokens = task.excluded, op.get("color"), s.rules.tokens
    near = op.get("where") == "zero_or_editor_side"
    return [
        t
        for t in s.track
        if t.handle not in excluded
        and (not near or t.pos >= 0)
        and (color is None or ((sees_all or t.up or t.peeked) and color in tokens[t.id].colors))
    ]


def ask_color(s: MatchState, d: TargetD) -> str | None:
    """R29: the colour the Editor may ask Nixon for now, or None. Offered from what is public
    only: a face-down token on the track, no Executive privilege, not asked already."""
    op = op_of(s, d.task)
    color = op.get("color")
    if (
        color is None
        or d.asked
        or d.role != "editor"
        or not s.rules.version.features.instructions_may_ask
        or "editor_no_ask" in s.restrictions
    ):
        return None
    hidden = any(not t.up and t.handle not in d.task.excluded for t in s.track)
    return color if hidden else None


def asked_tokens(s: MatchState, d: AskedD) -> list[Token]:
    """R29: the face-down tokens of the asked colour Nixon may turn up for the instruction."""
    return [t for t in evidence_targets(s, d.task, op_of(s, d.task), True) if not t.up]


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


def op_options(s: MatchState, d: OpDecision) -> list[Choice]:
    """The items a choosing op's decision may take now (without "done" or a question)."""
    op = op_of(s, d.task)
    match d:
        case TargetD():
            targets = evidence_targets(s, d.task, op, d.role == "nixon")
            return [offer(ChooseTarget, "evidence", t.handle) for t in targets]
        case SpaceD():
            return [offer(ChooseSpace, s.rules.spaces[i].id) for i in _space_targets(s, op)]
        case PictureD():
            return [offer(ChoosePicture, p) for p in _picture_targets(s, op)]
        case CardD():
            return [offer(ChooseCard, c) for c in replayable_removed(s, d.role)]
        case _:
            assert_never(d)


def has_choice(s: MatchState, d: OpDecision) -> bool:
    """Whether the decision has anything to do (R14: else the op, or its rest, is skipped)."""
    return bool(op_options(s, d)) or (isinstance(d, TargetD) and ask_color(s, d) is not None)


def op_choices(s: MatchState, d: OpDecision) -> list[Choice | Ask | Done]:
    """Legal actions of a choosing op's decision: its items, the Editor's question (R29) and
    "done" for an "up to N" op (R28)."""
    out: list[Choice | Ask | Done] = [*op_options(s, d)]
    if isinstance(d, TargetD) and (color := ask_color(s, d)) is not None:
        out.append(offer(Ask, color))
    if may_stop(s, op_of(s, d.task)):
        out.append(DONE)
    return out


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
    return all(requirement_holds(s, role, req, turn) for req in s.rules.cards[card_id].requires)


def requirement_holds(s: MatchState, role: Role, req: Req, turn: int) -> bool:
    """R16: whether one requirement of a card holds now (hints name the one that does not)."""
    kind = req["req"]
    if kind == "not_first_turn":
        return turn >= 2
    if kind == "face_up_pictures":
        skip = s.rules.person_index.get(req.get("except", ""), -1)
        ups = sum(1 for k, p in enumerate(s.pictures) if p == "up" and k != skip)
        return ups >= req["min"]
    if kind == "removed_own_replayable":
        return bool(replayable_removed(s, role))
    raise ValueError(f"unknown requirement {kind!r}")  # pragma: no cover - the data test rejects it
