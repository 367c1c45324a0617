"""The developers' page, `/developers` (contract v1.2 "Bots", issue 45): the bot API in the
reader's language — a first bot step by step with the reference client, authentication and
scopes, every call and every stream message with an example, the rate limits as this server
is set, the conduct asked of bots, and what a bot sees (exactly its seat's projection). The
words come from the locales (`developers`); the examples, being code, are the same in every
language and live here (a test checks that every call shown is a route of the app)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from limits import parse_many

from ..services.chat import PHRASES
from .inflight import PAUSE_S
from .links import link_base
from .pages import _page

router = APIRouter(include_in_schema=False)


@dataclass(frozen=True)
class Call:
    """One call of the bot API as the page shows it; `id` names its words in the locales."""

    id: str
    method: str
    path: str
    auth: str  # a scope, or "X-Player-Token" for the account's own calls
    body: str = ""  # an example request body (JSON), if it takes one
    answer: str = ""  # an example answer (JSON, or JSON lines); empty: 204 No Content
    status: int = 200


SEAT = '"players": {"editor": {"kind": "human", "name": "robo", "player_id": "e213…", "bot": true},'
VIEW: Final = (
    '{"type": "view", "match_id": "cbc807db…", "role": "editor", "status": "active",\n'
    ' "version": 0, "rules_version": "5", "state": {…the seat\'s projection…},\n'
    ' "legal_actions": [{"type": "play_value", "card": "E15", "target": "initiative"}, …],\n'
    f" {SEAT}\n"
    '             "nixon": {"kind": "human", "name": "ana", "player_id": "442b…"}},\n'
    ' "clock": null, "rated": false, "winner": null, "win_reason": null,\n'
    ' "fairness": {"commitment": "bd804ec4…", "algorithm": "sha256-ctr/v1"},\n'
    ' "chat": [], "log": […]}'
)
CHALLENGE: Final = (
    '{"type": "challenge", "challenge": {"challenge_id": "e89a8454…",\n'
    ' "from": {"player_id": "442b…", "name": "ana"}, "game": "watergate", "players": 2,\n'
    ' "clock": "none", "rated": false, "expires_at": "2026-12-10T14:00:00+00:00"}}'
)
ANSWERED: Final = (
    '{"type": "challenge_declined", "challenge": {"challenge_id": "e89a8454…",\n'
    ' "match_id": "cbc807db…", "game": "watergate", "by": {"player_id": "442b…", "name": "ana"},\n'
    ' "reason": "later"}}'
)
STARTED: Final = '{"type": "match_start", "match": {"match_id": "cbc807db…"}}'
FINISHED: Final = (
    '{"type": "match_finish", "match": {"match_id": "cbc807db…", "status": "finished",\n'
    ' "winner": "nixon"}}'
)
CHAT: Final = (
    '{"type": "chat", "id": 12, "role": "nixon", "name": "ana", "text": "Good luck",\n'
    ' "at": 1796652000.0, "phrase": "good_luck"}'
)
ALL_SCOPES: Final = '["bot:play", "challenge:write", "match:read"]'

CALLS: Final = (
    Call(
        "token", "POST", "/api/account/tokens", "X-Player-Token",
        f'{{"scopes": {ALL_SCOPES}, "label": "my bot"}}',
        '{"token_id": "8150108111bdc652", "token": "PW89n3kP-14m…", "label": "my bot",\n'
        f' "scopes": {ALL_SCOPES}}}',
        201,
    ),
    Call(
        "tokens", "GET", "/api/account/tokens", "X-Player-Token", "",
        '{"tokens": [{"token_id": "8150108111bdc652", "label": "my bot",\n'
        f' "scopes": {ALL_SCOPES},\n'
        ' "created_at": "2026-12-07T14:00:00+00:00", "last_used_at": null}]}',
    ),
    Call("revoke", "DELETE", "/api/account/tokens/{token_id}", "X-Player-Token", status=204),
    Call("upgrade", "POST", "/api/bot/account/upgrade", "bot:play", "", '{"bot": true}'),
    Call("events", "GET", "/api/stream/events", "bot:play", "", f"{CHALLENGE}\n{STARTED}"),
    Call(
        "challenge", "POST", "/api/challenges", "challenge:write",
        '{"to": "442b1e48015f8135b050d5d5", "game": "watergate", "clock": "none",\n'
        ' "rated": false}',
        '{"challenge_id": "e89a8454…", "match_id": "cbc807db…", "role": "editor",\n'
        ' "seat_token": "BmoycgO6…", "invites": {}}',
        201,
    ),
    Call(
        "accept", "POST", "/api/challenges/{challenge_id}/accept", "challenge:write", "",
        '{"match_id": "cbc807db…", "role": "nixon", "seat_token": "RauWTWYq…"}',
    ),
    Call(
        "decline", "POST", "/api/challenges/{challenge_id}/decline", "challenge:write",
        '{"reason": "game"}', status=204,
    ),
    Call("cancel", "POST", "/api/challenges/{challenge_id}/cancel", "challenge:write", status=204),
    Call("stream", "GET", "/api/bot/matches/{match_id}/stream", "match:read", "", VIEW),
    Call(
        "act", "POST", "/api/bot/matches/{match_id}/actions", "bot:play",
        '{"action": {"type": "play_value", "card": "E15", "target": "initiative"},\n'
        ' "expected_version": 0}',
        VIEW.replace('"version": 0', '"version": 1'),
    ),
    Call("resign", "POST", "/api/bot/matches/{match_id}/resign", "bot:play", "",
         '{"status": "resigned"}'),
    Call("chat", "POST", "/api/bot/matches/{match_id}/chat", "bot:play",
         '{"phrase": "good_game"}', status=204),
    Call(
        "board", "GET", "/api/leaderboard?game=watergate&board=bots", "", "",
        '{"game": "watergate", "board": "bots", "total": 1, "offset": 0, "players": [\n'
        ' {"rank": 1, "player_id": "e213…", "name": "robo", "rating": 1562.0, "rd": 180.0,\n'
        '  "provisional": true, "games": 3, "bot": true}]}',
    ),
)  # fmt: skip

# each stream message the page explains, in order: (type, example)
EVENTS: Final = (
    ("challenge", CHALLENGE),
    ("challenge_answered", ANSWERED),
    ("match_start", STARTED),
    ("match_finish", FINISHED),
)
MATCH_LINES: Final = (("view", VIEW), ("chat", CHAT))
# the error codes a bot meets, by status (their words: developers.errors.codes)
ERRORS: Final = (
    (401, "unauthorized"),
    (403, "missing_scope"),
    (403, "not_a_bot"),
    (403, "not_your_seat"),
    (403, "bot_not_allowed"),
    (403, "bot_chat_phrases_only"),
    (403, "challenge_refused"),
    (409, "has_games"),
    (409, "stale_version"),
    (409, "challenge_closed"),
    (422, "illegal_action"),
    (422, "malformed_action"),
    (429, "rate_limited"),
    (429, "too_many_streams"),
    (429, "too_many_requests_in_flight"),
    (429, "too_many_sockets"),
)


def per_hour(notation: str) -> str:
    """A limit's notation as the page prints it ("120/minute;3000/hour" -> "120/min, 3000/h")."""
    units = {"second": "s", "minute": "min", "hour": "h", "day": "d"}
    return ", ".join(
        f"{item.amount}/{units.get(item.GRANULARITY.name, item.GRANULARITY.name)}"
        for item in parse_many(notation)
    )


@router.get("/developers", response_class=HTMLResponse)
async def developers(request: Request) -> HTMLResponse:
    """The bot API for developers, in the reader's language."""
    settings = request.app.state.ctx.settings
    limits = {
        "bot": per_hour(settings.rate_limit_bot),
        "bot_challenge": per_hour(settings.rate_limit_bot_challenge),
        "idle_hours": f"{settings.bot_idle_hours:g}",
        "sockets": str(settings.max_sockets_per_seat),
        "pause": f"{PAUSE_S:g}",
    }
    shown = {
        "calls": CALLS, "events": EVENTS, "match_lines": MATCH_LINES, "errors": ERRORS,
        "limits": limits, "base": link_base(request, settings), "phrases": tuple(PHRASES),
    }  # fmt: skip
    return _page(request, "developers.html", page="developers", shown=shown)
