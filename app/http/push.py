"""Web Push endpoints: the server's public VAPID key, a browser's subscription for its player's
turn notices (made and removed), and the service worker, served from the root so that its scope
is the whole site."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response
from pydantic import BaseModel, ConfigDict, Field

from .deps import CtxDep, PlayerTokenDep
from .paths import STATIC
from .schemas import ErrorBody

router = APIRouter()
SERVICE_WORKER = STATIC / "sw.js"
ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorBody, "description": "player_required, or unknown_player"},
    422: {"model": ErrorBody, "description": "invalid_subscription"},
}


class PushKeyOut(BaseModel):
    public_key: str = Field(description="The applicationServerKey: P-256 point, base64url.")


class SubscriptionKeys(BaseModel):
    model_config = ConfigDict(extra="ignore")

    p256dh: str = Field(max_length=256)
    auth: str = Field(max_length=256)


class SubscriptionIn(BaseModel):
    """PushSubscription.toJSON() as the browser gives it, and the notices' language."""

    model_config = ConfigDict(extra="ignore")

    endpoint: str = Field(max_length=2048)
    keys: SubscriptionKeys
    lang: str | None = Field(default=None, max_length=16)


class Unsubscribe(BaseModel):
    model_config = ConfigDict(extra="ignore")

    endpoint: str = Field(max_length=2048)


@router.get("/api/push/key", response_model=PushKeyOut)
async def push_key(ctx: CtxDep) -> PushKeyOut:
    return PushKeyOut(public_key=ctx.turns.public_key)


@router.post("/api/push/subscriptions", status_code=201, responses=ERRORS)
async def subscribe(body: SubscriptionIn, ctx: CtxDep, player: PlayerTokenDep) -> Response:
    """Send this browser the player's turn notices (X-Player-Token) while they are away."""
    await ctx.turns.subscribe(player, body.model_dump())
    return Response(status_code=201)


@router.delete("/api/push/subscriptions", status_code=204, responses=ERRORS)
async def unsubscribe(body: Unsubscribe, ctx: CtxDep, player: PlayerTokenDep) -> Response:
    await ctx.turns.unsubscribe(player, body.endpoint)
    return Response(status_code=204)


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> Response:
    """The service worker that shows turn notices (no inline script; the page's CSP holds)."""
    return Response(
        SERVICE_WORKER.read_bytes(),
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )
