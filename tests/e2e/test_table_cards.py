"""Issue 42: every card a player holds or meets can be read in full, at 390×844 and 1280×800, in
pt-BR and de (and English): a card of the hand after one tap, the card a reaction answers, a
card the log names; the choices are never a scroll box inside the page's scroll; the card the
opponent just played covers neither the track, nor the hand, nor the choices, and a tap sends
it away."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .conftest import LOCALES, OUTPUT
from .test_browser import join_invite
from .test_table import (
    DESKTOP,
    MY_PLAY,
    MY_REACTION,
    MY_TURN,
    PHONE,
    Shot,
    inside_viewport,
    pass_until_my_play,
    until_my_play,
)

try:
    from playwright.sync_api import Page, expect
except ImportError:  # pragma: no cover - depends on the machine
    pytest.skip("Playwright for Python is not installed", allow_module_level=True)

# `TABLE_SCREENS=docs/screens/table` refreshes the committed screenshots; a plain run writes only
# to tests/e2e/output/ and leaves the work tree clean
SCREENS = Path(__file__).resolve().parents[2] / os.environ.get("TABLE_SCREENS", str(OUTPUT))
SIZES = {"phone": PHONE, "desktop": DESKTOP}

# The element's whole text is on screen: inside the viewport, not clipped by its own box or by
# a scrolling ancestor, and the topmost element at its centre (nothing laid over it).
READABLE = """(e) => {
  const r = e.getBoundingClientRect();
  const out = r.bottom > innerHeight + .5 || r.right > innerWidth + .5;
  if (!r.width || r.top < 0 || r.left < 0 || out) return "off screen";
  if (e.scrollHeight > e.clientHeight + 1) return "clipped";
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (top && (e.contains(top) || top.contains(e))) return "";
  return `covered by ${top && top.outerHTML.slice(0, 80)}`;
}"""
# a box between the element and the page that scrolls by itself (a scroll inside the scroll)
NESTED_SCROLL = """(e) => {
  for (let x = e; x && x !== document.body; x = x.parentElement) {
    const o = getComputedStyle(x).overflowY;
    const scrolls = x.scrollHeight > x.clientHeight + 1;
    if ((o === "auto" || o === "scroll") && scrolls) return x.id || x.className;
  }
  return "";
}"""


# the line beside the table is the log's newest (read at once: a push may come in between)
NEWEST_BESIDE = """() => document.getElementById("log-last").textContent
  === document.querySelector("#log li").textContent"""


def open_match(open_page: Callable[..., Page], lang: str, width: str) -> Page:
    page = open_page(prefs={"wg.autopass": "0"}, locale=lang, **SIZES[width])
    page.goto("/")
    made = page.evaluate(
        """async () => {
          const r = await fetch("/api/matches", { method: "POST",
            body: JSON.stringify({ role: "editor", opponent: "bot" }),
            headers: { "Content-Type": "application/json" } });
          const m = await r.json();
          localStorage.setItem(`wg.seat.${m.match_id}`,
            JSON.stringify({ role: m.role, token: m.seat_token, inviteUrl: m.invite_url }));
          return m;
        }"""
    )
    page.goto(f"/match/{made['match_id']}")
    expect(page.locator("#conn")).to_have_text(LOCALES[lang]["ui"]["connected"])
    page.wait_for_function(MY_PLAY)
    return page


def play_a_value(page: Page) -> None:
    """The first playable card for its first value (a lone playable card is chosen already)."""
    value = page.locator('#decision .btn[data-kind="play_value"]').first
    if not value.count():
        page.locator("#hand .card.is-target").first.click()
    value.click()


def readable(page: Page, sel: str, text: str) -> None:
    node = page.locator(sel)
    expect(node).to_have_text(text)
    assert node.evaluate(READABLE) == "", sel


def keep(page: Page, shot: Shot, name: str) -> None:
    saved = shot(page, name, full_page=False)
    if SCREENS != OUTPUT:
        SCREENS.mkdir(parents=True, exist_ok=True)
        shutil.copy(saved, SCREENS / f"{name}.png")


@pytest.mark.parametrize("width", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["pt-BR", "de", "en"])
def test_each_card_of_the_hand_reads_in_full_after_one_tap(
    open_page: Callable[..., Page], shot: Shot, lang: str, width: str
) -> None:
    page = open_match(open_page, lang, width)
    cards = page.locator("#hand .card")
    for i in range(cards.count()):
        card = cards.nth(i)
        name = LOCALES[lang]["cards"][card.get_attribute("data-card") or ""]["name"]
        text = (
            card.locator(".card-text").text_content() or ""
        )  # the whole text, clipped in the hand
        assert text and (card.get_attribute("title") or "").startswith(text)  # and on hover
        card.tap() if width == "phone" else card.click()
        expect(page.locator("#decision .selected-card")).to_have_text(name)
        readable(page, "#decision .card-full", text)
        buttons = page.locator("#decision .btn")
        for k in range(buttons.count()):  # every choice on screen, none under anything
            assert buttons.nth(k).evaluate(READABLE) == "", buttons.nth(k).text_content()
            assert buttons.nth(k).evaluate(NESTED_SCROLL) == ""
        assert inside_viewport(page, ("#track",)) == []
        if i == 0:
            keep(page, shot, f"hand-card-opened-{width}-{lang}")
    assert page.evaluate("() => window.scrollY") == 0


@pytest.mark.parametrize("width", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["pt-BR", "de", "en"])
def test_the_hand_fits_the_screen_and_shows_every_name_whole(
    open_page: Callable[..., Page], lang: str, width: str
) -> None:
    """The hand never scrolls sideways (at 390 px it used to be a strip wider than the screen)
    and every card's name is whole in it, the long German ones wrapped, not cut."""
    page = open_match(open_page, lang, width)
    assert page.locator("#hand").evaluate("(h) => h.scrollWidth - h.clientWidth") <= 0
    names = page.locator("#hand .card-name")
    assert names.count() >= 4
    for name in names.all():
        assert name.evaluate(READABLE) == "", name.text_content()
        assert name.evaluate("(e) => e.scrollWidth - e.clientWidth") <= 0, name.text_content()


# a face-up pair drawn into the track's tokens; how far its letters stick out of the disc (px)
PAIR_OVERFLOW = """async (colors) => {
  const { evidenceFace } = await import("/static/js/render/track.js");
  const tk = document.querySelector("#track .tk-down");
  evidenceFace(tk, { face: "up", colors });
  const disc = tk.getBoundingClientRect();
  const text = tk.querySelector(".tk-letters").getBoundingClientRect();
  return Math.max(disc.left - text.left, text.right - disc.right,
    disc.top - text.top, text.bottom - disc.bottom);
}"""


@pytest.mark.parametrize("width", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["pt-BR", "de"])
def test_a_pairs_colour_letters_stay_inside_its_disc(
    open_page: Callable[..., Page], lang: str, width: str
) -> None:
    """Portuguese and German colour letters are two letters long ("Am", "Ge"): a pair's letters
    ("AmAz", "GeGr") still fit the token they are printed on."""
    page = open_match(open_page, lang, width)
    for colors in (["yellow", "green"], ["blue", "yellow"], ["green", "blue"]):
        assert page.evaluate(PAIR_OVERFLOW, colors) <= 0.5, colors


def test_the_computers_level_is_worded_in_the_pages_language(
    open_page: Callable[..., Page],
) -> None:
    """The status bar names the computer's level in German ("schwer"), not the wire's "hard"."""
    page = open_page(locale="de", **SIZES["desktop"])
    page.goto("/")
    page.evaluate(
        """async () => {
          const r = await fetch("/api/matches", { method: "POST",
            body: JSON.stringify({ role: "editor", opponent: "bot", level: "hard" }),
            headers: { "Content-Type": "application/json" } });
          const m = await r.json();
          localStorage.setItem(`wg.seat.${m.match_id}`,
            JSON.stringify({ role: m.role, token: m.seat_token }));
          location.assign(`/match/${m.match_id}`);
        }"""
    )
    ui, names = LOCALES["de"]["ui"], LOCALES["de"]["names"]
    presence = page.locator("#presence")
    expect(presence).to_contain_text(f"{names['computer']} · {ui['level_hard']}")
    expect(presence).not_to_contain_text("hard")


def human_match(open_page: Callable[..., Page], lang: str, size: dict[str, Any]) -> Page:
    """The Editor's browser at a match against a friend, who has not joined yet."""
    editor = open_page(locale=lang, **size)
    editor.goto("/")
    editor.evaluate(
        """async () => {
          const r = await fetch("/api/matches", { method: "POST",
            body: JSON.stringify({ role: "editor", opponent: "human" }),
            headers: { "Content-Type": "application/json" } });
          const m = await r.json();
          localStorage.setItem(`wg.seat.${m.match_id}`,
            JSON.stringify({ role: m.role, token: m.seat_token, inviteUrl: m.invite_url }));
          location.assign(`/match/${m.match_id}`);
        }"""
    )
    expect(editor.locator("#invite-url")).to_have_value(re.compile("/invite/"))
    return editor


@pytest.mark.parametrize("width", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["pt-BR", "de"])
def test_cards_off_turn_in_the_log_and_in_a_reaction_read_whole(
    open_page: Callable[..., Page], shot: Shot, lang: str, width: str
) -> None:
    """Off-turn a card of the hand opens in a sheet; a card the log names opens in the same
    sheet; the opponent's flying card covers nothing the turn needs and a tap sends it away; a
    reaction window (when the deal gives one) shows the card it answers and every choice."""
    editor = human_match(open_page, lang, SIZES[width])
    nixon = open_page(locale=lang, **DESKTOP)
    join_invite(nixon, editor.locator("#invite-url").input_value())
    editor.wait_for_function(MY_PLAY)
    editor.evaluate(WATCH_FLY)
    play_a_value(editor)
    editor.wait_for_function("() => !document.body.classList.contains('my-turn')")
    card = editor.locator("#hand .card").first  # not offered now: it opens to be read
    text = card.locator(".card-text").text_content() or ""
    card.tap() if width == "phone" else card.click()
    readable(editor, "#card-sheet .card-text", text)
    editor.locator("#card-sheet .btn").click()
    expect(editor.locator("#card-sheet")).to_be_hidden()
    entry = editor.locator("#log li[data-card]").first
    card_id = entry.get_attribute("data-card") or ""
    entry.click()
    readable(editor, "#card-sheet .card-name", LOCALES[lang]["cards"][card_id]["name"])
    readable(editor, "#card-sheet .card-text", entry.get_attribute("title") or "")
    editor.keyboard.press("Escape")
    expect(editor.locator("#card-sheet")).to_be_hidden()
    until_my_play(nixon)
    play_a_value(nixon)
    editor.wait_for_function("() => window.flew.length > 0")  # the opponent's card flew in
    for rect, covered, gone in editor.evaluate("() => window.flew"):
        assert covered == [], (rect, covered)
        assert gone, "a tap did not send the opponent's card away"
    editor.wait_for_function(MY_TURN)
    if editor.evaluate(MY_REACTION):
        against = editor.locator("#decision .against-text")
        if against.count():
            assert against.evaluate(READABLE) == ""
        for k in range(editor.locator("#decision .btn").count()):
            choice = editor.locator("#decision .btn").nth(k)
            assert choice.evaluate(READABLE) == "" and choice.evaluate(NESTED_SCROLL) == ""
        keep(editor, shot, f"reaction-window-{width}-{lang}")


# Each card that flies in: its box, the areas of the turn it overlaps, and whether a tap on it
# sent it away (tapped at once, as a player who wants to see the table would).
WATCH_FLY = """() => { window.flew = []; new MutationObserver(() => {
  for (const c of document.getElementById('fly-layer').children) {
    const r = c.getBoundingClientRect();
    const over = (sel) => { const b = document.querySelector(sel).getBoundingClientRect();
      return r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom; };
    const covered = ['#track', '#hand', '#decision'].filter(over);
    c.click();
    window.flew.push([[r.left, r.top, r.width, r.height], covered, !c.isConnected]);
  }
}).observe(document.getElementById('fly-layer'), { childList: true }); }"""


@pytest.mark.parametrize("lang", ["pt-BR", "de"])
def test_the_logs_newest_line_is_beside_the_table(
    open_page: Callable[..., Page], shot: Shot, lang: str
) -> None:
    """At 1280×800 the newest line of the log is on screen without scrolling, and a click on it
    goes to the whole log."""
    page = open_match(open_page, lang, "desktop")
    play_a_value(page)
    pass_until_my_play(page, lambda button: button.click())
    last = page.locator("#log-last")
    page.wait_for_function(NEWEST_BESIDE)
    expect(last).not_to_be_empty()
    assert inside_viewport(page, ("#log-last", "#help-open", "#menu")) == []
    assert last.evaluate(READABLE) == ""
    shot(page, f"log-last-{lang}", full_page=False)
    last.click()
    expect(page.locator("#log-title")).to_be_in_viewport()


@pytest.mark.parametrize("lang", ["pt-BR", "de"])
def test_chat_from_the_other_seat_shows_an_unread_badge(
    open_page: Callable[..., Page], lang: str
) -> None:
    """The chat is below the fold at 1280×800: a line from the other seat raises a badge in the
    top bar, which leads to the chat and goes away once the chat is seen."""
    editor = human_match(open_page, lang, DESKTOP)
    link = editor.locator("#invite-url").input_value()
    nixon = open_page(locale=lang, **DESKTOP)
    join_invite(nixon, link)
    expect(nixon.locator("#chat-input")).to_be_visible()
    expect(editor.locator("#chat")).to_be_attached()
    badge = editor.locator("#chat-new")
    expect(badge).to_be_hidden()
    nixon.locator("#chat-input").fill("Olá / Hallo")
    nixon.locator("#chat-input").press("Enter")
    expect(badge).to_have_text(f"{LOCALES[lang]['chat']['title']} · 1")
    assert inside_viewport(editor, ("#chat-new",)) == []
    badge.click()
    expect(editor.locator("#chat-lines li").last).to_contain_text("Olá / Hallo")
    expect(badge).to_be_hidden()
