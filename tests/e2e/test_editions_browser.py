"""Choosing a rules edition on the home page (contract v1.2 "Rules editions", issue 41): an
unrated Watergate match may be played by an earlier edition, chosen in words; the table then
names the edition it plays. The choice is not offered for a rated match (a rating is always
earned under today's rules) nor for Nations, whose pages do not word editions."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from engine.watergate.versions import RULES_VERSION

from .conftest import LOCALES
from .test_browser import Shot, start_match

DE = LOCALES["de"]


def test_a_match_started_under_an_earlier_edition_names_it_at_the_table(
    open_page: Callable[..., Page], shot: Shot
) -> None:
    page = open_page(locale="de-DE")
    page.goto("/")
    names = DE["rules_edition"]["names"]
    picker = page.locator("#rules-version")
    expect(picker).to_be_visible()
    expect(picker.locator("option:checked")).to_contain_text(names[RULES_VERSION])
    page.locator("#rated").check()
    expect(picker).to_be_hidden()  # rated: today's rules only
    page.locator("#rated").uncheck()
    page.locator("#game-choice").get_by_text(DE["games"]["nations"], exact=True).click()
    expect(picker).to_be_hidden()
    page.locator("#game-choice").get_by_text(DE["games"]["watergate"], exact=True).click()
    picker.select_option(label=names["4"])
    shot(page, "edition-choice-de")
    start_match(page, "editor", "bot", DE)
    edition = page.locator("#rules-edition")
    expect(edition).to_contain_text(names["4"])
    expect(edition.locator("a")).to_have_attribute("href", re.compile(r"version=4$"))
