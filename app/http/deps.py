"""Request dependencies, declared once as Annotated aliases."""

from __future__ import annotations

import ipaddress
from typing import Annotated, Final

from fastapi import Depends, Header, Request

from ..auth import SESSION_COOKIE, same_secret
from ..errors import ApiError
from ..services.context import AppContext
from ..services.sessions import AdminSessions
from . import ratelimit


def get_ctx(request: Request) -> AppContext:
    ctx: AppContext = request.app.state.ctx
    return ctx


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def admin_sessions(request: Request) -> AdminSessions:
    return AdminSessions(get_ctx(request).core)


def player_token(
    x_player_token: Annotated[
        str | None, Header(description="A player token (v1.1): who takes the seat, or renames")
    ] = None,
) -> str | None:
    """X-Player-Token, if any (an empty one is none: the caller is a guest)."""
    token = (x_player_token or "").strip()
    return token or None


async def is_admin(request: Request) -> bool:
    """The admin token as a bearer header, or the cookie of a session the server still keeps.
    A wrong bearer token counts against the sign-in limit: it is the same guess as a sign-in."""
    expected = get_ctx(request).settings.admin_token
    if not expected:
        return False
    token = bearer(request)
    if token and same_secret(token, expected):
        return True
    if token:
        await ratelimit.check(request, "admin_login")
    return await admin_sessions(request).valid(request.cookies.get(SESSION_COOKIE))


async def require_admin(request: Request) -> None:
    if not await is_admin(request):
        raise ApiError(401, "unauthorized", "The admin token is required.")


# Headers a proxy adds when it relays a request: a request carrying one came from elsewhere,
# even if the proxy itself connects from this machine.
RELAYED: Final = ("forwarded", "x-forwarded-for", "x-forwarded-host", "x-real-ip")


def _from_this_machine(request: Request) -> bool:
    """The peer is a loopback address and no proxy relayed the request."""
    if any(name in request.headers for name in RELAYED):
        return False
    try:
        return request.client is not None and ipaddress.ip_address(request.client.host).is_loopback
    except ValueError:
        return False


async def require_metrics(request: Request) -> None:
    """With METRICS_TOKEN: that token as a bearer header, from anywhere. Without it: only a
    scraper on this machine, talking to the process directly. A wrong token counts against
    the admin sign-in limit, as a wrong admin token does: both are guesses at a secret."""
    expected = get_ctx(request).settings.metrics_token
    if not expected:
        if _from_this_machine(request):
            return
        raise ApiError(
            401,
            "unauthorized",
            "Metrics are served to this machine only, unless METRICS_TOKEN is set.",
        )
    token = bearer(request)
    if token and same_secret(token, expected):
        return
    if token:
        await ratelimit.check(request, "admin_login")
    raise ApiError(401, "unauthorized", "The metrics token is required (Authorization: Bearer).")


CtxDep = Annotated[AppContext, Depends(get_ctx)]
TokenDep = Annotated[str | None, Depends(bearer)]
PlayerTokenDep = Annotated[str | None, Depends(player_token)]


async def same_player(match_id: str, ctx: CtxDep, token: TokenDep, player: PlayerTokenDep) -> None:
    """A seat's call that also names a player must name the seat's own player (else 403
    wrong_player); without X-Player-Token, or without a seat token (a spectator's call), nothing
    is checked here."""
    if player is not None and token is not None:
        await ctx.players.check_seat(player, token, match_id)


SamePlayer = Depends(same_player)
AdminDep = Annotated[None, Depends(require_admin)]
SessionsDep = Annotated[AdminSessions, Depends(admin_sessions)]
MetricsDep = Annotated[None, Depends(require_metrics)]
