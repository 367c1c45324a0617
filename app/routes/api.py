"""Player endpoints: create a match, claim an invite, read a seat's view, submit an action."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from starlette.concurrency import run_in_threadpool

from ..deps import CtxDep, TokenDep
from ..errors import ApiError
from ..lifecycle import clock_option
from ..schemas import Claimed, Created, CreateMatch, ErrorBody, MatchView, SubmitAction
from ..wire import view_json

router = APIRouter(prefix="/api")
ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorBody, "description": "Missing or unknown seat token"},
    403: {"model": ErrorBody, "description": "The token belongs to another match"},
    404: {"model": ErrorBody, "description": "No such match"},
}


def _json(text: str, status: int = 200) -> Response:
    return Response(content=text, status_code=status, media_type="application/json")


@router.post("/matches", status_code=201, response_model=Created)
async def create_match(body: CreateMatch, request: Request, ctx: CtxDep) -> Created:
    """Create a match and take a seat; against a friend you get an invite link for the other."""
    clock = clock_option(*body.clock_choice())
    made = await run_in_threadpool(ctx.service.create, body.role, body.opponent, clock)
    invite_url = None
    if made.invite_code is not None:
        base = ctx.settings.base_url or str(request.base_url)
        invite_url = base.rstrip("/") + "/invite/" + made.invite_code
    if body.opponent == "bot":
        ctx.bots.poke(made.match_id)
    return Created(
        match_id=made.match_id, role=made.role, seat_token=made.seat_token, invite_url=invite_url
    )


@router.post(
    "/invites/{code}/claim",
    response_model=Claimed,
    responses={404: ERRORS[404], 409: {"model": ErrorBody, "description": "Already claimed"}},
)
async def claim_invite(code: str, ctx: CtxDep) -> Claimed:
    """Claim the invited seat (once only) and receive its seat token."""
    made = await run_in_threadpool(ctx.service.claim, code[:128])
    await ctx.changed(made.match_id)  # the creator's socket learns the match is on
    return Claimed(match_id=made.match_id, role=made.role, seat_token=made.seat_token)


@router.get("/matches/{match_id}", response_model=MatchView, responses=ERRORS)
async def get_view(match_id: str, ctx: CtxDep, token: TokenDep) -> Response:
    """The match as this seat sees it, with its legal actions and its log."""
    role = await run_in_threadpool(ctx.service.seat_for, token, match_id)
    info, entry = await run_in_threadpool(ctx.service.current, match_id)
    return _json(view_json(info, entry, role, extras=await ctx.live.extras(info, entry, role)))


@router.post(
    "/matches/{match_id}/actions",
    response_model=MatchView,
    responses={
        **ERRORS,
        409: {"model": ErrorBody, "description": "Stale expected_version or match not started"},
        422: {"model": ErrorBody, "description": "Not a legal action now, or malformed"},
    },
)
async def submit_action(
    match_id: str, body: SubmitAction, ctx: CtxDep, token: TokenDep
) -> Response:
    """Play one action taken from legal_actions; both seats get the new view pushed."""
    role = await run_in_threadpool(ctx.service.seat_for, token, match_id)
    try:
        info, entry = await run_in_threadpool(
            ctx.service.submit,
            match_id,
            role,
            body.action,
            body.expected_version,
            ctx.clock.now(),
        )
    except ApiError as err:
        if err.code == "match_over":  # a late move may just have ended it on time
            await ctx.changed(match_id)
        raise
    await ctx.changed(match_id, entry.version)
    return _json(view_json(info, entry, role, extras=await ctx.live.extras(info, entry, role)))
