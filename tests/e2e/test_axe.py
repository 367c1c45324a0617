"""axe-core in the browser (issue 13): no serious or critical accessibility violation on the home
page, a live match, a finished match and its public replay. axe-core 4.14 is vendored as a test
fixture (fixtures/axe.min.js, MPL-2.0, its licence beside it) and evaluated into the page by
Playwright; users are never served it."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest

from .conftest import LOCALES
from .test_table import DESKTOP, MY_PLAY, PHONE, new_match

try:
    from playwright.sync_api import Page, expect
except ImportError:  # pragma: no cover - depends on the machine
    if os.environ.get("CI") == "true":
        raise
    pytest.skip("Playwright for Python is not installed", allow_module_level=True)

AXE = (os.path.dirname(__file__) + "/fixtures/axe.min.js", "axe-core")
EN = LOCALES["en"]
SERIOUS = ("serious", "critical")


def violations(page: Page) -> list[str]:
    """axe's serious and critical findings on the page as it stands: rule, impact, where."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        with open(AXE[0], encoding="utf-8") as f:
            page.evaluate(f.read())
    found: list[dict[str, Any]] = page.evaluate(
        """async () => (await axe.run(document, { resultTypes: ["violations"] })).violations
          .map((v) => ({ id: v.id, impact: v.impact,
                         nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 5) }))"""
    )
    return [f"{v['id']} ({v['impact']}): {v['nodes']}" for v in found if v["impact"] in SERIOUS]


def resign(page: Page) -> None:
    page.locator("#menu summary").click()
    page.locator("#resign").click()
    page.locator("#resign-yes").click()  # the page's own question
    expect(page.locator("#final")).to_be_visible()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_no_serious_violations(open_page: Callable[..., Page], size: str) -> None:
    page = open_page(prefs={}, **(DESKTOP if size == "desktop" else PHONE))
    page.goto("/")
    expect(page.locator("#new-match")).to_be_visible()
    assert violations(page) == [], "home"

    match_id = new_match(page, "editor")
    page.wait_for_function(MY_PLAY)
    assert violations(page) == [], "match, my move"
    page.locator("#hand .card.is-target").first.click()
    expect(page.locator("#decision .selected-card")).to_be_visible()
    assert violations(page) == [], "match, a card chosen"
    page.locator("#menu summary").click()
    assert violations(page) == [], "match, menu open"
    page.locator("#menu summary").click()

    resign(page)
    assert violations(page) == [], "finished match"

    page.goto(f"/replay/{match_id}")
    expect(page.locator("#board svg")).to_be_visible()
    assert violations(page) == [], "public replay"
