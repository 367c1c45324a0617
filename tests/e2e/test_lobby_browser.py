"""The lobby and the table chat in two browsers (issue 12): Ana opens a public challenge from the
lobby page and waits at her table; Bea, in another browser, sees it listed live under Ana's name
and joins with one click; both tables show the chat, a typed line arrives as text (markup stays
text), a preset phrase arrives in the reader's words, a muted chat stays muted after a reload;
they play on by clicking, and Ana resigns. Screenshots go to /tmp/shots-lobby/."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from .conftest import LOCALES
from .test_axe import violations
from .test_browser import Table

try:
    from playwright.sync_api import Page, expect
except ImportError:  # pragma: no cover - depends on the machine
    if os.environ.get("CI") == "true":
        raise
    pytest.skip("Playwright for Python is not installed", allow_module_level=True)

EN = LOCALES["en"]
UI, LOBBY, CHAT = EN["ui"], EN["lobby"], EN["chat"]
SHOTS = Path("/tmp/shots-lobby")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
MATCH_URL = re.compile(r"/match/([^/?#]+)$")
Shot = Callable[..., Path]


def snap(page: Page, name: str) -> None:
    """Screenshots at desktop and phone width, for a person to look at."""
    SHOTS.mkdir(exist_ok=True)
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(SHOTS / f"{name}-desktop.png"), full_page=True, animations="disabled")
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(SHOTS / f"{name}-phone.png"), full_page=True, animations="disabled")
    page.set_viewport_size(DESKTOP)


def named(page: Page, name: str) -> None:
    page.goto("/lobby")
    page.locator("#player-name").fill(name)


def test_two_players_meet_in_the_lobby_chat_and_play(
    open_page: Callable[..., Page], shot: Shot
) -> None:
    bea = open_page()
    named(bea, "Bea")
    expect(bea.locator("#lobby-conn")).to_contain_text(LOBBY["live"])
    expect(bea.locator("#no-challenges")).to_be_visible()

    ana = open_page()
    named(ana, "Ana")
    ana.locator("#challenge-form").get_by_text(UI["editor"], exact=True).click()
    ana.locator("#open-challenge").click()
    expect(ana).to_have_url(MATCH_URL)
    match_id = MATCH_URL.search(ana.url).group(1)  # type: ignore[union-attr]

    row = bea.locator(f'.challenge[data-match-id="{match_id}"]')  # pushed, no reload
    expect(row.locator(".who")).to_have_text("Ana")
    expect(row).to_contain_text(EN["roles_cap"]["nixon"])
    snap(bea, "lobby")
    assert violations(bea) == [], "the lobby with a challenge"
    row.get_by_role("button", name=LOBBY["join"]).click()
    expect(bea).to_have_url(re.compile(f"/match/{match_id}$"))

    pages = {"editor": ana, "nixon": bea}
    for page in pages.values():
        expect(page.locator("#chat")).to_be_visible()
        expect(page.locator("#chat-note")).to_have_text(CHAT["none"])
    ana.locator("#chat-input").fill("<b>hi</b> Bea")
    ana.locator("#chat-input").press("Enter")
    for page in pages.values():
        line = page.locator("#chat-lines li").last
        expect(line.locator(".chat-text")).to_have_text("<b>hi</b> Bea")  # as text
        # the role as a bare label in brackets: "Ana (Editor)", "Ana (Redaktion)"
        expect(line.locator(".chat-name")).to_have_text(f"Ana ({EN['ui']['editor']})")
        assert page.locator("#chat-lines b").count() == 0  # never as HTML
    bea.locator('[data-phrase="good_game"]').click()
    for page in pages.values():
        expect(page.locator("#chat-lines li").last.locator(".chat-text")).to_have_text(
            CHAT["phrase_good_game"]
        )
    snap(ana, "table-chat")

    bea.locator("#chat-mute").check()
    expect(bea.locator("#chat-lines")).to_be_hidden()
    bea.reload()
    expect(bea.locator("#chat-mute")).to_be_checked()  # kept per browser
    expect(bea.locator("#chat-note")).to_have_text(CHAT["muted"])
    bea.locator("#chat-mute").uncheck()
    expect(bea.locator("#chat-lines li")).to_have_count(2)  # the history came with the view

    table = Table(pages, shot, explore=False)  # and they play on
    for _ in range(4):
        role = table.whose_turn()
        assert role is not None, table.summary()
        table.act(role)
    if ana.locator("#menu").get_attribute("open") is None:
        ana.locator("#menu summary").click()
    ana.locator("#resign").click()
    ana.locator("#resign-yes").click()  # the page's own question
    for page in pages.values():
        expect(page.locator("#final")).to_be_visible()
    expect(bea.locator("#chat-form")).to_be_visible()  # a word after the end is still possible


def test_the_turn_notice_service_worker_registers_for_the_whole_site(
    open_page: Callable[..., Page],
) -> None:
    page = open_page()
    named(page, "Ana")
    expect(page.locator("#push-toggle")).to_have_text(EN["push"]["enable"])
    scope = page.evaluate("async () => (await navigator.serviceWorker.register('/sw.js')).scope")
    assert scope == page.url.rsplit("/lobby", 1)[0] + "/"  # served at the root: every table


def test_a_chat_in_another_language_shows_presets_in_the_readers_words(
    open_page: Callable[..., Page],
) -> None:
    de = LOCALES["de"]
    ana = open_page(locale="de-DE")
    named(ana, "Ana")
    ana.locator("#open-challenge").click()
    expect(ana).to_have_url(MATCH_URL)
    bea = open_page()
    named(bea, "Bea")
    bea.locator(".challenge").first.get_by_role("button", name=LOBBY["join"]).click()
    expect(bea).to_have_url(MATCH_URL)
    bea.locator('[data-phrase="thanks"]').click()
    expect(ana.locator("#chat-lines li").last.locator(".chat-text")).to_have_text(
        de["chat"]["phrase_thanks"]
    )
    expect(bea.locator("#chat-lines li").last.locator(".chat-text")).to_have_text(
        CHAT["phrase_thanks"]
    )


def test_a_table_of_three_fills_from_the_lobby_each_joiner_picking_a_seat(
    open_page: Callable[..., Page],
) -> None:
    """Contract v1.2 in the lobby: Ana opens a Nations table for three; the lobby shows "1/3
    seated" and a seat picker; Bea picks Nation 3 and sits there, the row says "2/3 seated" with
    Nation 2 the only seat left; Caio takes it, the table leaves the lobby and starts for all,
    each showing the others by name and the chat whole in its side column."""
    nations = EN["nations"]
    ana = open_page()
    named(ana, "Ana")
    ana.locator("#challenge-form").get_by_label(EN["games"]["nations"]).check()
    ana.locator("#players").select_option("3")
    ana.locator('input[name="role"][value="p1"]').check()  # the seats follow the game
    ana.locator("#open-challenge").click()
    expect(ana).to_have_url(re.compile(r"/nations/match/[^/?#]+$"))
    match_id = ana.url.rsplit("/", 1)[1]

    bea = open_page()
    named(bea, "Bea")
    row = bea.locator(f'.challenge[data-match-id="{match_id}"]')
    expect(row).to_contain_text(nations["seated"].format(seated=1, total=3))
    picker = row.get_by_label(nations["pick_seat"])
    expect(picker.locator("option")).to_have_text([nations["seats"]["p2"], nations["seats"]["p3"]])
    picker.select_option("p3")
    row.get_by_role("button", name=LOBBY["join"]).click()
    expect(bea).to_have_url(re.compile(f"/nations/match/{match_id}$"))

    caio = open_page()
    named(caio, "Caio")
    row = caio.locator(f'.challenge[data-match-id="{match_id}"]')
    expect(row).to_contain_text(nations["seated"].format(seated=2, total=3))
    expect(row).to_contain_text(LOBBY["plays_as"].format(role=nations["seats"]["p2"]))
    expect(row.get_by_label(nations["pick_seat"])).to_have_count(0)  # one seat left: no choice
    row.get_by_role("button", name=LOBBY["join"]).click()
    expect(caio).to_have_url(re.compile(f"/nations/match/{match_id}$"))
    expect(row).to_have_count(0)  # full: out of the lobby

    names = {ana: "Ana", caio: "Caio", bea: "Bea"}
    for page in names:  # the table started; each shows the other nations' people by name
        expect(page.locator("#nations")).to_have_attribute("data-status", "active")
        for other in (name for p, name in names.items() if p is not page):
            expect(page.locator(".n-other-who", has_text=other)).to_be_visible()
        panel = page.locator("#chat").bounding_box()
        assert panel is not None
        for part in ("#chat-form button", "label:has(#chat-mute)"):  # whole, not cut off
            box = page.locator(part).bounding_box()
            assert box is not None and box["x"] + box["width"] <= panel["x"] + panel["width"], part
