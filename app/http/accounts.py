"""Account endpoints: sign up (creating a player or upgrading the caller's), sign in on a new
device, sign out, sessions (list, revoke), password change, deleting oneself; and the
leaderboard, a player's rating history and "my games". Passwords travel in bodies only and are
never logged (the request log writes no bodies)."""

from __future__ import annotations

from typing import Any, Final, Literal

from fastapi import APIRouter, Query, Request, Response

from ..auth import token_hash
from ..services.accounts import SignedIn
from ..services.context import AppContext as Ctx
from ..services.players import Played
from ..services.ratings import provisional
from . import ratelimit
from .account_schemas import (
    AccountOut,
    DeleteBody,
    HistoryOut,
    LeaderboardOut,
    MyGamesOut,
    MyMatchOut,
    PasswordBody,
    PointOut,
    RankedOut,
    SessionOut,
    SignedInOut,
    SignInBody,
    SignUpBody,
)
from .deps import CtxDep, PlayerTokenDep
from .ratelimit import client_key
from .schemas import ErrorBody, PlayedOut, SeatPlayer
from .security import secure_cookies

router = APIRouter(prefix="/api")
CREDENTIALS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorBody, "description": "bad_credentials (or unknown_player)"},
    429: {"model": ErrorBody, "description": "rate_limited, with Retry-After"},
}
SIGN_UP: dict[int | str, dict[str, Any]] = {
    409: {"model": ErrorBody, "description": "username_taken, or has_account"},
    422: {"model": ErrorBody, "description": "invalid_username, password_too_short/_long"},
    429: {"model": ErrorBody, "description": "rate_limited, with Retry-After"},
}
BUSY: dict[int | str, dict[str, Any]] = {
    503: {"model": ErrorBody, "description": "busy (too many passwords being checked), with "
          "Retry-After"},
}  # fmt: skip
# The browser's device cookie: a random token, given at sign-up and each sign-in and only ever
# sent to the account endpoints; the server keeps its SHA-256 per account it signed in to
DEVICE_COOKIE: Final = "wg_device"
DEVICE_PATH: Final = "/api/accounts"
DEVICE_SECONDS: Final = 365 * 86400


def played_out(p: Played) -> PlayedOut:
    opponent = SeatPlayer.model_validate(p.opponent.wire_player())
    others = [SeatPlayer.model_validate(o.wire_player()) for o in p.opponents]
    return PlayedOut(
        match_id=p.match_id, role=p.role, result=p.result, opponent=opponent, opponents=others,
        game=p.game, ended_at=p.ended_at.isoformat() if p.ended_at else None,
    )  # fmt: skip


def signed_in(made: SignedIn, request: Request, response: Response, ctx: Ctx) -> SignedInOut:
    """The answer, with this browser's device cookie (again: a year from now)."""
    response.set_cookie(
        DEVICE_COOKIE,
        made.device,
        max_age=DEVICE_SECONDS,
        httponly=True,
        samesite="strict",
        path=DEVICE_PATH,
        secure=secure_cookies(request, ctx.settings.base_url),
    )
    return SignedInOut(
        player_id=made.player_id, name=made.name, username=made.username,
        player_token=made.player_token,
    )  # fmt: skip


@router.post(
    "/accounts", status_code=201, response_model=SignedInOut, responses={**SIGN_UP, **BUSY}
)
async def sign_up(
    body: SignUpBody, request: Request, response: Response, ctx: CtxDep, player: PlayerTokenDep
) -> SignedInOut:
    """An account: with X-Player-Token the caller's player gets it (its name, matches and
    token carry over); without, a new player named `name` (or the username). This browser
    becomes a known device of the account."""
    device = request.cookies.get(DEVICE_COOKIE)
    made = await ctx.accounts.sign_up(
        player, body.username, body.password, body.name, device, client_key(request.scope)
    )
    return signed_in(made, request, response, ctx)


@router.post("/accounts/login", response_model=SignedInOut, responses={**CREDENTIALS, **BUSY})
async def sign_in(
    body: SignInBody, request: Request, response: Response, ctx: CtxDep
) -> SignedInOut:
    """A player token for the account on this device (a new session). Throttled per client
    address (the route's limit), per username and address, and per username from every
    browser that has never signed in to it together; a browser that has (its device cookie)
    is counted on its own instead, so strangers guessing cannot lock the owner out."""
    key = body.username.strip().lower()[:64]
    device = request.cookies.get(DEVICE_COOKIE)
    if ratelimit.limiter_of(request) is not None:
        await ratelimit.check_key(request, "login_user", f"{key} {client_key(request.scope)}")
        if await ctx.accounts.known_device(key, device):
            assert device is not None
            await ratelimit.check_key(request, "login_user", f"{key} {token_hash(device)}")
        else:
            await ratelimit.check_key(request, "login_user_global", key)
    made = await ctx.accounts.sign_in(body.username, body.password, device)
    return signed_in(made, request, response, ctx)


@router.post("/accounts/logout", responses=CREDENTIALS)
async def sign_out(ctx: CtxDep, player: PlayerTokenDep) -> dict[str, str]:
    """End this device's session: its token stops working."""
    await ctx.accounts.sign_out(player)
    return {"status": "signed_out"}


@router.get("/accounts/me", response_model=AccountOut, responses=CREDENTIALS)
async def about_me(ctx: CtxDep, player: PlayerTokenDep) -> AccountOut:
    """The caller's own player: its username (if an account) and its sessions."""
    found = await ctx.accounts.about(player)
    sessions = [
        SessionOut(session_id=s.session_id, created_at=s.created_at.isoformat(), current=s.current)
        for s in found.sessions
    ]
    return AccountOut(
        player_id=found.player_id, name=found.name, username=found.username, sessions=sessions
    )


@router.delete(
    "/accounts/sessions/{session_id}", responses={**CREDENTIALS, 404: {"model": ErrorBody}}
)
async def revoke_session(session_id: str, ctx: CtxDep, player: PlayerTokenDep) -> dict[str, str]:
    """End one of the caller's sessions (another device's)."""
    await ctx.accounts.revoke(player, session_id)
    return {"status": "revoked"}


@router.post("/accounts/password", responses={**CREDENTIALS, **SIGN_UP, **BUSY})
async def change_password(
    body: PasswordBody, request: Request, ctx: CtxDep, player: PlayerTokenDep
) -> dict[str, str]:
    """A new password: every other session of the account ends, and only this browser stays
    a known device."""
    device = request.cookies.get(DEVICE_COOKIE)
    await ctx.accounts.change_password(player, body.old_password, body.new_password, device)
    return {"status": "changed"}


@router.delete("/players/me", responses={**CREDENTIALS, **BUSY})
async def delete_me(body: DeleteBody, ctx: CtxDep, player: PlayerTokenDep) -> dict[str, str]:
    """Delete the caller's player (an account gives its password): its matches stay, shown
    with "Deleted player"."""
    await ctx.accounts.delete(player, body.password)
    return {"status": "deleted"}


@router.get(
    "/players/me/matches",
    response_model=MyGamesOut,
    response_model_exclude_none=True,  # as in views: no player_id for a guest, no level...
    responses=CREDENTIALS,
)
async def my_games(ctx: CtxDep, player: PlayerTokenDep) -> MyGamesOut:
    """The caller's ongoing matches (those where it is its turn first), then recent ones."""
    found = await ctx.standings.my_games(player)
    ongoing = [
        MyMatchOut(
            match_id=m.match_id, game=m.game, role=m.role, status=m.status,  # type: ignore[arg-type]
            your_turn=m.your_turn, rated=m.rated,
            opponent=SeatPlayer.model_validate(m.opponent.wire_player()) if m.opponent else None,
            opponents=[SeatPlayer.model_validate(o.wire_player()) for o in m.opponents],
            updated_at=m.updated_at.isoformat() if m.updated_at else None,
        )
        for m in found.ongoing
    ]  # fmt: skip
    return MyGamesOut(ongoing=ongoing, recent=[played_out(p) for p in found.recent])


@router.get(
    "/players/{player_id}/ratings", response_model=HistoryOut, responses={404: {"model": ErrorBody}}
)
async def rating_history(player_id: str, ctx: CtxDep, game: str = "watergate") -> HistoryOut:
    """The player's rating after each of its newest rated matches in the game, oldest first."""
    points = await ctx.standings.history(player_id, game)
    return HistoryOut(
        game=game,
        points=[
            PointOut(match_id=p.match_id, rating=p.rating, rd=p.rd, at=p.at.isoformat())
            for p in points
        ],
    )


@router.get("/leaderboard", response_model=LeaderboardOut)
async def leaderboard(
    ctx: CtxDep,
    game: str = "watergate",
    limit: int = Query(default=50, ge=1, le=100),
    offset: int = Query(default=0, ge=0, le=1_000_000),
    board: Literal["humans", "bots"] = "humans",
) -> LeaderboardOut:
    """Rated players of the game by rating, best first, a page at a time: people's board, or
    with `board=bots` the bot accounts' own (contract v1.2 "Bots")."""
    bots = board == "bots"
    ranked, total = await ctx.standings.leaderboard(game, limit, offset, bots)
    rows = [
        RankedOut(
            rank=r.rank, player_id=r.player_id, name=r.name, rating=r.rating.rating,
            rd=r.rating.rd, provisional=provisional(r.rating.rd), games=r.rating.games, bot=bots,
        )
        for r in ranked
    ]  # fmt: skip
    return LeaderboardOut(game=game, board=board, total=total, offset=offset, players=rows)
