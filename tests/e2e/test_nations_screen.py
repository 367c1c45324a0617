"""The Nations table on one screen: at 1280×800 the choices, the seat's own board and all three
rows of the progress board are in sight with nothing scrolled (neither the page nor a panel), at
the start and late in a match played by clicks, with every card that holds the seat's workers
on screen; on a phone every piece of the board tab is a 44 px tap target.

A match against the computer is played by clicks, as in test_nations_browser, but leaning on the
workers (picked up and deployed, seldom taken back) so that the late board holds many of them."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from .test_nations_browser import (
    CHANGED,
    DESKTOP,
    MOVED_ON,
    click_piece,
    clickables,
    start_from_home,
    version,
    wait,
)

LATE_ROUND = 4
MAX_CLICKS = 600

# the page and the two panels that must never need scrolling, and where the worker-holding cards
# (a card with a worker to pick up) and the progress board's cards are
MEASURE = """() => {
  const size = (e, height) => ({ scroll: e.scrollHeight, client: height ?? e.clientHeight,
    scrollW: e.scrollWidth, clientW: e.clientWidth });
  const panel = (sel) => ({ sel, ...size(document.querySelector(sel)) });
  const box = (e) => { const r = e.getBoundingClientRect();
    return { card: e.dataset.card, top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
  const cards = (sel) => [...document.querySelectorAll(sel)];
  return {
    page: size(document.documentElement, innerHeight),
    panels: [panel(".n-area-mine"), panel(".n-area-progress")],
    held: cards(".n-area-mine .n-card").filter((c) => c.querySelector(".n-pickup")).map(box),
    progress: cards(".n-area-progress .n-card").map(box),
    rows: document.querySelectorAll(".n-area-progress .n-row").length,
    round: document.getElementById("n-round").textContent,
  };
}"""


def assert_one_screen(page: Page, when: str) -> dict[str, Any]:
    """Nothing scrolls, and the worker-holding cards and the progress cards are in the viewport."""
    m: dict[str, Any] = page.evaluate(MEASURE)
    for p in m["panels"]:
        assert p["scroll"] <= p["client"] + 1, f"{when}: {p['sel']} scrolls inside: {p}"
        assert p["scrollW"] <= p["clientW"] + 1, f"{when}: {p['sel']} scrolls sideways: {p}"
    assert m["page"]["scroll"] <= m["page"]["client"], f"{when}: the page scrolls: {m['page']}"
    assert m["page"]["scrollW"] <= m["page"]["clientW"], f"{when}: the page scrolls sideways"
    assert m["rows"] == 3, f"{when}: the progress board's rows"
    width, height = DESKTOP["width"], DESKTOP["height"]
    for c in m["held"] + m["progress"]:
        inside = c["top"] >= 0 and c["left"] >= 0 and c["bottom"] <= height and c["right"] <= width
        assert inside, f"{when}: {c['card']} is not on the screen: {c}"
    return m


def lean_on_workers(page: Page, rnd: random.Random) -> None:
    """One click, preferring to pick up and deploy workers; a worker is never taken back, a card
    that holds workers never replaced, and the turn seldom passed (so that nations build)."""
    offered = [
        (el, el.get_attribute("data-key") or "", el.get_attribute("data-kind"))
        for el in clickables(page)
    ]
    offered = [o for o in offered if not o[1].startswith("undeploy:")]
    assert offered, "my decision, but nothing on the table is offered"
    workers = [
        el for el, key, _ in offered if key == "idle" or key.startswith(("slot:", "worker:"))
    ]
    board = [el for el, _, kind in offered if kind is None]
    rest = [el for el, _, _ in offered]
    pool = (workers if rnd.random() < 0.7 else None) or board or rest
    if rnd.random() < 0.05:
        pool = rest
    before = (version(page), page.locator("#nations").get_attribute("data-pick"))

    def holds_workers(buy: Any) -> bool:  # a purchase that replaces a card holding workers
        replaced = json.loads(buy.get_attribute("data-action") or "{}").get("replace")
        held = f'.n-area-mine [data-card="{replaced}"] .n-pickup'
        return bool(replaced) and page.locator(held).count() > 0

    click_piece(page, rnd.choice(pool), rnd, avoid=holds_workers)
    wait(page, CHANGED, list(before), {"p1": page}, "a change after a click")


def round_now(page: Page) -> int:
    found = re.search(r"\d+", page.locator("#n-round").inner_text())
    return int(found[0]) if found else 0


def play_until_round(page: Page, rnd: random.Random, target: int) -> None:
    """Clicks for the seat until it is its decision, with nothing picked, in round `target`."""
    table = page.locator("#nations")
    for _ in range(MAX_CLICKS):
        # the seat's decision (the computer's moves come meanwhile), or the end
        wait(page, MOVED_ON, -1, {"p1": page}, "my decision")
        assert table.get_attribute("data-status") == "active", "the match ended early"
        if round_now(page) >= target and not table.get_attribute("data-pick"):
            return
        lean_on_workers(page, rnd)
    raise AssertionError(f"round {target} was not reached in {MAX_CLICKS} clicks")


def test_the_nations_table_fits_one_screen_at_1280_by_800_early_and_late(
    open_page: Callable[..., Page], shot: Callable[..., Path]
) -> None:
    page = open_page(prefs={}, viewport=DESKTOP)
    match_id = start_from_home(page, "bot")
    expect(page.locator("#nations")).to_have_attribute("data-mine", "true")
    assert_one_screen(page, "early")
    # the other nation's summary opens its cards over the side column: the seat's own board
    # does not move
    mine = page.locator(".n-area-mine").bounding_box()
    page.locator(".n-other-toggle").first.click()
    expect(page.locator(".n-area-theirs .n-cards")).to_be_visible()
    assert page.locator(".n-area-mine").bounding_box() == mine
    assert_one_screen(page, "early, the other nation's cards open")
    page.locator(".n-other-toggle").first.click()
    expect(page.locator(".n-area-theirs .n-cards")).to_be_hidden()

    play_until_round(page, random.Random(match_id), LATE_ROUND)
    late = assert_one_screen(page, "late")
    assert late["held"], f"late in the match ({late['round']}), no card of mine holds a worker"
    shot(page, "nations-late", full_page=False)


# every piece of the board tab a click acts on, and the buttons around it
TARGETS = """() => [...document.querySelectorAll(
    ".n-table [data-key], #n-controls button, .n-tab, #n-menu summary, .n-other-toggle")]
  .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== "hidden")
  .map((e) => { const r = e.getBoundingClientRect();
    return { what: e.dataset.key || e.textContent.trim(), width: r.width, height: r.height }; })"""


def test_on_a_phone_every_piece_of_the_nations_board_is_a_44_px_tap_target(
    open_page: Callable[..., Page],
) -> None:
    page = open_page(prefs={}, viewport={"width": 390, "height": 844})
    match_id = start_from_home(page, "bot")
    play_until_round(page, random.Random(match_id), 2)  # workers on cards: their controls too
    targets: list[dict[str, Any]] = page.evaluate(TARGETS)
    assert any(t["what"].startswith("worker:") for t in targets), "no worker to pick up on a card"
    small = [t for t in targets if t["width"] < 44 or t["height"] < 44]
    assert not small, f"tap targets under 44 px: {small}"
