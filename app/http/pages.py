"""HTML pages: home, lobby, invite landing, match table, public replay, rules, how we deal.
Templates only lay out the page and embed the bootstrap data; the browser renders the rest from
the API."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from engine.registry import DEFAULT_GAME, get_game

from .i18n import LOCALES, locale, pick
from .links import link_base
from .paths import TEMPLATES
from .security import template_context

router = APIRouter(include_in_schema=False)
# every template sees `csp_nonce`, the nonce its <script> tags carry
templates = Jinja2Templates(directory=str(TEMPLATES), context_processors=[template_context])


def meta() -> dict[str, Any]:
    """Static component data for the browser (no secrets): board map, layout and cards."""
    return dict(get_game(DEFAULT_GAME).metadata())


def _page(request: Request, template: str, **extra: Any) -> HTMLResponse:
    lang = pick(request)
    strings = locale(lang)
    # link_base: where the table's spectator link points (BASE_URL, or an allowed Host)
    base = link_base(request, request.app.state.ctx.settings)
    boot = {"lang": lang, "locale": strings, "meta": meta(), "link_base": base, **extra}
    response = templates.TemplateResponse(
        request,
        template,
        {
            "lang": lang,
            "t": strings["ui"],
            "L": strings,
            "languages": [(code, locale(code)["lang_name"]) for code in LOCALES],
            "bootstrap": json.dumps(boot, ensure_ascii=False).replace("</", "<\\/"),
            "cards": [boot["meta"]["cards"][c] for c in sorted(boot["meta"]["cards"])],
            **extra,
        },
    )
    if request.query_params.get("lang") == lang:
        response.set_cookie("lang", lang, max_age=365 * 86400, samesite="lax")
    return response


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    """Start a match."""
    return _page(request, "home.html", page="home")


@router.get("/lobby", response_class=HTMLResponse)
async def lobby(request: Request) -> HTMLResponse:
    """The public lobby: open challenges, live; open one, join one, or quick pairing."""
    return _page(request, "lobby.html", page="lobby")


@router.get("/invite/{code}", response_class=HTMLResponse)
async def invite(request: Request, code: str) -> HTMLResponse:
    """The invited player's landing page: claims the seat in the browser."""
    return _page(request, "invite.html", page="invite", code=code[:128])


@router.get("/match/{match_id}", response_class=HTMLResponse)
async def match(request: Request, match_id: str) -> HTMLResponse:
    """The table."""
    return _page(request, "match.html", page="match", match_id=match_id[:64])


@router.get("/watch/{match_id}", response_class=HTMLResponse)
async def watch(request: Request, match_id: str, key: str = "") -> HTMLResponse:
    """A spectator's read-only table: public information only."""
    return _page(
        request,
        "match.html",
        page="match",
        match_id=match_id[:64],
        spectator=True,
        spectator_key=key[:64],
    )


@router.get("/replay/{match_id}", response_class=HTMLResponse)
async def public_replay(request: Request, match_id: str) -> HTMLResponse:
    """An ended match step by step as spectators saw it, with the check of its deal (the page
    is the same for any id: only its API call tells an ended match from anything else)."""
    return _page(request, "replay.html", page="public-replay", match_id=match_id[:64])


@router.get("/how-we-deal", response_class=HTMLResponse)
async def how_we_deal(request: Request) -> HTMLResponse:
    """How the cards are dealt and how anyone can check a deal afterwards, in plain words."""
    return _page(request, "fair.html", page="fair")


@router.get("/rules", response_class=HTMLResponse)
async def rules(request: Request) -> HTMLResponse:
    """The rules summary with the card list."""
    return _page(request, "rules.html", page="rules")
