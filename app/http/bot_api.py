"""The bot API (contract v1.2 "Bots", issue 45): an account's personal API tokens (made, listed
and revoked with its player token, on the account page), and the calls a program makes with one
(`Authorization: Bearer <token>`): upgrading its account to a bot account, and playing its
seats — the seat's pushes as a stream of JSON lines, actions, resignation, the chat's phrases."""

from __future__ import annotations

import unicodedata
from collections.abc import AsyncIterator
from typing import Annotated, Literal

import anyio
from fastapi import APIRouter, Request, Response
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..addresses import client_key
from ..names import REFUSED_CATEGORIES
from .api import ERRORS, json_text
from .deps import CtxDep, PlayerTokenDep, TokenDep
from .schemas import SubmitAction

router = APIRouter(prefix="/api", tags=["bots"])

Scope = Literal["bot:play", "challenge:write", "match:read"]


class NewToken(BaseModel):
    model_config = ConfigDict(extra="forbid")

    scopes: Annotated[list[Scope], Field(min_length=1, max_length=3)]
    label: str = Field(default="", max_length=40)

    @field_validator("label")
    @classmethod
    def _printable(cls, value: str) -> str:
        """Shown on the account page: no control, format or unassigned characters (a NUL
        byte is refused by PostgreSQL, a bidi override would scramble the list)."""
        if any(unicodedata.category(c) in REFUSED_CATEGORIES for c in value):
            raise ValueError("a label is plain text")
        return value


class MadeTokenOut(BaseModel):
    token_id: str
    token: str = Field(description="Shown this once: only its hash is kept.")
    label: str
    scopes: list[str]


class TokenOut(BaseModel):
    token_id: str
    label: str
    scopes: list[str]
    created_at: str
    last_used_at: str | None


class TokensOut(BaseModel):
    tokens: list[TokenOut]


@router.post("/account/tokens", status_code=201, response_model=MadeTokenOut, responses=ERRORS)
async def make_token(body: NewToken, ctx: CtxDep, player: PlayerTokenDep) -> MadeTokenOut:
    """A personal API token for the signed-in account (X-Player-Token), with its scopes."""
    made = await ctx.api_tokens.create(player, body.label.strip(), tuple(body.scopes))
    return MadeTokenOut(
        token_id=made.token_id, token=made.token, label=made.label, scopes=list(made.scopes)
    )


@router.get("/account/tokens", response_model=TokensOut, responses=ERRORS)
async def list_tokens(ctx: CtxDep, player: PlayerTokenDep) -> TokensOut:
    """The account's working tokens, without their secrets."""
    found = await ctx.api_tokens.listed(player)
    return TokensOut(
        tokens=[
            TokenOut(
                token_id=t.token_id,
                label=t.label,
                scopes=list(t.scopes),
                created_at=t.created_at.isoformat(),
                last_used_at=t.last_used_at.isoformat() if t.last_used_at else None,
            )
            for t in found
        ]
    )


@router.delete("/account/tokens/{token_id}", status_code=204, responses=ERRORS)
async def revoke_token(token_id: str, ctx: CtxDep, player: PlayerTokenDep) -> Response:
    """Revoke one of the account's tokens: it stops working at once."""
    await ctx.api_tokens.revoke(player, token_id)
    return Response(status_code=204)


@router.post("/bot/account/upgrade", responses=ERRORS)
async def upgrade(ctx: CtxDep, token: TokenDep) -> dict[str, bool]:
    """Make the token's account a bot account, for good (`409 has_games` once it has played)."""
    await ctx.bot_play.upgrade(token)
    return {"bot": True}


@router.get("/bot/matches/{match_id}/stream", responses=ERRORS)
async def stream(match_id: str, request: Request, ctx: CtxDep, token: TokenDep) -> Response:
    """The bot's seat's pushes, one JSON object a line (`application/x-ndjson`): first its view,
    then every change of it and every chat line, a blank line after 5 s of quiet, and the end
    after the view of the finished match. Reconnecting resumes with the seat's view as it is."""
    conn, sink = await ctx.bot_play.stream(token, match_id, dict(request.scope))

    async def lines() -> AsyncIterator[str]:
        try:
            async for line in sink.lines():
                yield line
        finally:
            # the client may have gone: this runs inside the response's cancelled scope, where an
            # unshielded await would be cancelled too and leave the seat's connection in the hub
            with anyio.CancelScope(shield=True):
                await ctx.bot_play.ended(conn)

    return StreamingResponse(lines(), media_type="application/x-ndjson")


@router.get("/stream/events", responses=ERRORS)
async def events(ctx: CtxDep, token: TokenDep) -> Response:
    """The account's events, one JSON object a line (`application/x-ndjson`): on opening every
    open challenge to it and every match of it under way, then challenges received, cancelled,
    declined and accepted, and its matches starting and finishing; a blank line after 5 s of
    quiet. One event stream per token."""
    who = await ctx.bot_events.open(token)

    async def lines() -> AsyncIterator[str]:
        async for line in ctx.bot_events.lines(who):
            yield line

    return StreamingResponse(lines(), media_type="application/x-ndjson")


@router.post("/bot/matches/{match_id}/actions", responses=ERRORS)
async def act(match_id: str, body: SubmitAction, ctx: CtxDep, token: TokenDep) -> Response:
    """One action from the seat's legal_actions, as given: the seat's new view."""
    return json_text(await ctx.bot_play.act(token, match_id, body.action, body.expected_version))


class BotChat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    phrase: str | None = Field(default=None, max_length=32)
    text: str | None = Field(default=None, max_length=600)  # refused: bots say phrases only


@router.post("/bot/matches/{match_id}/chat", status_code=204, responses=ERRORS)
async def chat(
    match_id: str, body: BotChat, request: Request, ctx: CtxDep, token: TokenDep
) -> Response:
    """Say a preset phrase at the table (`{"phrase": "good_game"}`: good_game, good_luck,
    thinking, thanks); free text is `403 bot_chat_phrases_only`."""
    address = client_key(request.scope)
    await ctx.bot_play.say(token, match_id, body.text, body.phrase, address)
    return Response(status_code=204)


@router.post("/bot/matches/{match_id}/resign", responses=ERRORS)
async def resign(match_id: str, ctx: CtxDep, token: TokenDep) -> dict[str, str]:
    await ctx.bot_play.resign(token, match_id)
    return {"status": "resigned"}
