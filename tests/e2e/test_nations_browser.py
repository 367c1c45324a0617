"""The Nations table in the browser, played by clicks only: two friends in two browser contexts
from the home page's game choice and the invite link to the final score sheet; a match against
the computer; the public replay and the admin's step-through of a finished Nations match.

The deal is random, so a player loops on whatever the table offers: a highlighted board piece
(a progress card, a worker, a card to deploy on, the wonder, the population track, a resource) or
one of the few buttons for choices that have no board piece (a golden age's options, pass, cancel).
The accessible fallback list of every choice is never used. Each click is followed by a wait on
the page's own state (its view's version, or its pending selection), never by a sleep."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from engine.registry import get_game

from .conftest import ADMIN_TOKEN, LOCALES
from .test_axe import violations

Shot = Callable[..., Path]
MAX_CLICKS = 2500
EN = LOCALES["en"]
DESKTOP = {"width": 1280, "height": 800}


def start_from_home(page: Page, opponent: str, clock: str = "none") -> str:
    """Choose Nations on the home page and start; the match id of the table it opens."""
    page.goto("/")
    page.get_by_label(EN["games"]["nations"]).check()
    page.locator('input[name="role"][value="p1"]').check()  # the seats follow the game
    page.locator(f'input[name="opponent"][value="{opponent}"]').check()
    page.locator("#clock").select_option(clock)
    page.locator("#start").click()
    expect(page).to_have_url(re.compile(r"/nations/match/[A-Za-z0-9_-]+$"))
    # the table has loaded once its title names the game; "● " leads it whenever it is our turn
    expect(page).to_have_title(re.compile("^(● )?Nations"))
    return page.url.rsplit("/", 1)[1]


# what the table says of itself (data attributes of #nations), as conditions to wait on
CHANGED = """([v, pick]) => { const r = document.getElementById("nations");
  return r.dataset.busy === "false"
    && (Number(r.dataset.version) !== v || (r.dataset.pick || "") !== (pick || "")); }"""
CAUGHT_UP = """(v) => { const r = document.getElementById("nations");
  return Number(r.dataset.version) >= v && (r.dataset.status === "finished"
    || r.dataset.status === "active" && r.dataset.busy === "false"); }"""
MOVED_ON = """(v) => { const r = document.getElementById("nations");
  return Number(r.dataset.version) !== v
    && (r.dataset.mine === "true" || r.dataset.status === "finished"); }"""


# the table's own state in one call (a call to the browser costs about as much as a click's
# wait on a loaded machine, and a loop over a whole match makes thousands of them)
STATE = """() => { const r = document.getElementById("nations");
  return {version: Number(r.dataset.version || "-1"), status: r.dataset.status || null,
    mine: r.dataset.mine === "true", busy: r.dataset.busy || null,
    pick: r.dataset.pick || null}; }"""
# every piece offered (clickables' selectors, in the page's order): its data-kind and what it is
OFFERED = "#nations .n-table .is-target:visible, #n-controls button:visible"
KINDS = """(els) => els.map((e) => [e.dataset.kind || null, e.dataset.key || e.innerText])"""

DESCRIBE = """() => ({...document.getElementById("nations").dataset,
  turn: document.getElementById("n-turn").textContent,
  error: document.getElementById("n-error").textContent})"""


def describe(pages: dict[str, Page]) -> list[Any]:
    """What each table says of itself, for a failure's message."""
    return [p.evaluate(DESCRIBE) for p in pages.values()]


def wait(page: Page, condition: str, arg: Any, pages: dict[str, Page], what: str) -> None:
    try:
        page.wait_for_function(condition, arg=arg)
    except PlaywrightTimeout:
        pytest.fail(f"{what} did not happen: {describe(pages)}")


def state(page: Page) -> dict[str, Any]:
    """The table's version, status, whether it is the seat's decision, busy and pending pick."""
    found: dict[str, Any] = page.evaluate(STATE)
    return found


def caught_up(table: dict[str, Any], top: int) -> bool:
    """CAUGHT_UP's condition, of a state already read."""
    at_rest = table["status"] == "active" and table["busy"] == "false"
    return bool(table["version"] >= top and (table["status"] == "finished" or at_rest))


def status(page: Page) -> str | None:
    return page.locator("#nations").get_attribute("data-status")


def version(page: Page) -> int:
    return int(page.locator("#nations").get_attribute("data-version") or "-1")


def my_turn(page: Page) -> bool:
    return page.locator("#nations").get_attribute("data-mine") == "true"


def clickables(page: Page) -> list[Any]:
    """Every highlighted board piece and every choice button of the prompt area."""
    targets = page.locator("#nations .n-table .is-target:visible").all()
    buttons = page.locator("#n-controls button:visible").all()
    return targets + buttons


def click_piece(
    page: Page,
    target: Any,
    rnd: random.Random,
    avoid: Callable[[Any], bool] | None = None,
    key: str | None = None,
) -> str:
    """Clicks a highlighted piece. A progress card opens its sheet (the whole card, what buying it
    replaces, one buy button per way to buy it): one of its buy buttons is the purchase (`avoid`:
    buttons to leave alone when another is offered). What was clicked (`key` when the caller
    read it already), for a failure's message."""
    key = key or target.get_attribute("data-key") or target.inner_text()
    target.click()
    if key.startswith("progress:"):
        sheet = page.locator("#n-sheet")
        expect(sheet).to_be_visible()
        buys = sheet.locator(".n-buy").all()
        assert buys, f"{key} is offered, but its sheet has no buy button"
        rnd.choice([b for b in buys if not (avoid and avoid(b))] or buys).click()
        expect(sheet).to_be_hidden()
    return key


def take_a_turn(page: Page, rnd: random.Random, pages: dict[str, Page]) -> None:
    """One click among the offered ones (pass only now and then, so that nations build), then
    a wait for what it changes: the view's version, or the pending pick. The offered pieces and
    the state before are read in two calls, not one per piece."""
    offered = page.locator(OFFERED)
    kinds: list[list[Any]] = offered.evaluate_all(KINDS)
    assert kinds, "my decision, but nothing on the table is offered"
    board = [i for i, (kind, _) in enumerate(kinds) if kind is None]
    choose = [i for i, (kind, _) in enumerate(kinds) if kind == "choose"]
    passing = [i for i, (kind, _) in enumerate(kinds) if kind in ("pass", "cancel")]
    pool = board or choose or passing
    if passing and (not pool or rnd.random() < 0.12):
        pool = passing
    chosen = rnd.choice(pool)
    table = state(page)
    before = [table["version"], table["pick"]]
    clicked = click_piece(page, offered.nth(chosen), rnd, key=kinds[chosen][1])
    wait(page, CHANGED, before, pages, f"a change after clicking {clicked}")


def play_by_clicks(pages: dict[str, Page], rnd: random.Random) -> int:
    """Click for whichever page must decide until the match is over; the number of clicks. The
    pages are first brought to the same version (a push reaches one browser before the other):
    each table's state is read once a round, and waited on only when it is not there yet."""
    clicks = 0
    while True:
        tables = {role: state(p) for role, p in pages.items()}
        top = max(t["version"] for t in tables.values())
        for role, page in pages.items():
            if not caught_up(tables[role], top):
                wait(page, CAUGHT_UP, top, pages, f"catching up with v{top}")
                tables[role] = state(page)
        if all(t["status"] == "finished" for t in tables.values()):
            return clicks
        deciding = [pages[role] for role, t in tables.items() if t["mine"]]
        if not deciding:  # the computer is deciding: wait for its move
            assert len(pages) == 1, f"two at one version, neither deciding: {describe(pages)}"
            first = next(iter(pages.values()))
            # from the version it was caught up to: the move may already have come since
            wait(first, MOVED_ON, top, pages, "the computer's move")
            continue
        take_a_turn(deciding[0], rnd, pages)
        clicks += 1
        assert clicks < MAX_CLICKS, "the match does not end"


def check_final(page: Page) -> dict[str, int]:
    """The final screen: the winner, and the score sheet's five categories and total."""
    final = page.locator("#n-final")
    expect(final).to_be_visible()
    expect(final.locator(".n-sheet")).to_be_visible()
    rows = final.locator(".n-sheet tr").all()
    labels = [r.locator("th").first.inner_text() for r in rows[1:]]
    assert labels == [
        EN["nations"]["categories"][c]
        for c in ("tokens", "colonies", "wonders", "cards", "resources", "total")
    ]
    totals = [int(x) for x in rows[-1].locator("td").all_inner_texts()]
    parts = [[int(x) for x in r.locator("td").all_inner_texts()] for r in rows[1:-1]]
    assert totals == [sum(col) for col in zip(*parts, strict=True)]  # the sheet adds up
    return {"best": max(totals)}


def test_two_friends_play_a_whole_nations_match_by_clicks(
    open_page: Callable[..., Page], shot: Shot
) -> None:
    first = open_page(prefs={}, viewport=DESKTOP)  # its screenshots: the one-screen table
    match_id = start_from_home(first, "human")
    expect(first.locator("#n-invite")).to_be_visible()
    invite = first.locator("#n-invite-url").input_value()
    shot(first, "nations-waiting", full_page=False)
    second = open_page(prefs={})
    second.goto(invite)
    expect(second.locator("h1")).to_have_text(EN["nations"]["invited_title"])
    second.locator("#join").click()  # the suggested name is fine
    expect(second).to_have_url(re.compile(f"/nations/match/{match_id}$"))
    expect(first.locator("#n-invite")).to_be_hidden()
    shot(first, "nations-early", full_page=False)
    # an unaffordable or not-now piece says why instead of acting
    blocked = first.locator(".n-progress .is-blocked").first
    if blocked.count():
        blocked.hover()
        expect(first.locator("#n-why")).not_to_be_empty()
    clicks = play_by_clicks({"p1": first, "p2": second}, random.Random(match_id))
    assert clicks > 20
    best = check_final(first)["best"]
    check_final(second)
    winner = first.locator("#n-final h2").inner_text()
    assert str(best) in winner
    assert {first.locator(".n-result").inner_text(), second.locator(".n-result").inner_text()} == {
        LOCALES["en"]["ui"]["you_won"],
        LOCALES["en"]["ui"]["you_lost"],
    }
    expect(
        first.locator("#n-summary .n-summary-box")
    ).to_be_visible()  # the last round's resolution
    shot(first, "nations-final", full_page=False)


def test_a_whole_nations_match_against_the_computer_by_clicks(
    open_page: Callable[..., Page], shot: Shot
) -> None:
    page = open_page(prefs={})
    match_id = start_from_home(page, "bot")
    assert violations(page) == [], "a live Nations table"
    clicks = play_by_clicks({"p1": page}, random.Random(match_id))
    assert clicks > 10
    check_final(page)
    assert violations(page) == [], "a finished Nations table"
    log = page.locator("#n-log li").all_inner_texts()
    assert any(EN["nations"]["seats"]["p2"] in line for line in log)  # the computer played
    # the public replay of the same match, on the same boards
    page.locator("#n-final .end-replay").click()
    expect(page).to_have_url(re.compile(f"/nations/replay/{match_id}$"))
    expect(page.locator("#n-steps")).to_be_visible()
    expect(page.locator("#n-final .n-sheet")).to_be_visible()  # it opens at the end
    assert violations(page) == [], "a Nations replay"
    page.locator("#n-first").click()
    expect(page.locator("#n-step-info")).to_contain_text("0")
    expect(page.locator("#n-final")).to_be_hidden()
    expect(page.locator(".n-nation")).to_have_count(2)
    page.locator("#n-forward").click()
    expect(page.locator("#nations")).to_have_attribute("data-version", "1")
    page.locator("#n-verify-run").click()
    expect(page.locator("#n-verdict")).to_have_text(EN["fair"]["proven"])
    shot(page, "nations-replay", full_page=False)


def test_the_admin_steps_through_a_nations_match(
    open_page: Callable[..., Page], server: str, shot: Shot
) -> None:
    player = open_page(prefs={})
    match_id = start_from_home(player, "bot")
    play_by_clicks({"p1": player}, random.Random(7))
    admin = open_page()
    admin.goto("/admin")
    admin.locator("#token").fill(ADMIN_TOKEN)
    admin.get_by_role("button", name="Sign in").click()
    expect(admin).to_have_url(re.compile(r"/admin$"))
    admin.goto(f"/admin/matches/{match_id}")
    expect(admin.locator("#nations")).to_have_attribute("data-version", "0")
    expect(admin.locator("#n-decks")).to_be_visible()  # everything shown: the decks too
    assert violations(admin) == [], "the admin's Nations match"
    expect(admin.locator("#n-export")).to_have_attribute(
        "href", f"/api/admin/matches/{match_id}/export"
    )
    admin.locator("#n-forward").click()
    expect(admin.locator("#nations")).to_have_attribute("data-version", "1")
    admin.keyboard.press("ArrowRight")
    expect(admin.locator("#nations")).to_have_attribute("data-version", "2")
    admin.locator("#n-last").click()
    expect(admin.locator("#n-final .n-sheet")).to_be_visible()
    shot(admin, "nations-admin", full_page=False)


def test_the_nations_table_on_a_phone_in_portuguese(
    open_page: Callable[..., Page], shot: Shot
) -> None:
    page = open_page(prefs={}, viewport={"width": 390, "height": 844}, locale="pt-BR")
    page.goto("/?lang=pt-BR")
    start_from_home_pt(page)
    pt = LOCALES["pt-BR"]["nations"]
    expect(page.locator(".n-tab").first).to_have_text(pt["tabs"]["board"])
    # the progress board and the seat's own board are on the first tab, without scrolling
    for area in (".n-area-progress", ".n-area-mine", ".n-prompt-area"):
        expect(page.locator(area)).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert violations(page) == [], "a Nations table on a phone"
    page.locator('.n-tab[data-tab="nations"]').click()
    expect(page.locator(".n-area-scoring")).to_be_visible()
    expect(page.locator(".n-area-progress")).to_be_hidden()
    shot(page, "nations-phone-pt", full_page=False)


def start_from_home_pt(page: Page) -> None:
    page.get_by_label(LOCALES["pt-BR"]["games"]["nations"]).check()
    page.locator('input[name="opponent"][value="bot"]').check()
    page.locator("#start").click()
    expect(page).to_have_url(re.compile(r"/nations/match/"))


def test_a_clocked_nations_match_shows_minutes_and_seconds_and_the_running_clock_counts_down(
    open_page: Callable[..., Page],
) -> None:
    page = open_page(prefs={})
    start_from_home(page, "bot", clock="realtime-15")
    clocks = page.locator("#n-clocks")
    # the first player's clock runs from the start (15 minutes); the other's stands at 15:00
    shown = r"^(▶ )?Nation 1 1[45]:\d\d · (▶ )?Nation 2 1[45]:\d\d$"
    expect(clocks).to_have_text(re.compile(shown))
    first = clocks.inner_text()
    expect(clocks).not_to_have_text(first, timeout=5000)  # a second later it reads otherwise


def all_cards() -> list[dict[str, Any]]:
    """Every card of Nations' data files: side A's printed cards, each age's progress and events."""
    meta = get_game("nations").metadata()
    ages = [meta[f"age{n}"] for n in (1, 2, 3, 4)]
    board = meta["board"]
    assert isinstance(board, dict)
    return [*board["starting_cards"], *(c for a in ages for c in [*a["progress"], *a["events"]])]


def test_the_card_gallery_shows_every_card_of_the_data_and_filters_them(
    open_page: Callable[..., Page], shot: Shot
) -> None:
    cards = all_cards()
    page = open_page(prefs={})
    page.goto("/rules")
    page.get_by_role("link", name=EN["nations"]["gallery"]["link"]).click()
    expect(page).to_have_url(re.compile(r"/nations/cards$"))
    items = page.locator("#n-gallery > li")
    expect(items).to_have_count(len(cards))
    shown = {c["id"] for c in cards}
    assert {i.get_attribute("data-card") for i in page.locator("#n-gallery .n-card").all()} == shown
    assert violations(page) == [], "the card gallery"
    shot(page, "nations-gallery", full_page=False)

    page.locator("#n-gallery-age").select_option("2")
    age2 = get_game("nations").metadata()["age2"]
    assert isinstance(age2, dict)
    expect(page.locator("#n-gallery > li:visible")).to_have_count(
        len(age2["progress"]) + len(age2["events"])
    )
    page.locator("#n-gallery-age").select_option("")
    page.locator("#n-gallery-search").fill("pyramids")  # a card's name, in any case
    expect(page.locator("#n-gallery > li:visible")).to_have_count(1)
    expect(page.locator("#n-gallery > li:visible .n-card-name")).to_have_text("Pyramids of Giza")
    expect(page.locator("#n-gallery-count")).to_have_text("1 card")


def test_the_card_gallery_speaks_portuguese(open_page: Callable[..., Page]) -> None:
    page = open_page(prefs={}, locale="pt-BR")
    page.goto("/nations/cards?lang=pt-BR")
    gallery = LOCALES["pt-BR"]["nations"]["gallery"]
    expect(page.locator("h1")).to_have_text(gallery["title"])
    expect(page.locator("#n-gallery-count")).to_have_text(f"{len(all_cards())} cartas")


def test_the_nations_rules_are_their_own_page_in_each_language(
    open_page: Callable[..., Page], shot: Shot
) -> None:
    """Nations' rules in plain words (not Watergate's): from the Nations gallery, in pt-BR, with
    every section of the locale and no serious accessibility problem."""
    pt = LOCALES["pt-BR"]["nations"]["rules"]
    page = open_page(prefs={}, locale="pt-BR")
    page.goto("/nations/cards?lang=pt-BR")
    page.get_by_role("link", name=pt["link"]).click()
    expect(page).to_have_url(re.compile(r"/nations/rules"))
    expect(page.locator("h1")).to_have_text(pt["title"])
    expect(page.locator("article.rules h2")).to_have_text([s["h"] for s in pt["sections"]])
    # the site header's rules link follows the game of the page
    expect(
        page.locator("header").get_by_role("link", name=LOCALES["pt-BR"]["ui"]["rules_link"])
    ).to_have_attribute("href", "/nations/rules")
    assert violations(page) == [], "the Nations rules"
    shot(page, "nations-rules-pt", full_page=False)
    # each rule but the goal links to the lesson step that shows it
    lesson = LOCALES["pt-BR"]["lessons"]["nations"]["p1"]
    expect(page.locator(".learn-it a")).to_have_count(len(pt["sections"]) - 1)
    war = page.locator("section", has=page.get_by_role("heading", name=pt["sections"][5]["h"]))
    war.locator(".learn-it a").click()
    page.wait_for_url("**/nations/match/*")
    expect(page.locator("#coach")).to_contain_text(lesson["war"])
