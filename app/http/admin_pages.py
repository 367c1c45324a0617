"""Admin console pages (sign-in with the admin token once; an HttpOnly, SameSite=Strict cookie
after that) and players' replays of finished matches."""

from __future__ import annotations

from urllib.parse import parse_qs

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ..auth import SESSION_COOKIE, SESSION_SECONDS, new_session, same_secret
from .deps import CtxDep, is_admin
from .pages import _page

router = APIRouter(include_in_schema=False)


def _guard(request: Request) -> RedirectResponse | None:
    return None if is_admin(request) else RedirectResponse("/admin/login", status_code=303)


@router.get("/admin/login", response_class=HTMLResponse)
async def login_page(request: Request) -> Response:
    """The sign-in form."""
    return _page(request, "admin_login.html", page="admin-login", failed=False)


@router.post("/admin/login", response_class=HTMLResponse)
async def login(request: Request, ctx: CtxDep) -> Response:
    """Check the token once; answer with the signed session cookie."""
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
        new_session(expected),
        max_age=SESSION_SECONDS,
        httponly=True,
        samesite="strict",
        path="/",
        secure=request.url.scheme == "https",
    )
    return done


@router.post("/admin/logout")
async def logout() -> Response:
    """Forget the session."""
    response = RedirectResponse("/admin/login", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@router.get("/admin", response_class=HTMLResponse)
async def console(request: Request) -> Response:
    """The match list."""
    return _guard(request) or _page(request, "admin_list.html", page="admin")


@router.get("/admin/stats", response_class=HTMLResponse)
async def stats_page(request: Request) -> Response:
    """Statistics over all stored matches."""
    return _guard(request) or _page(request, "admin_stats.html", page="admin-stats")


@router.get("/admin/matches/{match_id}", response_class=HTMLResponse)
async def match_page(request: Request, match_id: str) -> Response:
    """One match: full state, actions, log and the step-through."""
    return _guard(request) or _page(
        request, "admin_match.html", page="admin-match", match_id=match_id[:64], mode="admin"
    )


@router.get("/match/{match_id}/replay", response_class=HTMLResponse)
async def replay_page(request: Request, match_id: str) -> Response:
    """A player's replay of a finished match, every hidden card shown."""
    return _page(request, "admin_match.html", page="replay", match_id=match_id[:64], mode="replay")
