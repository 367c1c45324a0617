"""Issue 42, the pages around the tables, in a browser: a player's replay of a match played under
an earlier rules edition words its cards as that edition did (the step-through used to word
every card by the first edition's texts, whatever its match played)."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from .conftest import LOCALES
from .test_browser import Shot

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
BROWSER_LOCALE = {"en": "en-US", "pt-BR": "pt-BR", "de": "de-DE"}
CHANGED_IN_4 = ("N04", "N13")  # cards edition 4 words anew (the locale's editions)


def call(base: str, path: str, body: Any = None, token: str | None = None) -> Any:
    request = urllib.request.Request(
        base + path,
        data=None if body is None else json.dumps(body).encode(),
        method="GET" if body is None else "POST",
        headers={
            "Content-Type": "application/json",
            **({"Authorization": f"Bearer {token}"} if token else {}),
        },
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def old_edition_match(base: str) -> dict[str, Any]:
    """A finished edition-4 match against the computer whose first step holds a card edition 4
    words otherwise than the first edition (the deal is random: a few tries)."""
    for _ in range(60):
        body = {"role": "editor", "opponent": "bot", "level": "easy", "rules_version": "4"}
        seat: dict[str, Any] = call(base, "/api/matches", body)
        call(base, f"/api/matches/{seat['match_id']}/resign", {}, seat["seat_token"])
        step = call(base, f"/api/matches/{seat['match_id']}/replay/0", token=seat["seat_token"])
        held = {c["id"] for hand in step["view"]["hands"].values() for c in hand}
        if held & set(CHANGED_IN_4):
            return seat | {"card": sorted(held & set(CHANGED_IN_4))[0]}
    raise AssertionError("no deal held a card edition 4 rewords")


def open_replay(open_page: Callable[..., Page], seat: dict[str, Any], lang: str, size: str) -> Page:
    stored = {"role": seat["role"], "token": seat["seat_token"], "inviteUrl": None, "invites": None}
    page = open_page(
        prefs={f"wg.seat.{seat['match_id']}": json.dumps(stored)},
        locale=BROWSER_LOCALE[lang],
        viewport=SIZES[size],
    )
    page.goto(f"/match/{seat['match_id']}/replay")
    return page


def test_a_replay_words_the_cards_as_its_edition_did(
    open_page: Callable[..., Page], server: str, shot: Shot
) -> None:
    seat = old_edition_match(server)
    for lang in ("en", "pt-BR", "de"):
        loc = LOCALES[lang]
        wording = loc["editions"]["4"]["cards"][seat["card"]]["text"]
        assert wording != loc["cards"][seat["card"]]["text"]
        for size in SIZES:
            page = open_replay(open_page, seat, lang, size)
            card = page.locator(f"#hands [data-card='{seat['card']}'] .card-text")
            expect(card).to_have_text(wording)
            if lang != "en":
                shot(page, f"pages-replay-edition4-{size}-{lang}", full_page=False)
            page.context.close()
