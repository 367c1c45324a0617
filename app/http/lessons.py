"""Tutorial endpoints: the lessons on offer, a lesson's coach, and starting a tutorial match."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from ..lessons import all_lessons, checked_lesson, coach_json
from .api import ERRORS, PLAYER_401
from .deps import CtxDep, PlayerTokenDep
from .schemas import Claimed, ErrorBody

router = APIRouter(prefix="/api/lessons")
NO_LESSON: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorBody, "description": "no_such_lesson"}
}


class LessonOnOffer(BaseModel):
    game: str
    lesson: str
    seat: str  # the seat the learner takes


class CoachStepOut(BaseModel):
    version: int  # the learner decides at this version of the path
    topics: list[str]  # what the coach explains first (locale keys lessons.<game>.<lesson>.*)
    action: dict[str, Any]  # the learner's scripted move, as the view's legal_actions has it
    only: bool  # the lesson allows only that move; otherwise it is a suggestion


class Coach(BaseModel):
    game: str
    lesson: str
    seat: str
    length: int  # decisions on the path; past it the match goes on as any other
    steps: list[CoachStepOut]
    closing: list[str]  # topics the opponent's last moves showed, explained at the end


@router.get("", response_model=list[LessonOnOffer])
async def list_lessons() -> list[LessonOnOffer]:
    """Every tutorial: its game, its id and the seat the learner takes (contract v1.1)."""
    return [LessonOnOffer(game=g, lesson=x.id, seat=x.seat) for g, x in all_lessons()]


@router.get("/{game}/{lesson}", response_model=Coach, responses=NO_LESSON)
async def lesson_coach(game: str, lesson: str) -> Coach:
    """A lesson's coach: the learner's scripted moves, and the topics each explains."""
    path = checked_lesson(game[:32], lesson[:32])
    return Coach.model_validate(coach_json(path.game.id, path))


class StartLesson(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # a topic of the lesson: the match starts at the decision that teaches it (the rules page)
    at: str | None = Field(default=None, min_length=1, max_length=32)


@router.post(
    "/{game}/{lesson}/start",
    status_code=201,
    response_model=Claimed,
    responses={
        **PLAYER_401,
        **NO_LESSON,
        403: ERRORS[403],
        422: {"model": ErrorBody, "description": "no_such_topic"},
    },
)
async def start_lesson(
    game: str, lesson: str, ctx: CtxDep, player: PlayerTokenDep, body: StartLesson | None = None
) -> Claimed:
    """A tutorial match of that lesson against the computer, unrated, with its seat's token;
    with `at`, already at the step that teaches that topic."""
    at = body.at if body else None
    made = await ctx.lessons.start(game[:32], lesson[:32], player, at)
    return Claimed(match_id=made.match_id, role=made.seat, seat_token=made.seat_token)
