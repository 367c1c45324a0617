"""Account endpoints: sign up (creating a player or upgrading the caller's), sign in on a new
device, sign out, sessions (list, revoke), password change, deleting oneself; and the
leaderboard, a player's rating history and "my games". Passwords travel in bodies only and are
never logged (the request log writes no bodies)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request

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
from .schemas import ErrorBody, PlayedOut, SeatPlayer

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


def played_out(p: Played) -> PlayedOut:
    opponent = SeatPlayer.model_validate(p.opponent.wire_player())
    others = [SeatPlayer.model_validate(o.wire_player()) for o in p.opponents]
    return PlayedOut(
        match_id=p.match_id, role=p.role, result=p.result, opponent=opponent, opponents=others
    )


@router.post("/accounts", status_code=201, response_model=SignedInOut, responses=SIGN_UP)
async def sign_up(body: SignUpBody, ctx: CtxDep, player: PlayerTokenDep) -> SignedInOut:
    """An account: with X-Player-Token the caller's player gets it (its name, matches and
    token carry over); without, a new player named `name` (or the username)."""
    made = await ctx.accounts.sign_up(player, body.username, body.password, body.name)
    return SignedInOut(**made.__dict__)


@router.post("/accounts/login", response_model=SignedInOut, responses=CREDENTIALS)
async def sign_in(body: SignInBody, request: Request, ctx: CtxDep) -> SignedInOut:
    """A player token for the account on this device (a new session). Throttled per client
    address (the route's limit) and per username."""
    await ratelimit.check_key(request, "login_user", body.username.strip().lower()[:64])
    made = await ctx.accounts.sign_in(body.username, body.password)
    return SignedInOut(**made.__dict__)


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


@router.post("/accounts/password", responses={**CREDENTIALS, **SIGN_UP})
async def change_password(
    body: PasswordBody, ctx: CtxDep, player: PlayerTokenDep
) -> dict[str, str]:
    await ctx.accounts.change_password(player, body.old_password, body.new_password)
    return {"status": "changed"}


@router.delete("/players/me", responses=CREDENTIALS)
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
) -> LeaderboardOut:
    """Rated players of the game by rating, best first, a page at a time."""
    ranked, total = await ctx.standings.leaderboard(game, limit, offset)
    rows = [
        RankedOut(
            rank=r.rank, player_id=r.player_id, name=r.name, rating=r.rating.rating,
            rd=r.rating.rd, provisional=provisional(r.rating.rd), games=r.rating.games,
        )
        for r in ranked
    ]  # fmt: skip
    return LeaderboardOut(game=game, total=total, offset=offset, players=rows)
