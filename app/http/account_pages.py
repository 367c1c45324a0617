"""HTML pages of players: a player's page (profile, rating chart), the leaderboard, and the
account page (sign up, sign in, sign out, sessions, delete). The browser fills them from the API."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from .pages import _page

router = APIRouter(include_in_schema=False)


@router.get("/players/{player_id}", response_class=HTMLResponse)
async def player_page(request: Request, player_id: str) -> HTMLResponse:
    return _page(request, "player.html", page="player", player_id=player_id[:64])


@router.get("/leaderboard", response_class=HTMLResponse)
async def leaderboard_page(request: Request) -> HTMLResponse:
    return _page(request, "leaderboard.html", page="leaderboard")


@router.get("/account", response_class=HTMLResponse)
async def account_page(request: Request) -> HTMLResponse:
    return _page(request, "account.html", page="account")
