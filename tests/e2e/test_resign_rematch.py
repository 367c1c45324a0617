"""Resign and rematch in the browser (issue 7): two people at two computers (two browser
contexts) start a friend match through the invite link; one resigns through the Resign button and
the page's own question (no confirm()); both see the final screen; the loser offers a rematch,
the winner accepts, and both land in the new match with the roles swapped. A third browser
holding the spectator link watches, read-only, and is told so. Screenshots: tests/e2e/output/."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .conftest import LOCALES, fill
from .test_browser import join_invite, player_name, seat_label

try:
    from playwright.sync_api import Locator, Page, expect
except ImportError:  # pragma: no cover - depends on the machine
    if os.environ.get("CI") == "true":
        raise
    pytest.skip("Playwright for Python is not installed", allow_module_level=True)

Shot = Callable[..., Path]
EN = LOCALES["en"]
UI = EN["ui"]
MATCH_URL = re.compile(r"/match/([^/?#]+)$")
STATUS_OF = """async (id) => {
  const seat = JSON.parse(localStorage.getItem(`wg.seat.${id}`));
  const headers = { Authorization: `Bearer ${seat.token}` };
  const r = await fetch(`/api/matches/${id}`, { headers });
  return (await r.json()).status;
}"""


def whoami(role: str, me: str, them: str) -> str:
    other = "nixon" if role == "editor" else "editor"
    opponent = f"{UI['opponent_is']}: {seat_label(other, them)}"
    return f"{UI['you_are']}: {seat_label(role, me)} · {opponent}"


def menu(page: Page) -> Page:
    """Opens the top bar's menu (resign, spectator link, settings live there); returns the page."""
    if page.locator("#menu").get_attribute("open") is None:
        page.locator("#menu summary").click()
    return page


def match_id_of(page: Page) -> str:
    found = MATCH_URL.search(page.url)
    assert found, page.url
    return found[1]


def ask_to_resign(page: Page) -> Locator:
    """Resign from the menu: the page asks in its own dialog (issue 42: never the browser's
    confirm(), which a page cannot word, style or translate), Cancel focused; returns it."""
    menu(page).locator("#resign").click()
    question = page.get_by_role("dialog", name=UI["resign_confirm"])
    expect(question).to_be_visible()
    expect(question.get_by_role("button", name=UI["cancel"])).to_be_focused()
    return question


def friends_at_the_table(open_page: Callable[..., Page]) -> tuple[Page, Page, str]:
    """The Editor starts a friend match from the home page; Nixon opens the invite link."""
    editor = open_page()
    editor.goto("/")
    form = editor.locator("#new-match")
    form.get_by_text(UI["editor"], exact=True).click()
    form.get_by_text(UI["a_friend"], exact=True).click()
    editor.locator("#start").click()
    expect(editor).to_have_url(MATCH_URL)
    match_id = match_id_of(editor)
    invite = editor.locator("#invite-url")
    expect(invite).to_have_value(re.compile(r"/invite/\S+$"))
    nixon = open_page()
    join_invite(nixon, invite.input_value(), "Nina")
    expect(nixon).to_have_url(re.compile(rf"/match/{re.escape(match_id)}$"))
    ed = player_name(editor)
    expect(nixon.locator("#whoami")).to_have_text(whoami("nixon", "Nina", ed))
    expect(editor.locator("body")).to_have_class(re.compile(r"\bmy-turn\b"))  # R5
    expect(editor.locator("#whoami")).to_have_text(whoami("editor", ed, "Nina"))
    return editor, nixon, match_id


def test_resign_then_rematch_with_roles_swapped(open_page: Callable[..., Page], shot: Shot) -> None:
    editor, nixon, match_id = friends_at_the_table(open_page)
    for page in (editor, nixon):
        expect(menu(page).locator("#resign")).to_be_visible()
        expect(page.locator("#final")).to_be_hidden()
    watcher = open_page()  # someone given the spectator link
    watcher.goto(menu(editor).locator("#spectate-url").input_value())
    expect(watcher.locator("#whoami")).to_have_text(UI["spectating"])
    # told on the table itself, not only in the menu
    expect(watcher.locator("#watching")).to_have_text(UI["spectating"])
    expect(watcher.locator("#watching")).to_be_in_viewport()
    for page in (editor, nixon):
        expect(page.locator("#watching")).to_have_count(0)
    expect(watcher.locator("#resign")).to_be_hidden()
    expect(watcher.locator("#hand .card")).to_have_count(0)

    question = ask_to_resign(editor)
    shot(editor, "resign-question")
    question.get_by_role("button", name=UI["cancel"]).click()  # a change of mind: nothing happens
    expect(question).to_be_hidden()
    assert editor.evaluate(STATUS_OF, match_id) == "active"
    ask_to_resign(editor).press("Escape")  # so does Escape
    expect(question).to_be_hidden()
    assert editor.evaluate(STATUS_OF, match_id) == "active"
    expect(menu(editor).locator("#resign")).to_be_visible()

    ask_to_resign(editor).get_by_role("button", name=UI["resign"]).click()
    verdict = (
        f"{fill(UI['winner_is'], role=EN['roles_cap']['nixon'])}: {EN['reasons']['resigned']}."
    )
    for page, title in ((editor, UI["you_lost"]), (nixon, UI["you_won"])):
        final = page.locator("#final")
        expect(final).to_be_visible()
        expect(final.locator("h2")).to_have_text(title)
        expect(final.locator("p").first).to_have_text(verdict)
        expect(page.locator("#resign")).to_be_hidden()
        expect(final.get_by_role("button", name=UI["rematch_offer"])).to_be_visible()
    assert editor.evaluate(STATUS_OF, match_id) == "finished"
    expect(watcher.locator("#final h2")).to_have_text(UI["match_ended"])  # live, no reload
    expect(watcher.locator("#final button")).to_have_count(0)  # no rematch for spectators
    shot(editor, "resign-final-loser")
    shot(nixon, "resign-final-winner")

    editor.locator("#final").get_by_role("button", name=UI["rematch_offer"]).click()
    expect(editor.locator("#final .rematch")).to_have_text(UI["rematch_offered"])
    accept = nixon.locator("#final").get_by_role("button", name=UI["rematch_accept"])
    expect(accept).to_be_visible()  # pushed to the winner's page, no reload
    expect(nixon.locator("#final").get_by_role("button", name=UI["rematch_offer"])).to_have_count(0)
    shot(nixon, "rematch-offered-winner")
    accept.click()

    new_match = re.compile(r"/match/(?!" + re.escape(match_id) + r"$)[^/?#]+$")
    for page in (nixon, editor):  # the loser's page follows by itself
        expect(page).to_have_url(new_match)
    new_id = match_id_of(editor)
    assert match_id_of(nixon) == new_id != match_id
    ed = player_name(editor)  # the players move with their seats: roles swapped, names kept
    expect(nixon.locator("#whoami")).to_have_text(whoami("editor", "Nina", ed))
    expect(editor.locator("#whoami")).to_have_text(whoami("nixon", ed, "Nina"))
    expect(nixon.locator("body")).to_have_class(re.compile(r"\bmy-turn\b"))  # the new Editor
    expect(editor.locator("body")).not_to_have_class(re.compile(r"\bmy-turn\b"))
    for page in (editor, nixon):
        expect(page.locator("#final")).to_be_hidden()
        expect(menu(page).locator("#resign")).to_be_visible()
        assert page.evaluate(STATUS_OF, new_id) == "active"
    assert seats_of(editor) == {match_id: "editor", new_id: "nixon"}
    assert seats_of(nixon) == {match_id: "nixon", new_id: "editor"}
    shot(nixon, "rematch-new-match-editor")
    shot(editor, "rematch-new-match-nixon")


def seats_of(page: Page) -> dict[str, Any]:
    """The seats this browser keeps: match id -> role."""
    return dict(
        page.evaluate(
            """() => Object.fromEntries(Object.keys(localStorage)
              .filter((k) => k.startsWith("wg.seat."))
              .map((k) => [k.slice(8), JSON.parse(localStorage.getItem(k)).role]))"""
        )
    )
