"""Players' names in the browser (contract v1.1, players; the first slice): two people in two
browsers each pick a name (the home page asks on the first visit, the invite page before it
joins), one creates a match and the other joins through the invite link, and both tables, the
log and the spectator page show both names; a name the server refuses is explained in the
page's language; a rename on the home page reaches the opponent's open table by itself.
Screenshots at desktop and phone width are saved under /tmp/players-shots/."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from .conftest import LOCALES, fill
from .test_browser import Table, join_invite, player_name, seat_label, start_match

try:
    from playwright.sync_api import Page, expect
except ImportError:  # pragma: no cover - depends on the machine
    if os.environ.get("CI") == "true":
        raise
    pytest.skip("Playwright for Python is not installed", allow_module_level=True)

EN = LOCALES["en"]
UI, PLAYER = EN["ui"], EN["player"]
SHOTS = Path("/tmp/players-shots")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
MATCH_URL = re.compile(r"/match/([^/?#]+)$")
RESIGN = """async (id) => {
  const seat = JSON.parse(localStorage.getItem(`wg.seat.${id}`));
  const headers = { Authorization: `Bearer ${seat.token}` };
  return (await fetch(`/api/matches/${id}/resign`, { method: "POST", headers })).status;
}"""


def snap(page: Page, name: str) -> None:
    """A full-page screenshot at the page's width now, for a person to look at."""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True, animations="disabled")


def both_widths(page: Page, name: str) -> None:
    snap(page, f"{name}-desktop")
    page.set_viewport_size(PHONE)
    snap(page, f"{name}-phone")
    page.set_viewport_size(DESKTOP)


def menu(page: Page) -> Page:
    if page.locator("#menu").get_attribute("open") is None:
        page.locator("#menu summary").click()
    return page


def whoami(role: str, me: str, other: str, them: str) -> str:
    return (
        f"{UI['you_are']}: {seat_label(role, me)} · {UI['opponent_is']}: {seat_label(other, them)}"
    )


def test_two_named_players_see_each_other_everywhere(open_page: Callable[..., Page]) -> None:
    ana = open_page()
    ana.goto("/")
    field = ana.locator("#player-name")
    expect(ana.locator("#player-prompt")).to_have_text(PLAYER["prompt"])
    suggested = field.input_value()  # a suggestion is filled in: one click still starts
    assert re.fullmatch(fill(PLAYER["suggestion"], n=r"\d+"), suggested), suggested
    both_widths(ana, "home-first-visit")

    field.fill("<Ana>")  # refused by the server, explained in the page's words
    ana.locator("#save-name").click()
    expect(ana.locator("#name-error")).to_have_text(PLAYER["invalid"]["markup"])
    field.fill("  Ana Lúcia ")
    ana.locator("#save-name").click()
    expect(ana.locator("#player-hint")).to_have_text(PLAYER["saved"])
    expect(ana.locator("#name-error")).to_be_hidden()
    assert player_name(ana) == "Ana Lúcia"

    match_id = start_match(ana, "editor", "human")
    invite = ana.locator("#invite-url")
    expect(invite).to_have_value(re.compile(r"/invite/\S+$"))
    expect(ana.locator("#side-mine")).to_contain_text("Ana Lúcia")

    bob = open_page()
    bob.goto(invite.input_value())
    expect(bob.locator("#invite-status")).to_have_text(PLAYER["invited_title"])
    expect(bob.locator("#player-name")).to_be_focused()
    both_widths(bob, "invite-asks-a-name")
    join_invite(bob, invite.input_value(), "Bob")
    expect(bob).to_have_url(MATCH_URL)

    names = {"editor": "Ana Lúcia", "nixon": "Bob"}
    for page, role, other in ((ana, "editor", "nixon"), (bob, "nixon", "editor")):
        expected = whoami(role, names[role], other, names[other])
        expect(page.locator("#whoami")).to_have_text(expected)
        expect(page.locator("#side-mine")).to_contain_text(names[role])
        expect(page.locator("#side-theirs")).to_contain_text(names[other])
        expect(page.locator("#presence")).to_contain_text(seat_label(other, names[other]))

    table = Table({"editor": ana, "nixon": bob}, shot=lambda page, name: None, explore=False)
    while table.steps < 2:
        role = table.whose_turn()
        assert role is not None
        table.act(role)
    # the opponent's moves are told with its name
    expect(bob.locator("#log li.by-editor").first).to_contain_text(
        seat_label("editor", "Ana Lúcia")
    )
    expect(ana.locator("#log li.by-nixon").first).to_contain_text(seat_label("nixon", "Bob"))
    menu(ana)
    both_widths(ana, "table-editor")
    both_widths(bob, "table-nixon")

    spectate = ana.locator("#spectate-url").input_value()
    watcher = open_page()
    watcher.goto(spectate)
    expect(watcher.locator("#whoami")).to_have_text(UI["spectating"])
    for role in ("editor", "nixon"):
        expect(watcher.locator("#presence")).to_contain_text(seat_label(role, names[role]))
    expect(watcher.locator("#side-mine")).to_contain_text("Ana Lúcia")
    expect(watcher.locator("#side-theirs")).to_contain_text("Bob")
    both_widths(watcher, "spectator")

    home = ana.context.new_page()  # Ana renames herself in another tab of her browser
    home.goto("/")
    expect(home.locator("#player-prompt")).to_have_text(PLAYER["playing_as"])
    expect(home.locator("#player-name")).to_have_value("Ana Lúcia")
    home.locator("#player-name").fill("Ana L.")
    home.locator("#save-name").click()
    expect(home.locator("#player-hint")).to_have_text(PLAYER["saved"])
    for page in (bob, watcher):  # pushed to the open tables, no reload
        expect(page.locator("#side-theirs" if page is bob else "#side-mine")).to_contain_text(
            "Ana L."
        )
    expect(bob.locator("#whoami")).to_have_text(whoami("nixon", "Bob", "editor", "Ana L."))
    home.close()

    resigned = bob.evaluate(RESIGN, match_id)
    assert resigned == 200
    expect(ana.locator("#final")).to_be_visible()
    ana.goto(f"/match/{match_id}/replay")  # the replay names the players too
    hands = ana.locator("#hands .hand-row h3")
    expect(hands).to_have_text([seat_label("editor", "Ana L."), seat_label("nixon", "Bob")])
    ana.locator("#forward").click()  # the first action is the Editor's (R5)
    expect(ana.locator("#step-action")).to_contain_text(f"1. {seat_label('editor', 'Ana L.')}: ")
    both_widths(ana, "replay")
