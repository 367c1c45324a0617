"""HTML pages: home, lobby, invite landing, match table, public replay, rules, how we deal.
Templates only lay out the page and embed the bootstrap data; the browser renders the rest from
the API."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from engine.registry import DEFAULT_GAME, get_game
from engine.watergate.versions import RULES_VERSION, VERSIONS

from ..games import SITES, site
from ..lessons import checked_lesson
from .assets import page_modules
from .editions import shown_version, worded
from .i18n import LOCALES, locale, pick
from .links import link_base
from .paths import TEMPLATES
from .security import template_context

router = APIRouter(include_in_schema=False)
# every template sees `csp_nonce`, the nonce its <script> tags carry
templates = Jinja2Templates(directory=str(TEMPLATES), context_processors=[template_context])
SERVER_ONLY = ("developers",)  # locale sections only templates lay out: kept out of the scripts


def meta(game_id: str = DEFAULT_GAME) -> dict[str, Any]:
    """Static component data for the browser (no secrets): board map, layout and cards."""
    return dict(get_game(game_id).metadata())


def _i18n(lang: str) -> str:
    """The metadata key of a language's card texts (Nations: i18n_pt_BR)."""
    return "i18n_" + lang.replace("-", "_")


def script_json(data: object) -> str:
    """JSON to embed in a <script> element: every <, > and & as a JSON escape, so that no text a
    visitor put in the address (an invite code like "<!--<script>") can end the element early or
    send the HTML parser into its double-escaped script state, which would swallow the page."""
    text = json.dumps(data, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _page(
    request: Request,
    template: str,
    game: str = DEFAULT_GAME,
    shown: dict[str, Any] | None = None,
    **extra: Any,
) -> HTMLResponse:
    """The page: `extra` goes to the template and the script's bootstrap data alike, `shown` to
    the template only (what the HTML itself lays out)."""
    lang = pick(request)
    strings = locale(lang)
    # link_base: where the table's spectator link points (BASE_URL, or an allowed Host)
    base = link_base(request, request.app.state.ctx.settings)
    # a game's card texts in every language are large: the page carries its own language's
    data = {k: v for k, v in meta(game).items() if not k.startswith("i18n_") or k == _i18n(lang)}
    # the developers' page's words are laid out by its template alone: no script needs them
    scripted = {k: v for k, v in strings.items() if k not in SERVER_ONLY}
    boot = {"lang": lang, "locale": scripted, "meta": data, "link_base": base, "game": game}
    boot |= extra
    response = templates.TemplateResponse(
        request,
        template,
        {
            "lang": lang,
            "t": strings["ui"],
            "L": strings,
            "languages": [(code, locale(code)["lang_name"]) for code in LOCALES],
            "bootstrap": script_json(boot),
            "cards": [data["cards"][c] for c in sorted(data["cards"])] if "cards" in data else [],
            "game": game,
            "preload": page_modules(template),
            **extra,
            **(shown or {}),
        },
    )
    if request.query_params.get("lang") == lang:
        response.set_cookie("lang", lang, max_age=365 * 86400, samesite="lax")
    return response


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    """Start a match."""
    editions = {
        "editions": sorted(VERSIONS, key=int, reverse=True),
        "current_edition": RULES_VERSION,
    }
    return _page(request, "home.html", page="home", shown=editions)


@router.get("/lobby", response_class=HTMLResponse)
async def lobby(request: Request) -> HTMLResponse:
    """The public lobby: open challenges, live; open one, join one, or quick pairing (a
    challenge under an earlier rules edition than today's is named so)."""
    return _page(request, "lobby.html", page="lobby", shown={"current_edition": RULES_VERSION})


@router.get("/invite/{code}", response_class=HTMLResponse)
async def invite(request: Request, code: str) -> HTMLResponse:
    """The invited player's landing page: claims the seat in the browser."""
    facts = await request.app.state.ctx.views.invite_facts(code[:128])
    game = facts["game"] if facts else DEFAULT_GAME
    shown = {"facts": facts}  # who invites, the seat taken, the clock (issue 42)
    return _page(
        request, "invite.html", page="invite", code=code[:128], invite_game=game, shown=shown
    )


async def _table_page(
    request: Request, kind: str, match_id: str, prefix: str, **extra: Any
) -> Response:
    """A match's table (`kind` match | watch | replay) at its game's address: a page asked for
    under another game's address moves to its own (a link, an invite, the replay list need
    not know the game); an unknown id gets the page asked for, which says so itself."""
    match_id = match_id[:64]
    views = request.app.state.ctx.views
    table = await views.table_of(match_id, ended=kind == "replay")
    found = None if table is None else table[0]
    if found is None and kind == "replay":  # live or missing alike: the page asked for, which
        # says so itself (a replay's address must not tell that a live match exists)
        found = next(g for g, s in SITES.items() if s.prefix == prefix)
    game = found or DEFAULT_GAME
    # the edition its match plays, named on the page (issue 41); none for no such match
    edition = table[1] if table is not None and table[1] in VERSIONS else None
    here = site(game)
    if here.prefix != prefix:
        query = f"?{request.url.query}" if request.url.query else ""
        to = f"{here.prefix}/{kind}/{quote(match_id, safe='')}{query}"
        return RedirectResponse(to, status_code=307)
    shown: dict[str, Any] = {"rules_version": edition}
    if kind != "replay":  # a tournament game's table leads back to its tournament (issue 46)
        shown["tournament"] = await request.app.state.ctx.tournaments.of_match(match_id)
    if kind == "replay" and game == DEFAULT_GAME:
        return _page(request, "replay.html", page="public-replay", match_id=match_id, shown=shown)
    page = {"match": "match", "watch": "match", "replay": "public-replay"}[kind]
    return _page(
        request, here.template, game=game, page=page, match_id=match_id, shown=shown, **extra
    )


@router.get("/match/{match_id}", response_class=HTMLResponse)
async def match(request: Request, match_id: str) -> Response:
    """The table."""
    return await _table_page(request, "match", match_id, "")


@router.get("/match/{match_id}/here", response_class=HTMLResponse)
async def seat_here(request: Request, match_id: str) -> HTMLResponse:
    """Where a table sends a browser holding no seat in it: a signed-in player's own seat is
    fetched for this device (contract v1.2) and the table opens again; anyone else is told."""
    return _page(request, "seat_here.html", page="seat-here", match_id=match_id[:64])


@router.get("/watch/{match_id}", response_class=HTMLResponse)
async def watch(request: Request, match_id: str, key: str = "") -> Response:
    """A spectator's read-only table: public information only."""
    return await _table_page(request, "watch", match_id, "", spectator=True, spectator_key=key[:64])


@router.get("/replay/{match_id}", response_class=HTMLResponse)
async def public_replay(request: Request, match_id: str) -> Response:
    """An ended match step by step as spectators saw it, with the check of its deal (the page
    is the same for any id: only its API call tells an ended match from anything else)."""
    return await _table_page(request, "replay", match_id, "")


@router.get("/nations/match/{match_id}", response_class=HTMLResponse)
async def nations_match(request: Request, match_id: str) -> Response:
    """A Nations table."""
    return await _table_page(request, "match", match_id, "/nations")


@router.get("/nations/watch/{match_id}", response_class=HTMLResponse)
async def nations_watch(request: Request, match_id: str, key: str = "") -> Response:
    """A spectator's read-only Nations table."""
    return await _table_page(
        request, "watch", match_id, "/nations", spectator=True, spectator_key=key[:64]
    )


@router.get("/nations/replay/{match_id}", response_class=HTMLResponse)
async def nations_replay(request: Request, match_id: str) -> Response:
    """An ended Nations match step by step, with the check of its deal."""
    return await _table_page(request, "replay", match_id, "/nations")


@router.get("/nations/cards", response_class=HTMLResponse)
async def nations_cards(request: Request) -> HTMLResponse:
    """Every Nations card, filterable, drawn from the engine's data in the page's language."""
    return _page(request, "nations_cards.html", game="nations", page="nations-cards")


# The Nations lesson, and the topic it shows each section of the Nations rules with (locale
# nations.rules.sections, in order; None: no step shows it), for the "learn it" links.
NATIONS_LESSON: str | None = "p1"
NATIONS_RULE_TOPICS: tuple[str | None, ...] = (
    None,  # the goal: the whole match
    "growth",
    "row1",  # buying progress cards
    "deploy",  # workers
    "architect",  # wonders
    "war",
    "production",  # production and shortage
    "age_scoring",  # the end of an age
)


@router.get("/nations/rules", response_class=HTMLResponse)
async def nations_rules(request: Request) -> HTMLResponse:
    """Nations' rules in plain words; each rule links to the lesson step that shows it."""
    return _page(
        request,
        "nations_rules.html",
        game="nations",
        page="nations-rules",
        lesson=NATIONS_LESSON,
        rule_topics=NATIONS_RULE_TOPICS,
    )


@router.get("/learn/{game}/{lesson}", response_class=HTMLResponse)
async def learn(request: Request, game: str, lesson: str, at: str = "") -> HTMLResponse:
    """Starts a tutorial (at the step teaching `at`, from the rules page) and opens its table."""
    path = checked_lesson(game[:32], lesson[:32])
    strings = locale(pick(request))
    title = strings["lessons"][path.game.id][path.lesson.id]["title"]
    return _page(
        request,
        "learn.html",
        game=path.game.id,
        page="learn",
        lesson=f"{path.game.id}/{path.lesson.id}",
        topic=at[:32],
        lesson_title=title,
    )


@router.get("/watergate/cards", response_class=HTMLResponse)
async def watergate_cards(request: Request, version: str | None = None) -> HTMLResponse:
    """Every Watergate card, filterable, drawn from the engine's data in the page's language and
    worded as a rules version plays them (`?version=`, default today's)."""
    shown = shown_version(version)
    return _page(request, "watergate_cards.html", page="watergate-cards", rules_version=shown)


@router.get("/how-we-deal", response_class=HTMLResponse)
async def how_we_deal(request: Request) -> HTMLResponse:
    """How the cards are dealt and how anyone can check a deal afterwards, in plain words."""
    return _page(request, "fair.html", page="fair")


# Each section of the rules summary (locale rules.sections, in order) and the topic each lesson
# shows it with: its "learn it" links start that lesson at that step.
RULE_TOPICS: tuple[dict[str, str], ...] = (
    {"editor": "connection", "nixon": "momentum"},  # the goal
    {"editor": "evaluation", "nixon": "evaluation"},  # a round
    {"editor": "value", "nixon": "value"},  # playing a card
    {"editor": "reaction", "nixon": "reaction"},  # reactions
    {"editor": "pin", "nixon": "pin"},  # the evidence board
)


@router.get("/rules", response_class=HTMLResponse)
async def rules(request: Request, version: str | None = None) -> HTMLResponse:
    """The rules summary with the card list as a rules version words it (`?version=`, default
    today's: what every new match plays); each rule links to the lesson step showing it."""
    shown = shown_version(version)
    texts = worded(locale(pick(request)), shown)
    return _page(
        request, "rules.html", page="rules", rule_topics=RULE_TOPICS,
        shown={"rules_version": shown, "worded": texts, "current_version": RULES_VERSION,
               "versions": sorted(VERSIONS, key=int)},
    )  # fmt: skip
