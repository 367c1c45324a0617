"""Admin console pages (sign-in with the admin token once; after that an HttpOnly,
SameSite=Strict cookie naming a session the server keeps, so signing out revokes it) and players'
replays of finished matches."""

from __future__ import annotations

from urllib.parse import parse_qs

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from engine.registry import DEFAULT_GAME

from ..auth import SESSION_COOKIE, SESSION_SECONDS, same_secret
from ..games import site
from .deps import CtxDep, SessionsDep, is_admin
from .pages import _page
from .security import secure_cookies

router = APIRouter(include_in_schema=False)


async def _guard(request: Request) -> RedirectResponse | None:
    if await is_admin(request):
        return None
    to_login = RedirectResponse("/admin/login", status_code=303)
    if SESSION_COOKIE in request.cookies:  # revoked, expired or junk: the browser forgets it
        to_login.delete_cookie(SESSION_COOKIE, path="/")
    return to_login


@router.get("/admin/login", response_class=HTMLResponse)
async def login_page(request: Request) -> Response:
    """The sign-in form."""
    return _page(request, "admin_login.html", page="admin-login", failed=False)


@router.post("/admin/login", response_class=HTMLResponse)
async def login(request: Request, ctx: CtxDep, sessions: SessionsDep) -> Response:
    """Check the token once; answer with the session cookie."""
    form = parse_qs((await request.body()).decode("utf-8", "replace"))
    token = (form.get("token") or [""])[0]
    expected = ctx.settings.admin_token
    if not expected or not token or not same_secret(token, expected):
        response = _page(request, "admin_login.html", page="admin-login", failed=True)
        response.status_code = 401
        return response
    done = RedirectResponse("/admin", status_code=303)
    done.set_cookie(
        SESSION_COOKIE,
        await sessions.open(),
        max_age=SESSION_SECONDS,
        httponly=True,
        samesite="strict",
        path="/",
        secure=secure_cookies(request, ctx.settings.base_url),
    )
    return done


def _signed_out() -> Response:
    response = RedirectResponse("/admin/login", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@router.post("/admin/logout")
async def logout(request: Request, sessions: SessionsDep) -> Response:
    """End this session on the server, so its cookie opens nothing even if it was copied."""
    await sessions.close(request.cookies.get(SESSION_COOKIE))
    return _signed_out()


@router.post("/admin/logout-all")
async def logout_everywhere(request: Request, sessions: SessionsDep) -> Response:
    """End every admin session on every device (a lost laptop, a shared computer)."""
    if await is_admin(request):
        await sessions.close_all()
    return _signed_out()


@router.get("/admin", response_class=HTMLResponse)
async def console(request: Request) -> Response:
    """The match list."""
    return await _guard(request) or _page(request, "admin_list.html", page="admin")


@router.get("/admin/stats", response_class=HTMLResponse)
async def stats_page(request: Request) -> Response:
    """Statistics over all stored matches."""
    return await _guard(request) or _page(request, "admin_stats.html", page="admin-stats")


@router.get("/admin/reports", response_class=HTMLResponse)
async def reports_page(request: Request) -> Response:
    """The moderators' report queue (issue 43). Not behind the admin guard: a moderator's
    account opens it too; the page holds no data, its script asks /api/mod/… as whoever it is
    (the admin's session cookie, or the moderator's player token)."""
    return _page(request, "admin_reports.html", page="admin-reports")


@router.get("/admin/tournaments", response_class=HTMLResponse)
async def tournaments_page(request: Request) -> Response:
    """Every tournament, private ones too (issue 46)."""
    guard = await _guard(request)
    return guard or _page(request, "admin_tournaments.html", page="admin-tournaments")


@router.get("/admin/tournaments/{tournament_id}", response_class=HTMLResponse)
async def tournament_page(request: Request, tournament_id: str) -> Response:
    """One tournament: its facts, cancel / pause / resume, its entrants (remove one), the record
    of actions and every pairing; its script reads and acts through the tournament API."""
    return await _guard(request) or _page(
        request, "admin_tournament.html", page="admin-tournament", tournament_id=tournament_id[:32]
    )


@router.get("/admin/matches/{match_id}", response_class=HTMLResponse)
async def match_page(request: Request, match_id: str) -> Response:
    """One match: full state, actions, log and the step-through (on its game's table)."""
    guard = await _guard(request)
    if guard is not None:
        return guard
    game = await request.app.state.ctx.views.game_of(match_id[:64]) or DEFAULT_GAME
    template = "admin_match.html" if game == DEFAULT_GAME else site(game).template
    return _page(request, template, game, page="admin-match", match_id=match_id[:64], mode="admin")


@router.get("/match/{match_id}/replay", response_class=HTMLResponse)
async def replay_page(request: Request, match_id: str) -> Response:
    """A player's replay of a finished match, every hidden card shown."""
    return _page(request, "admin_match.html", page="replay", match_id=match_id[:64], mode="replay")
