"""The Nations table as a newcomer meets it (issue 39): a whole match by clicks in Portuguese on a
desktop and on a phone, every card's whole text one tap away on a phone (in Portuguese and
German), a purchase that throws something away saying so first, the war's text with one verb,
"passed" forgotten when a new round starts, the end screen's ranking and its way to a new match,
and (once the server seats tables of several, contract v1.2) three people at one table from the
home page's invite links.

What the pages must show is built here from the game's data and the locale files, never read
back from the page's own code. Every wait is on the page's state (data attributes of #nations),
never a sleep. Screenshots: tests/e2e/output/nations-table-*.png."""

from __future__ import annotations

import json
import random
import re
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from engine.registry import get_game

from .conftest import LOCALES, fill
from .test_axe import violations
from .test_nations_browser import (
    CAUGHT_UP,
    MAX_CLICKS,
    MOVED_ON,
    caught_up,
    describe,
    state,
    take_a_turn,
    wait,
)
from .test_resign_rematch import STATUS_OF

Shot = Callable[..., Path]
META: dict[str, Any] = get_game("nations").metadata()
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LATE_ROUND = 4


def words(lang: str) -> dict[str, Any]:
    """The game's own words in `lang` (its data's translations)."""
    found: dict[str, Any] = META[f"i18n_{lang.replace('-', '_')}"]
    return found


def card(card_id: str) -> dict[str, Any]:
    for age in (1, 2, 3, 4):
        for c in META[f"age{age}"]["progress"]:
            if c["id"] == card_id:
                return dict(c)
    for c in META["board"]["starting_cards"]:
        if c["id"] == card_id:
            return dict(c)
    raise KeyError(card_id)


def expected_fragments(card_id: str, lang: str) -> list[str]:
    """Text a reader must find on the card's whole face: its name and, from the data, its
    deployment cost, attack, minimum strength and each simple effect, worded from the game's
    translation tables."""
    w = words(lang)
    terms = w["terms"]
    c = card(card_id)
    found = [w["cards"][card_id]]
    if "deploy" in c:
        found.append(f"{terms['deploy_cost']}: {c['deploy']} {terms['stone']}")
    if "attack" in c:
        found.append(f"{terms['attack']}: {c['attack']}")
    if "min_strength" in c:
        found.append(f"{terms['min_strength']}: {c['min_strength']}")
    for key in ("on_buy", "lasting", "per_worker"):
        for op in c.get(key, []):
            if op["op"] in ("produce", "consume", "gain"):
                resource = terms[op["resource"]]
                found.append(fill(w["ops"][op["op"]], amount=op["amount"], resource=resource))
            elif op["op"] == "score":
                found.append(fill(w["ops"]["score"], amount=op["amount"]))
    return found


def start_against_the_computer(page: Page, lang: str) -> None:
    """The home page in `lang`: Nations against the computer, by clicks."""
    page.goto(f"/?lang={lang}")
    page.get_by_label(LOCALES[lang]["games"]["nations"], exact=True).check()
    page.locator('input[name="opponent"][value="bot"]').check()
    page.locator("#start").click()
    expect(page).to_have_url(re.compile(r"/nations/match/[A-Za-z0-9_-]+$"))


def passed_marks(page: Page) -> int:
    return page.locator("#nations .n-passed-badge, #nations .n-passed").count()


def play_to_the_end(
    page: Page, rnd: random.Random, on_turn: Callable[[], None] | None = None
) -> int:
    """Clicks for the seat until the match against the computer is over (as
    test_nations_browser.play_by_clicks); `on_turn` looks at the table before each decision."""
    pages = {"p": page}
    clicks = 0
    while True:
        wait(page, MOVED_ON, -1, pages, "my decision or the end")
        table = state(page)
        if not caught_up(table, table["version"]):
            wait(page, CAUGHT_UP, table["version"], pages, "the table at rest")
            table = state(page)
        if table["status"] == "finished":
            return clicks
        if not table["mine"]:
            continue
        if on_turn:
            on_turn()
        take_a_turn(page, rnd, pages)
        clicks += 1
        assert clicks < MAX_CLICKS, f"the match does not end: {describe(pages)}"


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_whole_nations_match_by_clicks_in_portuguese(
    open_page: Callable[..., Page], shot: Shot, size: str
) -> None:
    page = open_page(prefs={}, locale="pt-BR", **(DESKTOP if size == "desktop" else PHONE))
    pt = LOCALES["pt-BR"]
    start_against_the_computer(page, "pt-BR")
    table = page.locator("#nations")
    expect(table).to_have_attribute("data-mine", "true")
    # every nation is on the table: the seat's own board and the other's summary, named
    expect(page.locator("#n-mine .n-nation")).to_have_count(1)
    expect(page.locator("#n-theirs .n-other")).to_have_count(1)
    other = page.locator("#n-theirs .n-other-toggle")
    computer = fill(pt["names"]["computer_level"], level=pt["ui"]["level_normal"])
    expect(other).to_contain_text(computer)  # the computer, with its level
    assert violations(page) == [], "a live Nations table"
    shot(page, f"nations-table-{size}-early", full_page=False)

    seen_late = False

    def look() -> None:
        nonlocal seen_late
        phase = table.get_attribute("data-phase")
        # a new round's growth: nobody has passed in it, whatever the last round did
        if phase == "growth":
            assert passed_marks(page) == 0, "a nation still shows 'passed' in a new round"
        # the prompt's line under it says why a piece is closed, never which card was clicked
        assert "form-error" not in (page.locator("#n-why").get_attribute("class") or "")
        round_text = page.locator("#n-round").inner_text()
        found = re.search(r"\d+", round_text)
        if not seen_late and found and int(found[0]) >= LATE_ROUND and phase == "turn":
            seen_late = True
            shot(page, f"nations-table-{size}-late", full_page=False)
            if size == "phone":  # the other nations have a tab of their own
                page.locator(".n-tab[data-tab='nations']").click()
            other.click()  # the other nation's whole board opens from its summary
            expect(page.locator("#n-theirs .n-other-board .n-nation")).to_be_visible()
            assert violations(page) == [], "a Nations table with another nation open"
            shot(page, f"nations-table-{size}-late-other", full_page=False)
            other.click()
            if size == "phone":
                page.locator(".n-tab[data-tab='board']").click()

    match_id = page.url.rsplit("/", 1)[1]
    play_to_the_end(page, random.Random(match_id), look)
    assert seen_late, "the match ended before the late round"

    final = page.locator("#n-final")
    expect(final).to_be_visible()
    # the ranking of every nation, best first, agreeing with the score sheet's totals
    places = final.locator(".end-ranking li")
    expect(places).to_have_count(2)
    scores = [int(x) for x in final.locator(".end-ranking .end-place-score").all_inner_texts()]
    assert scores == sorted(scores, reverse=True)
    totals = [int(x) for x in final.locator(".n-sheet-total td").all_inner_texts()]
    assert sorted(totals, reverse=True) == scores
    # the seat's analysis: its chance after each decision, and how it was estimated
    final.get_by_role("button", name=pt["ui"]["analyse"]).click()
    analysis = final.locator(".analysis")
    expect(analysis.locator("svg.chart")).to_be_visible(timeout=60_000)
    expect(analysis).to_contain_text(pt["nations"]["analysis_note"])
    assert violations(page) == [], "a finished Nations table"
    shot(page, f"nations-table-{size}-final", full_page=False)
    # a new match: back to the home page's form, Nations chosen
    final.get_by_role("link", name=pt["ui"]["play_again"]).click()
    expect(page).to_have_url(re.compile(r"/\?game=nations#new-match$"))
    expect(page.get_by_label(pt["games"]["nations"], exact=True)).to_be_checked()
    expect(page.locator("#seat-plan")).to_be_visible()


@pytest.mark.parametrize("lang", ["en", "pt-BR", "de"])
def test_on_a_phone_every_card_reads_whole_in_one_tap(
    open_page: Callable[..., Page], shot: Shot, lang: str
) -> None:
    page = open_page(prefs={}, locale=lang, **PHONE)
    start_against_the_computer(page, lang)
    table = page.locator("#nations")
    expect(table).to_have_attribute("data-mine", "true")
    version = table.get_attribute("data-version")
    sheet = page.locator("#n-sheet")
    close = LOCALES[lang]["ui"]["close"]
    tiles = page.locator(".n-area-progress .n-card[data-card]")
    assert tiles.count() == 15, "three rows of five cards"
    for i in range(tiles.count()):
        tile = tiles.nth(i)
        card_id = tile.get_attribute("data-card") or ""
        tile.tap()
        expect(sheet).to_be_visible()
        text = sheet.inner_text()
        for fragment in expected_fragments(card_id, lang):
            assert fragment in text, f"{card_id}: {fragment!r} is not in its sheet: {text!r}"
        # the whole face is in sight: nothing of it clipped or off the screen
        face = sheet.locator(".n-card")
        assert face.evaluate("e => e.scrollHeight <= e.clientHeight + 1")
        box = face.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= 844, f"{card_id}: {box}"
        if i == 0:
            shot(page, f"nations-table-phone-sheet-{lang}", full_page=False)
        sheet.get_by_role("button", name=close).tap()
        expect(sheet).to_be_hidden()
    # reading a card bought nothing
    assert table.get_attribute("data-version") == version
    # the seat's own cards show their whole text on the board itself (a tap on them acts)
    for tile in page.locator(".n-area-mine .n-card[data-card]").all():
        card_id = tile.get_attribute("data-card") or ""
        text = tile.inner_text()
        for fragment in expected_fragments(card_id, lang):
            assert fragment in text, f"{card_id}: {fragment!r} is not on its tile: {text!r}"
        assert tile.evaluate("e => e.scrollHeight <= e.clientHeight + 1"), f"{card_id} is cut"
    # and every resource's name and board heading reads whole ("Military Str…", "Wonder unde…")
    names = page.locator(".n-res-name, .n-lower .n-h3")
    assert names.count() > 0
    for name in names.all():
        assert name.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), name.inner_text()


def test_the_war_text_says_its_verb_once_in_every_language(open_page: Callable[..., Page]) -> None:
    wars = [c for a in (1, 2, 3, 4) for c in META[f"age{a}"]["progress"] if c["type"] == "war"]
    assert wars
    for lang in ("en", "pt-BR", "de"):
        w = words(lang)
        page = open_page(prefs={}, locale=lang)
        page.goto(f"/nations/cards?lang={lang}")
        for war in wars:
            losses = ", ".join(
                f"{op['amount']} {w['terms'][op['resource']]}" for op in war["defeat"]
            )
            line = fill(w["ops"]["war_defeat"], effects=losses)
            face = page.locator(f'#n-gallery .n-card[data-card="{war["id"]}"]')
            expect(face.locator(".n-card-line", has_text=line)).to_have_count(1)


def test_resigning_is_asked_in_the_page_in_its_language(open_page: Callable[..., Page]) -> None:
    """The Nations table asks in its own dialog (never confirm()), saying what leaving a table
    does; Cancel (focused) keeps the match, Resign ends it."""
    page = open_page(locale="de")
    start_against_the_computer(page, "de")
    asked = LOCALES["de"]["nations"]["resign_confirm"]
    question = page.get_by_role("dialog", name=asked)
    for answer in ("cancel", "resign"):
        page.locator("#n-menu summary").click()
        page.locator("#n-resign").click()
        expect(question).to_be_visible()
        expect(question.get_by_role("button", name=LOCALES["de"]["ui"]["cancel"])).to_be_focused()
        question.get_by_role("button", name=LOCALES["de"]["ui"][answer], exact=True).click()
        expect(question).to_be_hidden()
        if answer == "cancel":  # the match goes on (asked after the dialog closed)
            assert page.evaluate(STATUS_OF, page.url.rsplit("/", 1)[1]) == "active"
    expect(page.locator("#n-final")).to_be_visible()


LOG_LINE = """async (e) => (await import("/static/js/nations/summary.js")).logLine(e, {}, null)"""


def test_a_loss_is_logged_as_a_loss_in_every_language(open_page: Callable[..., Page]) -> None:
    """An event's negative gain reads "Nation 1 loses 2 Books", never "gains -2 Books"."""
    for lang in ("en", "pt-BR", "de"):
        n = LOCALES[lang]["nations"]
        page = open_page(prefs={}, locale=lang)
        page.goto(f"/nations/cards?lang={lang}")
        said = {
            amount: page.evaluate(
                LOG_LINE, {"type": "gained", "seat": "p1", "resource": "books", "amount": amount}
            )
            for amount in (-2, 3)
        }
        nation, books = n["seats"]["p1"], words(lang)["terms"]["books"]
        assert said == {
            -2: fill(n["log"]["lost"], nation=nation, amount=2, resource=books),
            3: fill(n["log"]["gained"], nation=nation, amount=3, resource=books),
        }


def api(server: str, path: str, body: Any = None, token: str | None = None) -> Any:
    request = urllib.request.Request(
        server + path,
        data=None if body is None else json.dumps(body).encode(),
        method="GET" if body is None else "POST",
        headers={
            "Content-Type": "application/json",
            **({"Authorization": f"Bearer {token}"} if token else {}),
        },
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def test_a_purchase_that_throws_something_away_says_so_first(
    open_page: Callable[..., Page], server: str
) -> None:
    """The sheet's notes for a real view of a live match, changed to hold an advisor and a wonder
    under construction: buying another advisor or wonder names what it discards."""
    made = api(server, "/api/matches", {"game": "nations", "opponent": "bot", "role": "p1"})
    view = api(server, f"/api/matches/{made['match_id']}", token=made["seat_token"])
    me = made["role"]
    advisors = [c["id"] for c in META["age1"]["progress"] if c["type"] == "advisor"]
    wonders = [c for c in META["age1"]["progress"] if c["type"] == "wonder"]
    nation = view["state"]["nations"][me]
    nation["advisor"] = advisors[0]
    nation["wonder"] = {"card": wonders[0]["id"], "sections": wonders[0]["sections"], "built": 1}
    page = open_page(prefs={})
    page.goto("/nations/cards")
    notes = page.evaluate(
        """async ([view, me, cards]) => {
          const { buyNotes } = await import("/static/js/nations/choices.js");
          return cards.map((c) => buyNotes(view, me, c));
        }""",
        [view, me, [advisors[1], wonders[1]["id"]]],
    )
    en, cards = LOCALES["en"]["nations"], words("en")["cards"]
    assert notes[0] == [fill(en["note_advisor"], old=cards[advisors[0]])]
    stone = wonders[0]["sections"][0]
    assert notes[1] == [
        fill(en["note_wonder_built"], old=cards[wonders[0]["id"]], built=1, stone=stone)
    ]


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_three_people_at_one_nations_table_from_the_invite_links(
    open_page: Callable[..., Page], server: str, shot: Shot, lang: str
) -> None:
    """Three browsers, by clicks only; in Portuguese the second player is on a phone, and the
    table of three has no serious accessibility finding on either size."""
    loc = LOCALES[lang]
    desktop = {"viewport": {"width": 1280, "height": 800}, "locale": lang}
    creator = open_page(prefs={}, **desktop)
    creator.goto("/")
    creator.get_by_label(loc["games"]["nations"], exact=True).check()
    creator.locator('input[name="role"][value="p1"]').check()
    creator.locator('input[name="opponent"][value="human"]').check()
    creator.locator("#players").select_option("3")
    for seat in ("p2", "p3"):
        expect(creator.locator(f'.seat-row[data-seat="{seat}"] .seat-kind')).to_have_value("human")
    creator.locator("#start").click()
    expect(creator).to_have_url(re.compile(r"/nations/match/[A-Za-z0-9_-]+$"))
    match_id = creator.url.rsplit("/", 1)[1]
    invite = creator.locator("#n-invite")
    expect(invite).to_be_visible()
    rows = invite.locator(".n-invite-row")
    expect(rows).to_have_count(2)  # one link per open seat, each with its copy button
    expect(rows.locator(".n-copy")).to_have_count(2)
    expect(creator.locator("#n-open-seats")).to_contain_text(loc["nations"]["seats"]["p2"])
    links = [r.locator("input").input_value() for r in rows.all()]
    shot(creator, f"nations-table-three-waiting-{lang}", full_page=False)
    pages = {"p1": creator}
    for seat, link in zip(("p2", "p3"), links, strict=True):
        size = PHONE if lang == "pt-BR" and seat == "p2" else desktop
        guest = open_page(prefs={}, **{**size, "locale": lang})
        guest.goto(link)
        guest.locator("#join").click()
        expect(guest).to_have_url(re.compile(f"/nations/match/{match_id}$"))
        pages[seat] = guest
    expect(invite).to_be_hidden()
    for page in pages.values():
        expect(page.locator("#n-theirs .n-other")).to_have_count(2)  # every other nation
    if lang == "pt-BR":
        for seat in ("p1", "p2"):  # a desktop and a phone at a table of three
            assert violations(pages[seat]) == [], seat
    from .test_nations_browser import play_by_clicks

    play_by_clicks(pages, random.Random(match_id))
    for page in pages.values():
        expect(page.locator("#n-final .end-ranking li")).to_have_count(3)
    if lang == "pt-BR":
        shot(pages["p2"], "nations-table-three-final-phone-pt-BR", full_page=False)
    shot(creator, f"nations-table-three-final-{lang}", full_page=False)


def test_an_analysis_swing_opens_its_step_of_the_replay(
    open_page: Callable[..., Page], server: str
) -> None:
    """Issue 42 item 11: a swing the end screen's analysis names is a link to its step of the
    table's replay ("/nations/replay/{id}#2"), which opens on that step."""
    made = api(server, "/api/matches", {"game": "nations", "opponent": "bot", "role": "p1"})
    match_id, token = made["match_id"], made["seat_token"]
    for _ in range(500):  # the person's moves, the computer's answers, until a few are played
        view = api(server, f"/api/matches/{match_id}", token=token)
        if view["version"] >= 4:
            break
        if view["legal_actions"]:
            body = {"action": view["legal_actions"][0], "expected_version": view["version"]}
            api(server, f"/api/matches/{match_id}/actions", body, token)
    api(server, f"/api/matches/{match_id}/resign", {}, token)
    steps = api(server, f"/api/replays/{match_id}")["steps"]
    assert len(steps) > 3
    moves = [
        {"seq": 1, "before": 0.5, "after": 0.5, "best": {"type": "pass"}},
        {"seq": 2, "before": 0.6, "after": 0.2, "best": {"type": "pass"}},
    ]
    seat = {"role": made["role"], "token": token, "inviteUrl": None, "invites": None}
    page = open_page(prefs={f"wg.seat.{match_id}": json.dumps(seat)})
    page.route(
        f"**/api/matches/{match_id}/analysis",
        lambda route: route.fulfill(json={"moves": moves}),
    )
    page.goto(f"/nations/match/{match_id}")
    page.get_by_role("button", name=LOCALES["en"]["ui"]["analyse"]).click()
    swing = page.locator(".analysis-swings a")
    expect(swing).to_have_count(1)  # only the drop is a swing
    expect(swing).to_have_attribute("href", f"/nations/replay/{match_id}#2")
    swing.click()
    step = fill(LOCALES["en"]["nations"]["replay_step"], k=2, n=len(steps) - 1)
    expect(page.locator("[data-step=info]")).to_have_text(step)
