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
    page.locator("#menu summary").click()
    page.locator("#resign").click()
    page.locator("#resign-yes").click()
    final = page.locator("#final")  # the end screen names the edition played as well
    expect(final).to_contain_text(f"{DE['rules_edition']['label']}: {names['4']}")
    expect(final.get_by_role("link", name=names["4"])).to_have_attribute(
        "href", re.compile(r"version=4$")
    )
    shot(page, "edition-end-de")


PUBLIC_MATCH = """async (edition) => {
  const me = await (await fetch("/api/players", { method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Eda" }) })).json();
  const body = { role: "editor", visibility: "public", rules_version: edition };
  const r = await fetch("/api/matches", { method: "POST", body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", "X-Player-Token": me.player_token } });
  return (await r.json()).match_id;
}"""


def test_the_lobby_names_a_challenge_under_an_earlier_edition(
    open_page: Callable[..., Page], shot: Shot
) -> None:
    page = open_page(locale="de-DE")
    page.goto("/lobby")
    names, label = DE["rules_edition"]["names"], DE["rules_edition"]["label"]
    old, today = page.evaluate(PUBLIC_MATCH, "4"), page.evaluate(PUBLIC_MATCH, RULES_VERSION)
    old_row = page.locator(f'.challenge[data-match-id="{old}"]')
    expect(old_row).to_contain_text(f"{label}: {names['4']}")
    expect(page.locator(f'.challenge[data-match-id="{today}"]')).not_to_contain_text(label)
    shot(page, "edition-lobby-de")
