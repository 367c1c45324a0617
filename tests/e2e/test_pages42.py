"""Issue 42, the pages around the tables, in a browser: a player's replay of a match played under
an earlier rules edition words its cards as that edition did (the step-through used to word
every card by the first edition's texts, whatever its match played)."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from .conftest import LOCALES
from .test_browser import Shot

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
BROWSER_LOCALE = {"en": "en-US", "pt-BR": "pt-BR", "de": "de-DE"}
WHOLE = "e => e.scrollHeight <= e.clientHeight + 1 && e.scrollWidth <= e.clientWidth + 1"
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
            expect(card).to_be_visible()  # on a phone too: the whole card, not its name cut off
            for text in page.locator("#hands .card-text").all():
                assert text.evaluate(WHOLE), text.text_content()  # no card's text is clipped
            in_view_after_scroll = page.locator(f"#hands [data-card='{seat['card']}']")
            edition = page.locator("#rules-edition")
            expect(edition).to_contain_text(loc["rules_edition"]["names"]["4"])
            expect(edition.locator("a")).to_have_attribute("href", re.compile(r"version=4$"))
            in_view_after_scroll.evaluate('e => e.scrollIntoView({ block: "center" })')
            if lang != "en":
                shot(page, f"pages-replay-edition4-{size}-{lang}", full_page=False)
            page.context.close()


def in_view(page: Page, selector: str) -> None:
    """The element is visible without scrolling (above the fold)."""
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    assert box["y"] + box["height"] <= page.viewport_size["height"], selector


def test_a_shared_match_address_offers_to_watch_or_says_it_is_private(
    open_page: Callable[..., Page], server: str, shot: Shot
) -> None:
    host = call(server, "/api/accounts", {"username": "sharing42", "password": "x" * 12})
    headers_body = {"role": "editor", "visibility": "public"}
    request = urllib.request.Request(
        server + "/api/matches",
        data=json.dumps(headers_body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "X-Player-Token": host["player_token"]},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        public = json.loads(answer.read())
    private = call(server, "/api/matches", {"role": "editor", "opponent": "bot"})
    for lang in ("pt-BR", "de"):
        ui = LOCALES[lang]["ui"]
        for size in SIZES:
            page = open_page(locale=BROWSER_LOCALE[lang], viewport=SIZES[size])
            page.goto(f"/match/{private['match_id']}")
            expect(page.locator("#here-status")).to_have_text(ui["here_private_title"])
            expect(page.locator("#here-text")).to_have_text(ui["here_private"])
            expect(page.locator("#here-watch")).to_be_hidden()
            in_view(page, "#here-text")
            shot(page, f"pages-private-{size}-{lang}", full_page=False)
            page.goto(f"/match/{public['match_id']}")
            expect(page.locator("#here-status")).to_have_text(ui["here_public_title"])
            in_view(page, "#here-watch")
            shot(page, f"pages-public-{size}-{lang}", full_page=False)
            page.context.close()
    page = open_page()
    page.goto(f"/match/{public['match_id']}")
    page.locator("#here-watch").click()
    expect(page).to_have_url(re.compile(rf"/watch/{public['match_id']}\?key="))


def test_a_signed_in_player_opens_a_match_on_a_second_device(
    open_page: Callable[..., Page], server: str, shot: Shot
) -> None:
    """/match/{id}/here fetches a signed-in player's own seat for this device (contract v1.2)."""
    me = call(server, "/api/accounts", {"username": "twodevices42", "password": "x" * 12})
    request = urllib.request.Request(
        server + "/api/matches",
        data=json.dumps({"role": "editor", "opponent": "bot", "level": "easy"}).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "X-Player-Token": me["player_token"]},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        made = json.loads(answer.read())
    kept = {"id": me["player_id"], "name": me["name"], "token": me["player_token"]}
    for lang in ("pt-BR", "de"):
        for size in SIZES:
            page = open_page(
                prefs={"wg.player": json.dumps(kept)},
                locale=BROWSER_LOCALE[lang],
                viewport=SIZES[size],
            )
            page.goto(f"/match/{made['match_id']}")
            expect(page).to_have_url(re.compile(rf"/match/{made['match_id']}$"))
            expect(page.locator("#here-status")).to_have_count(0)
            expect(page.locator("[data-version]").first).to_be_attached()
            shot(page, f"pages-second-device-{size}-{lang}", full_page=False)
            page.context.close()


def post(
    base: str, path: str, body: Any, player: str | None = None, token: str | None = None
) -> Any:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        method="POST",
        headers={
            "Content-Type": "application/json",
            **({"X-Player-Token": player} if player else {}),
            **({"Authorization": f"Bearer {token}"} if token else {}),
        },
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def test_my_games_the_profile_and_the_leaderboard_say_what_each_line_is(
    open_page: Callable[..., Page], server: str, shot: Shot
) -> None:
    """My games names each match's game, the computer's true level and a date; the profile's
    rating chart has named axes; the leaderboard lists one game at a time, either game."""
    me = call(server, "/api/accounts", {"username": "listed42", "password": "x" * 12})
    other = call(server, "/api/accounts", {"username": "rival42", "password": "x" * 12})
    easy = {"role": "editor", "opponent": "bot", "level": "easy"}
    post(server, "/api/matches", easy, me["player_token"])
    rated = post(server, "/api/matches", {"role": "editor", "rated": True}, me["player_token"])
    code = rated["invite_url"].rsplit("/", 1)[1]
    post(server, f"/api/invites/{code}/claim", {}, other["player_token"])
    post(server, f"/api/matches/{rated['match_id']}/resign", {}, token=rated["seat_token"])
    kept = {"id": me["player_id"], "name": me["name"], "token": me["player_token"]}
    de = LOCALES["de"]
    page = open_page(prefs={"wg.player": json.dumps(kept)}, locale="de-DE")
    page.goto("/")
    live = page.locator("#my-ongoing li").first
    expect(live).to_contain_text(f"{de['games']['watergate']} · {de['roles_cap']['editor']} · ")
    expect(live).to_contain_text(de["ui"]["level_easy"])
    expect(live).to_contain_text(re.compile(r"20\d\d"))  # its date
    expect(page.locator("#my-recent li").first).to_contain_text(re.compile(r"20\d\d"))

    page.goto(f"/players/{me['player_id']}")
    chart = page.locator("#rating-chart svg")
    expect(chart.locator(".axis")).to_have_count(2)
    expect(chart).to_contain_text(de["account"]["profile"]["chart_x"])
    expect(chart).to_contain_text(de["account"]["profile"]["chart_y"])
    shot(page, "pages-profile-de", full_page=False)

    page.goto("/leaderboard")
    expect(page.locator("#board-games [aria-current=page]")).to_have_text(de["games"]["watergate"])
    expect(page.locator("#board-rows tr")).to_have_count(2)
    page.locator("#board-games a[data-game=nations]").click()
    expect(page.locator("#board-games [aria-current=page]")).to_have_text(de["games"]["nations"])
    expect(page.locator("#board-empty")).to_be_visible()  # nobody has a Nations rating yet


def test_the_home_page_pitches_both_games_and_starts_either_above_the_fold(
    open_page: Callable[..., Page], shot: Shot
) -> None:
    """Issue 42 item 10: the home page pitched only Watergate, never said Nations is a game for
    several nations, and its Start was below the fold at 1280×800."""
    for lang in ("en", "pt-BR", "de"):
        home = LOCALES[lang]["home"]
        assert "2" in home["nations_pitch"] and "5" in home["nations_pitch"]
        for size in SIZES:
            page = open_page(locale=BROWSER_LOCALE[lang], viewport=SIZES[size])
            page.goto("/")
            expect(page.locator("#pitch-nations")).to_contain_text(home["nations_pitch"])
            expect(page.locator("#pitch-watergate")).to_contain_text(home["watergate_pitch"])
            for game in ("watergate", "nations"):
                in_view(page, f"[data-start={game}]")
            if lang != "en":
                shot(page, f"pages-home-{size}-{lang}", full_page=False)
            page.context.close()
    page = open_page()
    page.goto("/")
    page.locator("[data-start=nations]").click()
    expect(page).to_have_url(re.compile(r"/nations/match/"))


def test_a_waiting_table_without_its_invite_link_does_not_ask_to_open_it(
    open_page: Callable[..., Page], server: str
) -> None:
    """A lobby challenge opened on another device holds no invite link: its status bar used to
    say "waiting for your opponent to open the invite link" all the same."""
    me = call(server, "/api/accounts", {"username": "challenger42", "password": "x" * 12})
    made = post(
        server, "/api/matches", {"role": "editor", "visibility": "public"}, me["player_token"]
    )
    kept = {"id": me["player_id"], "name": me["name"], "token": me["player_token"]}
    de = LOCALES["de"]["ui"]
    page = open_page(prefs={"wg.player": json.dumps(kept)}, locale="de-DE")
    page.goto(f"/match/{made['match_id']}")
    expect(page.locator("#turn-indicator")).to_have_text(de["waiting_join"])
    expect(page.locator("#invite-box")).to_be_hidden()


def test_the_end_screen_has_one_replay_link_and_both_hands_are_one_click_on(
    open_page: Callable[..., Page], server: str
) -> None:
    """The finished table links one replay, the public one (to share, with the deal's check);
    two links there, "replay" and "replay", led to different pages (issue 42 item 11). In the
    seat's browser the public replay leads on to the seat's step-through with both hands shown."""
    seat = call(server, "/api/matches", {"role": "editor", "opponent": "bot"})
    call(server, f"/api/matches/{seat['match_id']}/resign", {}, seat["seat_token"])
    stored = {"role": seat["role"], "token": seat["seat_token"], "inviteUrl": None, "invites": None}
    replay = LOCALES["pt-BR"]["replay"]
    page = open_page(prefs={f"wg.seat.{seat['match_id']}": json.dumps(stored)}, locale="pt-BR")
    page.goto(f"/match/{seat['match_id']}")
    final = page.locator("#final")
    expect(final.get_by_role("link", name=replay["public_link"], exact=True)).to_be_visible()
    links = final.locator("a[href*='replay']")
    expect(links).to_have_count(1)
    expect(links).to_have_attribute("href", f"/replay/{seat['match_id']}")
    links.click()
    hands = page.get_by_role("link", name=replay["open_replay"], exact=True)
    expect(hands).to_have_attribute("href", f"/match/{seat['match_id']}/replay")
    hands.click()
    expect(page.locator("h1")).to_have_text(replay["open_replay"])  # the page the link named


def test_a_spectator_reads_who_is_to_move_not_that_they_wait(
    open_page: Callable[..., Page], server: str
) -> None:
    """The turn pill told a spectator "Waiting for the Editor…": nobody waits for a move they
    only watch (issue 42 item 11). It names who is to move, in the page's language."""
    seat = call(server, "/api/matches", {"role": "editor", "opponent": "bot"})
    view = call(server, f"/api/matches/{seat['match_id']}", None, seat["seat_token"])
    assert view["state"]["decision"]["role"] == "editor"  # R5: the Editor plays first
    for lang in ("en", "pt-BR", "de"):
        ui = LOCALES[lang]["ui"]
        page = open_page(locale=BROWSER_LOCALE[lang])
        page.goto(view["spectate_path"])
        role = LOCALES[lang]["roles_cap"]["editor"]
        expect(page.locator("#turn-indicator")).to_have_text(ui["to_move"].format(role=role))
        page.context.close()
