"""Tutorials in a real browser (contract v1.1 Tutorials): from the home page, each lesson is
played to its end by doing only what the coach says and clicking only what it points at; the
coach explains every topic of the lesson on the way, allows only the taught move where the
lesson needs it, and can be left at any time. Screenshots: tests/e2e/output/lesson-*.png."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import LOCALES, fill
from .test_axe import violations

EN = LOCALES["en"]
Shot = Callable[..., Path]
POINTED = "#match .coach-point.is-target, #decision .btn.coach-point"
# a Nations table: a board piece (data-key) or a prompt's button (data-action) the coach marks
NATIONS = "#nations"
NATIONS_POINTED = "#nations .coach-point.is-target, #n-controls .btn.coach-point"
# what a pointed piece is, to tell when the coach points elsewhere
POINTED_KEY = "(x) => x.dataset.target || x.dataset.key || x.dataset.action"


def lesson_texts(loc: dict[str, Any], lesson: str, game: str = "watergate") -> dict[str, str]:
    texts: dict[str, str] = loc["lessons"][game][lesson]
    return texts


def start_lesson(
    page: Page, server: str, lesson: str, loc: dict[str, Any] = EN, game: str = "watergate"
) -> None:
    page.goto(server + "/")
    page.get_by_role("button", name=lesson_texts(loc, lesson, game)["title"]).click()
    page.wait_for_url("**/nations/match/*" if game == "nations" else "**/match/*")
    expect(page.locator("#coach")).to_be_visible()


def follow_the_coach(
    page: Page,
    loc: dict[str, Any],
    lesson: str,
    shot: Shot,
    table: str = "#match",
    pointed: str = POINTED,
    check: Callable[[Page], None] | None = None,
) -> list[str]:
    """Do what the coach says until the lesson ends, clicking only what it points at on
    `table`; the coach's explanations, in order."""
    done = loc["lessons"]["ui"]["done"]
    coach = page.locator("#coach")
    read: list[str] = []
    moves = 0
    while True:
        speaking = coach.locator(".coach-move, .coach-next").or_(coach.get_by_text(done))
        expect(speaking).to_be_visible()
        while coach.locator(".coach-next").is_visible():  # one explanation at a time
            read.append((coach.locator(".coach-text").text_content() or "").strip())
            coach.locator(".coach-next").click()
        read.extend(t.strip() for t in coach.locator(".coach-text").all_text_contents())
        if coach.get_by_text(done).is_visible():
            break
        expect(coach.locator(".coach-move")).to_be_visible()
        version = page.locator(table).get_attribute("data-version")
        if moves in (0, 2):
            shot(page, f"lesson-{lesson}-step{moves}", full_page=False)
        # click what the coach points at, until the match moves on (a card, then its option;
        # a token, then its space; a worker, then the card it goes to)
        clicks = 0
        while page.locator(table).get_attribute("data-version") == version:
            target = page.locator(pointed).first
            expect(target).to_be_visible()
            if check:
                check(page)
            key = target.evaluate(POINTED_KEY)
            target.click()
            clicks += 1
            assert clicks <= 3, "the coach points at a move of at most three clicks"
            # the match moved on, or the coach points at the move's next piece (while the move
            # is in flight it points at nothing: a click then could land on the next step's piece)
            page.wait_for_function(
                f"""([v, k]) => {{
                     if (document.querySelector('{table}').dataset.version !== v) return true;
                     const keys = [...document.querySelectorAll('.coach-point')].map({POINTED_KEY});
                     return keys.length > 0 && !keys.includes(k);
                   }}""",
                arg=[version, key],
            )
        moves += 1
    return read


@pytest.mark.parametrize("lesson", ["editor", "nixon"])
def test_a_lesson_followed_by_clicks_teaches_every_topic_to_its_end(
    open_page: Callable[..., Page], server: str, shot: Shot, lesson: str
) -> None:
    # as a first-time player has it: auto-pass on (R18), the coach holding it while it speaks
    page = open_page(prefs={}, viewport={"width": 1280, "height": 800})
    start_lesson(page, server, lesson)
    topics = {k: v for k, v in lesson_texts(EN, lesson).items() if k != "title"}
    read = follow_the_coach(page, EN, lesson, shot)
    assert set(topics.values()) <= set(read), set(topics.values()) - set(read)
    shot(page, f"lesson-{lesson}-done", full_page=False)
    # past the lesson the match goes on against the computer, as any match
    expect(page.locator("#turn-indicator")).not_to_be_empty()


# The pieces the coach points at that its box covers, by key (none once the page has made room).
UNDER_COACH = f"""() => {{
  const c = document.getElementById("coach").getBoundingClientRect();
  return [...document.querySelectorAll("{POINTED}")].filter((x) => {{
    const r = x.getBoundingClientRect();
    return r.width && r.left < c.right && r.right > c.left && r.top < c.bottom && r.bottom > c.top;
  }}).map({POINTED_KEY});
}}"""


def uncovered(page: Page) -> None:
    """Every piece the coach points at is clear of the coach's box (waits while the page
    scrolls it into the clear; fails if it never is)."""
    page.wait_for_function(f"() => ({UNDER_COACH})().length === 0", timeout=3000)


@pytest.mark.parametrize("lesson", ["editor", "nixon"])
def test_on_a_phone_the_coach_never_covers_what_it_asks_you_to_touch(
    open_page: Callable[..., Page], server: str, shot: Shot, lesson: str
) -> None:
    """Issue 42 item 9: at 390×844 every piece the coach points at, on the table or among the
    choices, lies outside the coach's box when it is to be touched."""
    page = open_page(prefs={}, viewport={"width": 390, "height": 844})
    start_lesson(page, server, lesson)
    follow_the_coach(page, EN, f"{lesson}-phone", shot, check=uncovered)


def test_a_taught_step_offers_only_the_taught_move(
    open_page: Callable[..., Page], server: str
) -> None:
    page = open_page(viewport={"width": 1280, "height": 800})
    start_lesson(page, server, "editor")
    coach = json.loads(page.evaluate("fetch('/api/lessons/watergate/editor').then(r => r.text())"))
    first = coach["steps"][0]
    assert first["version"] == 0 and first["only"]
    expect(page.locator("#coach .coach-next")).to_be_visible()  # two topics: one page each
    page.locator("#coach .coach-next").click()
    expect(page.locator("#coach .coach-move")).to_be_visible()
    # the Editor starts with a full hand, but only the taught card can be chosen
    expect(page.locator("#hand .card")).not_to_have_count(1)
    expect(page.locator("#hand .card.is-target")).to_have_count(1)
    card = page.locator("#hand .card.is-target")
    expect(card).to_have_attribute("data-card", first["action"]["card"])
    card.click()
    expect(page.locator("#decision .decision-options .btn")).to_have_count(1)


def test_leaving_the_lesson_keeps_the_match_and_every_choice(
    open_page: Callable[..., Page], server: str
) -> None:
    page = open_page(viewport={"width": 390, "height": 844})
    start_lesson(page, server, "editor")
    expect(page.locator("#hand .card.is-target")).to_have_count(1)
    page.locator("#coach").get_by_role("button", name=EN["lessons"]["ui"]["leave"]).click()
    expect(page.locator("#coach")).to_contain_text(EN["lessons"]["ui"]["left"])
    expect(page.locator("#hand .card.is-target")).not_to_have_count(1)  # every legal card again
    page.reload()  # leaving is kept in this browser
    expect(page.locator("#coach")).to_contain_text(EN["lessons"]["ui"]["left"])


def test_the_lesson_speaks_german(open_page: Callable[..., Page], server: str, shot: Shot) -> None:
    de = LOCALES["de"]
    page = open_page(viewport={"width": 390, "height": 844}, locale="de-DE")
    start_lesson(page, server, "editor", de)
    coach = page.locator("#coach")
    expect(coach).to_contain_text(lesson_texts(de, "editor")["value"])
    progress = fill(de["lessons"]["ui"]["progress"], n=1, total=coach_steps(page))
    expect(coach).to_contain_text(progress)
    shot(page, "lesson-editor-phone-de", full_page=False)


def coach_steps(page: Page) -> int:
    coach = json.loads(page.evaluate("fetch('/api/lessons/watergate/editor').then(r => r.text())"))
    return len(coach["steps"])


def test_the_rules_page_links_a_rule_to_the_lesson_step_that_shows_it(
    open_page: Callable[..., Page], server: str
) -> None:
    page = open_page(viewport={"width": 1280, "height": 800})
    page.goto(server + "/rules")
    links = page.locator(".learn-it a")
    expect(links).to_have_count(10)  # five rules, a lesson of each seat
    reactions = page.locator("section", has=page.get_by_role("heading", name="Reactions"))
    reactions.get_by_role("link", name=EN["lessons"]["ui"]["as_editor"]).click()
    page.wait_for_url("**/match/*")
    coach = page.locator("#coach")
    expect(coach).to_contain_text(lesson_texts(EN, "editor")["reaction"])


def test_the_nations_lesson_followed_by_clicks_teaches_every_topic_to_its_end(
    open_page: Callable[..., Page], server: str, shot: Shot
) -> None:
    page = open_page(viewport={"width": 1280, "height": 800})
    start_lesson(page, server, "p1", game="nations")
    topics = {k: v for k, v in lesson_texts(EN, "p1", "nations").items() if k != "title"}
    read = follow_the_coach(page, EN, "nations-p1", shot, NATIONS, NATIONS_POINTED)
    assert set(topics.values()) <= set(read), set(topics.values()) - set(read)
    shot(page, "lesson-nations-done", full_page=False)
    # past the lesson the match goes on against the computer, as any match
    expect(page.locator("#nations")).to_have_attribute("data-status", "active")
    expect(page.locator("#n-turn")).not_to_be_empty()


def nations_coach(page: Page) -> dict[str, Any]:
    coach: dict[str, Any] = json.loads(
        page.evaluate("fetch('/api/lessons/nations/p1').then(r => r.text())")
    )
    return coach


def test_a_nations_taught_step_offers_only_the_taught_choice(
    open_page: Callable[..., Page], server: str, shot: Shot
) -> None:
    page = open_page(viewport={"width": 1280, "height": 800})
    start_lesson(page, server, "p1", game="nations")
    taught = next(s for s in nations_coach(page)["steps"] if s["only"])
    assert taught["action"] == {"type": "grow"}  # the first thing a nation does
    expect(page.locator(NATIONS)).to_have_attribute("data-version", str(taught["version"]))
    expect(page.locator("#coach .coach-move")).to_be_visible()
    # a growth offers the population track and every bonus; the lesson offers only the taught one
    expect(page.locator("#nations .n-table .is-target")).to_have_count(1)
    expect(page.locator("#n-fallback .n-fallback-btn")).to_have_count(1)
    expect(page.locator("#nations .coach-point")).to_have_count(1)
    assert violations(page) == [], "the Nations table with its coach open"
    shot(page, "lesson-nations-first", full_page=False)


@pytest.mark.parametrize(
    ("locale", "lang", "size"),
    [("pt-BR", "pt-BR", "phone"), ("de-DE", "de", "phone"), ("de-DE", "de", "desktop")],
)
def test_the_nations_lesson_speaks_the_players_language(
    open_page: Callable[..., Page], server: str, shot: Shot, locale: str, lang: str, size: str
) -> None:
    loc = LOCALES[lang]
    width, height = (390, 844) if size == "phone" else (1280, 800)
    page = open_page(viewport={"width": width, "height": height}, locale=locale)
    start_lesson(page, server, "p1", loc, "nations")
    coach = page.locator("#coach")
    first = nations_coach(page)["steps"][0]
    expect(coach).to_contain_text(lesson_texts(loc, "p1", "nations")[first["topics"][0]])
    assert violations(page) == [], f"the Nations coach, {size}, {locale}"
    shot(page, f"lesson-nations-{size}-{locale}", full_page=False)


def test_leaving_the_nations_lesson_offers_every_choice_again(
    open_page: Callable[..., Page], server: str, shot: Shot
) -> None:
    page = open_page(viewport={"width": 390, "height": 844})
    start_lesson(page, server, "p1", game="nations")
    expect(page.locator("#coach .coach-move")).to_be_visible()
    expect(page.locator("#n-fallback .n-fallback-btn")).to_have_count(1)  # the taught growth
    shot(page, "lesson-nations-phone-en", full_page=False)
    page.locator("#coach").get_by_role("button", name=EN["lessons"]["ui"]["leave"]).click()
    expect(page.locator("#coach")).to_contain_text(EN["lessons"]["ui"]["left"])
    # growing, or the bonus of each good: every legal choice once the lesson is left
    expect(page.locator("#n-fallback .n-fallback-btn")).to_have_count(4)
    expect(page.locator("#nations .coach-point")).to_have_count(0)
    page.reload()  # leaving is kept in this browser
    expect(page.locator("#coach")).to_contain_text(EN["lessons"]["ui"]["left"])
    expect(page.locator("#n-fallback .n-fallback-btn")).to_have_count(4)
