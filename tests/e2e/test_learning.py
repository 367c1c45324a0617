"""Learning to play Watergate (issue "Learn to play"): the card gallery lists every card of the
engine's data in the page's language and its filters narrow the list; the match menu and the
Nations gallery link to it."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from engine.registry import get_game

from .conftest import LOCALES
from .test_axe import violations
from .test_table import PHONE

Shot = Callable[..., Path]
EN = LOCALES["en"]
SHOWN = "#gallery > li:visible"


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
