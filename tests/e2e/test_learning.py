"""Learning to play Watergate (issue "Learn to play"): the card gallery lists every card of the
engine's data in the page's language and its filters narrow the list; the match menu and the
Nations gallery link to it. Hints: in an unrated match a card offered only for its value says why
(and the player may turn hints off); a rated match's table never shows one."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from engine.registry import get_game

from .conftest import LOCALES, UI_TIMEOUT_MS
from .test_accounts_browser import MATCH_URL, sign_up
from .test_axe import violations
from .test_table import MY_PLAY, PHONE, new_match

Shot = Callable[..., Path]
EN = LOCALES["en"]
SHOWN = "#gallery > li:visible"
HINTS = EN["hints"]
# the seat's view as the server sends it now (the page keeps the seat token in localStorage)
SEAT_VIEW = """async (id) => {
  const seat = JSON.parse(localStorage.getItem(`wg.seat.${id}`));
  const headers = { Authorization: `Bearer ${seat.token}` };
  return (await fetch(`/api/matches/${id}`, { headers })).json();
}"""
MAX_DEALS = 12  # a fresh Editor hand holds a card without an action about 7 times in 8


def cards() -> list[dict[str, Any]]:
    """Every Watergate card as the engine's metadata gives it (both decks)."""
    found = get_game("watergate").metadata()["cards"]
    assert isinstance(found, dict)
    return list(found.values())


def test_the_gallery_shows_every_card_of_the_data(
    open_page: Callable[..., Page], shot: Shot
) -> None:
    everything = cards()
    page = open_page(prefs={})
    page.goto("/rules")
    page.get_by_role("link", name=EN["gallery"]["link"]).click()
    expect(page).to_have_url(re.compile(r"/watergate/cards$"))
    expect(page.locator("#gallery > li")).to_have_count(len(everything))
    drawn = {c.get_attribute("data-card") for c in page.locator("#gallery .card").all()}
    assert drawn == {c["id"] for c in everything}
    expect(page.locator("#gallery-count")).to_have_text(f"{len(everything)} cards")
    assert violations(page) == [], "the Watergate card gallery"
    shot(page, "watergate-gallery", full_page=False)

    # the Nations gallery and this one link to each other
    page.get_by_role("link", name=EN["nations"]["gallery"]["link"]).click()
    expect(page).to_have_url(re.compile(r"/nations/cards$"))
    page.get_by_role("link", name=EN["gallery"]["link"]).click()
    expect(page).to_have_url(re.compile(r"/watergate/cards$"))


def test_the_gallery_filters_narrow_the_list(open_page: Callable[..., Page]) -> None:
    everything = cards()
    page = open_page(prefs={})
    page.goto("/watergate/cards")
    shown = page.locator(SHOWN)
    expect(shown).to_have_count(len(everything))

    page.locator("#gallery-side").select_option("nixon")
    nixon = [c for c in everything if c["faction"] == "nixon"]
    expect(shown).to_have_count(len(nixon))
    page.locator("#gallery-color").select_option("green")
    green = [c for c in nixon if c["color"] == "green"]
    expect(shown).to_have_count(len(green))
    assert {c.get_attribute("data-card") for c in page.locator(f"{SHOWN} .card").all()} == {
        c["id"] for c in green
    }
    page.locator("#gallery-color").select_option("")
    page.locator("#gallery-reaction").check()
    expect(shown).to_have_count(len([c for c in nixon if c["reaction"]]))
    page.locator("#gallery-side").select_option("")
    expect(shown).to_have_count(len([c for c in everything if c["reaction"]]))
    page.locator("#gallery-reaction").uncheck()

    page.locator("#gallery-kind").select_option("journalist")
    page.locator("#gallery-value").select_option("3")
    wanted = [c for c in everything if c["kind"] == "journalist" and c["value"] == 3]
    expect(shown).to_have_count(len(wanted))
    page.locator("#gallery-kind").select_option("")
    page.locator("#gallery-value").select_option("")

    page.locator("#gallery-search").fill("DEEP THROAT")  # a card's name, in any case
    expect(shown).to_have_count(1)
    expect(page.locator(f"{SHOWN} .card-name")).to_have_text("Deep Throat")
    expect(page.locator("#gallery-count")).to_have_text("1 card")
    page.locator("#gallery-search").fill("removed from the game")  # words of the cards' texts
    expect(shown).not_to_have_count(0)
    for text in page.locator(f"{SHOWN} .card-text").all_inner_texts():
        assert "removed from the game" in text.lower()


def test_the_gallery_speaks_portuguese_on_a_phone(
    open_page: Callable[..., Page], shot: Shot
) -> None:
    pt = LOCALES["pt-BR"]
    page = open_page(prefs={}, locale="pt-BR", **PHONE)
    page.goto("/watergate/cards?lang=pt-BR")
    expect(page.locator("h1")).to_have_text(pt["gallery"]["title"])
    expect(page.locator("#gallery-count")).to_have_text(f"{len(cards())} cartas")
    card = page.locator('#gallery .card[data-card="E07"]')
    expect(card.locator(".card-name")).to_have_text(pt["cards"]["E07"]["name"])
    expect(card.locator(".card-kind")).to_have_text(pt["kinds"]["event"])
    page.locator("#gallery-search").fill(pt["cards"]["E07"]["name"].lower())
    expect(page.locator(SHOWN)).to_have_count(1)
    assert violations(page) == [], "the gallery on a phone, in Portuguese"
    shot(page, "watergate-gallery-pt-phone", full_page=False)


def acting_cards(seen: dict[str, Any]) -> set[str]:
    """The cards the seat's legal actions offer for their action."""
    return {a["card"] for a in seen["legal_actions"] if a["type"] == "play_action"}


def a_hand_with_a_hint(page: Page) -> str:
    """An unrated match against the computer whose first Editor hand holds a card that may be
    played only for its value (a deal is random: a new match until one does)."""
    for _ in range(MAX_DEALS):
        match_id = new_match(page, "editor")
        page.wait_for_function(MY_PLAY)
        seen = page.evaluate(SEAT_VIEW, match_id)
        hand = {card["id"] for card in seen["state"]["hands"]["editor"]}
        if hand - acting_cards(seen):
            return match_id
    raise AssertionError(f"no card without an action in {MAX_DEALS} deals")


def test_a_card_offered_only_for_its_value_says_why(
    open_page: Callable[..., Page], shot: Shot
) -> None:
    page = open_page(prefs={})
    match_id = a_hand_with_a_hint(page)
    seen = page.evaluate(SEAT_VIEW, match_id)
    hand = [card["id"] for card in seen["state"]["hands"]["editor"]]
    value_only = [c for c in hand if c not in acting_cards(seen)]
    marked = page.locator("#hand .card.has-why")
    expect(marked).to_have_count(len(value_only))
    assert [m.get_attribute("data-card") for m in marked.all()] == value_only
    expect(marked.first.locator(".card-why")).to_have_text(HINTS["why"])
    # the reason is the card's accessible description, and shown in words once it is chosen
    described = marked.first.get_attribute("aria-describedby")
    expect(page.locator(f"#{described}")).to_contain_text(HINTS["why_action"])
    marked.first.click()
    expect(page.locator("#decision .why-not")).to_contain_text(HINTS["why_action"])
    expect(page.locator('#decision .btn[data-kind="play_action"]')).to_have_count(0)
    assert violations(page) == [], "a table with a hint shown"
    shot(page, "hint-shown", full_page=False)

    acting = [c for c in hand if c in acting_cards(seen)]
    if acting:  # a card with an action has no mark, and its choices offer the action
        page.locator(f'#hand .card[data-card="{acting[0]}"]').click()
        expect(page.locator('#decision .btn[data-kind="play_action"]')).to_have_count(1)
        # (it may still say why part of its action would do nothing now: issue 42 item 4)
        why_not = page.locator("#decision .why-not", has_text=HINTS["why_action"])
        expect(why_not).to_have_count(0)

    page.locator("#menu summary").click()
    toggle = page.get_by_label(HINTS["toggle"])
    expect(toggle).to_be_checked()  # on by default in an unrated match
    toggle.uncheck()
    expect(page.locator("#hand .card-why")).to_have_count(0)
    page.reload()
    expect(page.locator("#hand .card")).to_have_count(len(hand))
    expect(page.locator("#hints")).not_to_be_checked()  # kept in this browser
    expect(page.locator("#hand .card-why")).to_have_count(0)


def rated_match(ana: Page, bea: Page, game: str, url: re.Pattern[str]) -> str:
    """Ana opens a rated challenge of `game` in the lobby (hints asked for in her browser), Bea
    takes it; the match id."""
    sign_up(ana, f"ana_{game}")
    sign_up(bea, f"bea_{game}")
    bea.goto("/lobby")
    ana.goto("/lobby")
    ana.locator("#challenge-form").get_by_label(EN["games"][game]).check()
    if game == "watergate":
        ana.locator("#challenge-form").get_by_text(EN["ui"]["editor"], exact=True).click()
    ana.locator("#rated").check()
    ana.locator("#open-challenge").click()
    expect(ana).to_have_url(url)
    match_id = url.search(ana.url).group(1)  # type: ignore[union-attr]
    bea.locator(f'.challenge[data-match-id="{match_id}"]').get_by_role(
        "button", name=EN["lobby"]["join"]
    ).click()
    expect(bea).to_have_url(re.compile(f"/match/{match_id}$"))
    return match_id


def test_a_rated_match_shows_no_hints(open_page: Callable[..., Page]) -> None:
    ana, bea = open_page(prefs={"wg.hints": "1"}), open_page()
    match_id = rated_match(ana, bea, "watergate", MATCH_URL)

    ana.wait_for_function(MY_PLAY)  # the Editor moves first, with hints asked for in this browser
    seen = ana.evaluate(SEAT_VIEW, match_id)
    assert seen["status"] == "active"
    assert "hints" not in seen, "a rated match's view carries no hints"
    expect(ana.locator("#hand .card")).not_to_have_count(0)
    expect(ana.locator("#hand .card-why")).to_have_count(0)
    ana.locator("#menu summary").click()
    expect(ana.locator("#hints")).to_be_hidden()  # nothing to turn on


NATIONS_URL = re.compile(r"/nations/match/([A-Za-z0-9_-]+)$")


def closed_reason(page: Page) -> str:
    """What the table says when the player points at a progress card it cannot buy now (the
    match opens with a growth, so none can be bought)."""
    expect(page.locator("#nations")).to_have_attribute("data-status", "active")
    page.locator(".n-area-progress [data-key^='progress:']").first.hover()
    return page.locator("#n-why").text_content() or ""


def says_why(page: Page, reasons: tuple[str, ...]) -> bool:
    """Whether pointing at a progress card gives one of the reasons, pointing again until the
    deadline: the first point may fall on a card that a push (the computer's move) is redrawing,
    and the pointer resting on the new card tells the page nothing until it moves."""
    deadline = time.monotonic() + UI_TIMEOUT_MS / 1000
    while True:
        if any(r in closed_reason(page) for r in reasons):
            return True
        if time.monotonic() > deadline:
            return False
        page.mouse.move(0, 0)  # off the card, so the next point is a new one


def test_nations_says_why_a_choice_is_closed_unless_hints_are_off(
    open_page: Callable[..., Page],
) -> None:
    # the mover's reason or the other's: who grows first is drawn (NR2)
    reasons = (EN["nations"]["why_not_now"], EN["nations"]["why_wait"])
    page = open_page(prefs={})
    page.goto("/")
    page.get_by_label(EN["games"]["nations"]).check()
    page.locator('input[name="opponent"][value="bot"]').check()
    page.locator("#start").click()
    expect(page).to_have_url(NATIONS_URL)
    assert says_why(page, reasons)
    page.locator("#n-menu summary").click()
    toggle = page.get_by_label(EN["hints"]["toggle_nations"])
    expect(toggle).to_be_checked()  # on by default in an unrated match
    toggle.uncheck()
    page.locator("#n-menu summary").click()
    assert not any(r in closed_reason(page) for r in reasons)
    page.reload()  # kept in this browser
    assert not any(r in closed_reason(page) for r in reasons)


def test_a_rated_nations_match_says_no_why(open_page: Callable[..., Page]) -> None:
    ana, bea = open_page(prefs={"wg.hints": "1"}), open_page()
    match_id = rated_match(ana, bea, "nations", NATIONS_URL)
    seen = ana.evaluate(SEAT_VIEW, match_id)
    assert seen["rated"] is True
    reasons = (EN["nations"]["why_not_now"], EN["nations"]["why_wait"])  # the mover's, the other's
    for page in (ana, bea):
        said = closed_reason(page)
        assert not any(r in said for r in reasons), said
    ana.locator("#n-menu summary").click()
    expect(ana.locator("#n-hints")).to_be_hidden()  # nothing to turn on
