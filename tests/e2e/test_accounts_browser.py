"""Accounts and ratings in the browser (issue 12): two people each create an account on the
account page, one starts a rated match from the home page and the other joins by the invite
link, one resigns at the table, and both players' pages then show their ratings moved (the
winner above the 1500 start, the loser below) with the chart of it; the home page lists the
finished match under "my games"; an anonymous browser asking for a rated match is told, in the
page's language, that it needs an account."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from .conftest import LOCALES, fill
from .test_browser import Table, start_match
from .test_players_browser import both_widths, menu

try:
    from playwright.sync_api import Page, expect
except ImportError:  # pragma: no cover - depends on the machine
    if os.environ.get("CI") == "true":
        raise
    pytest.skip("Playwright for Python is not installed", allow_module_level=True)

EN = LOCALES["en"]
ACCOUNT = EN["account"]
UI = EN["ui"]
Shot = Callable[..., Path]
PASSWORD = "correct horse battery"
MATCH_URL = re.compile(r"/match/([^/?#]+)$")


def sign_up(page: Page, username: str) -> str:
    """Create an account on the account page; the player id this browser now keeps."""
    page.goto("/account")
    page.locator("#sign-up-username").fill(username)
    page.locator("#sign-up-password").fill(PASSWORD)
    page.locator("#sign-up-submit").click()
    expect(page.locator("#account-status")).to_have_text(
        ACCOUNT["signed_in_as"].replace("{username}", username)
    )
    return str(page.evaluate("() => JSON.parse(localStorage.getItem('wg.player')).id"))


def shown_rating(page: Page, player_id: str) -> int:
    page.goto(f"/players/{player_id}")
    expect(page.locator("#rating-chart svg")).to_be_visible()  # drawn after a rated match
    text = page.locator("#rating-value").inner_text()
    found = re.match(r"\d+", text)
    assert found, text
    return int(found.group())


def test_a_rated_match_between_two_accounts_moves_both_ratings(
    open_page: Callable[..., Page],
) -> None:
    ana, bob = open_page(), open_page()
    ana_id, bob_id = sign_up(ana, "ana_browser"), sign_up(bob, "bob_browser")
    both_widths(ana, "account-signed-in")

    ana.goto("/")
    ana.locator("#rated").check()
    match_id = start_match(ana, "editor", "human")
    invite = ana.locator("#invite-url")
    expect(invite).to_have_value(re.compile(r"/invite/\S+$"))
    bob.goto(invite.input_value())  # a browser that knows its player claims at once
    expect(bob).to_have_url(MATCH_URL)
    expect(ana.locator("#side-theirs")).to_contain_text("bob_browser")

    menu(bob)
    bob.locator("#resign").click()
    bob.locator("#resign-yes").click()  # the page's own question
    expect(ana.locator("#final")).to_be_visible()
    said = {}  # each end screen tells its player the rating change (issue 42)
    for page, name in ((ana, "ana"), (bob, "bob")):
        line = page.locator("#final .end-rating")
        expect(line).to_have_text(re.compile(r"\d+ \([+−]\d+ "))
        said[name] = line.inner_text()
    both_widths(ana, "final-rated-win")

    won, lost = shown_rating(ana, ana_id), shown_rating(bob, bob_id)
    assert won > 1500 > lost, (won, lost)
    assert said == {  # the same figures as the profiles, the change from the 1500 start
        "ana": fill(UI["rating_change"], rating=won, change=f"+{won - 1500}"),
        "bob": fill(UI["rating_change"], rating=lost, change=f"−{1500 - lost}"),
    }
    expect(ana.locator("#recent li").first).to_contain_text("bob_browser")
    both_widths(ana, "profile-after-rated-win")
    bob.goto(f"/players/{ana_id}")  # anyone sees the same public page
    assert shown_rating(bob, ana_id) == won

    ana.goto("/")
    recent = ana.locator("#my-recent a").first
    expect(recent).to_have_attribute("href", f"/replay/{match_id}")
    both_widths(ana, "home-my-games")
    ana.goto("/leaderboard")
    expect(ana.locator("#board-rows tr")).to_have_count(2)
    expect(ana.locator("#board-rows tr").first).to_contain_text("ana_browser")


def test_a_rated_match_without_an_account_is_explained(open_page: Callable[..., Page]) -> None:
    page = open_page()
    page.goto("/")
    page.locator("#rated").check()
    page.locator("#start").click()
    expect(page.locator("#form-error")).to_have_text(ACCOUNT["errors"]["account_required"])


def test_two_accounts_meet_in_the_lobby_play_rated_with_chat_and_both_ratings_move(
    open_page: Callable[..., Page], shot: Shot
) -> None:
    """Issue 12's whole flow: two accounts meet in the lobby by name (a rated challenge, joined
    with one click), see each other's names, chat, play, and the match's end moves both
    ratings."""
    ana, bea = open_page(), open_page()
    ana_id, bea_id = sign_up(ana, "ana_lobby"), sign_up(bea, "bea_lobby")
    bea.goto("/lobby")
    ana.goto("/lobby")
    expect(ana.locator("#player-name")).to_have_value("ana_lobby")  # the account's name
    ana.locator("#challenge-form").get_by_text(EN["ui"]["editor"], exact=True).click()
    ana.locator("#rated").check()
    ana.locator("#open-challenge").click()
    expect(ana).to_have_url(MATCH_URL)
    match_id = MATCH_URL.search(ana.url).group(1)  # type: ignore[union-attr]

    row = bea.locator(f'.challenge[data-match-id="{match_id}"]')  # pushed to the open lobby
    expect(row.locator(".who")).to_have_text("ana_lobby")
    expect(row).to_contain_text(EN["lobby"]["rated"])
    row.get_by_role("button", name=EN["lobby"]["join"]).click()
    expect(bea).to_have_url(re.compile(f"/match/{match_id}$"))
    expect(ana.locator("#side-theirs")).to_contain_text("bea_lobby")
    expect(bea.locator("#side-theirs")).to_contain_text("ana_lobby")

    ana.locator("#chat-input").fill("Good luck, Bea")
    ana.locator("#chat-input").press("Enter")
    expect(bea.locator("#chat-lines li").last.locator(".chat-text")).to_have_text("Good luck, Bea")
    pages = {"editor": ana, "nixon": bea}
    table = Table(pages, shot, explore=False)
    for _ in range(4):
        role = table.whose_turn()
        assert role is not None, table.summary()
        table.act(role)
    menu(bea)
    bea.locator("#resign").click()
    bea.locator("#resign-yes").click()  # the page's own question
    expect(ana.locator("#final")).to_be_visible()

    won, lost = shown_rating(ana, ana_id), shown_rating(bea, bea_id)
    assert won > 1500 > lost, (won, lost)


def sign_in(page: Page, username: str) -> None:
    page.goto("/account")
    page.locator("#sign-in-username").fill(username)
    page.locator("#sign-in-password").fill(PASSWORD)
    page.locator("#sign-in-submit").click()
    expect(page.locator("#account-status")).to_have_text(
        ACCOUNT["signed_in_as"].replace("{username}", username)
    )


def test_a_signed_in_players_seat_opens_on_their_other_device(
    open_page: Callable[..., Page],
) -> None:
    """Issue 42, item 1: the seat a player took in one browser is theirs in another browser
    signed in to the same account — the table opens as that seat there, not "this browser holds
    no seat"; a browser of another account is still told the match is not theirs."""
    laptop, phone, stranger = open_page(), open_page(), open_page()
    sign_up(laptop, "ana_devices")
    laptop.goto("/")
    match_id = start_match(laptop, "editor", "human")
    sign_in(phone, "ana_devices")
    sign_up(stranger, "cy_devices")

    phone.goto(f"/match/{match_id}")
    expect(phone).to_have_url(re.compile(rf"/match/{match_id}$"))  # back at the table, seated
    expect(phone.locator("#side-mine")).to_contain_text("ana_devices")
    expect(phone.locator("#invite-url")).to_be_hidden()  # the seat's page, without its invite

    stranger.goto(f"/match/{match_id}")
    # issue 42: told plainly that the match is private (it is not in the lobby), at the top
    expect(stranger.locator("#here-text")).to_have_text(EN["ui"]["here_private"])
    expect(stranger.locator("#here-status")).to_have_text(EN["ui"]["here_private_title"])
