"""A person challenges a bot in the browser and plays it (issue 45): a bot account runs the
reference client (`clients.bot`, on a thread of this test, over HTTP to the test's server);
Ana, a guest in a browser, opens the bot's page (marked BOT), challenges it to a Watergate duel
as the Editor from the page's dialog; the client accepts from its event stream and her page
takes her to the table. She plays by clicking while the client answers from its match stream,
until both have made real moves and a round is under way; then she resigns from the table's
menu, and the end screen says she lost by resigning, while the client sees the same end.
The end screen goes to tests/e2e/output/bot-duel-end.png."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from clients.bot import BotClient
from tests.clients.test_bot import bot_account

from .conftest import LOCALES, fill
from .test_people_browser import become

# Playwright after the e2e modules: without it they skip this module (in CI: fail it)
from .test_table import LOG_COUNT, play_until  # isort: skip
from playwright.sync_api import Page, expect  # isort: skip

EN = LOCALES["en"]
MATCH_URL = re.compile(r"/match/([^/?#]+)$")
ACCEPT_MS = 30_000  # the client's event stream hears the challenge and accepts it
ENOUGH_LOG = 25  # log lines before she resigns: several moves of each side
END_S = 30.0  # the client sees the end of the match within this


def test_a_person_challenges_a_bot_in_the_browser_and_plays_the_reference_client(
    server: str, open_page: Callable[..., Page], shot: Callable[..., Path]
) -> None:
    with httpx.Client(base_url=server, timeout=10.0) as http:
        robo, token = bot_account(http, "robo_browser")
    said: list[str] = []
    client = BotClient(httpx.Client(base_url=server, timeout=10.0), token, seed=3, say=said.append)
    thread = threading.Thread(target=client.run, daemon=True)
    thread.start()
    try:
        ana = open_page()
        become(ana, "Ana")
        ana.goto(f"/players/{robo['player_id']}")
        expect(ana.locator(".bot-mark").first).to_be_visible()  # a bot, and said so
        ana.locator("#challenge-button").click()
        dialog = ana.locator("#challenge-dialog")
        expect(dialog).to_be_visible()
        dialog.locator("label.choice:has(input[name=role][value=editor])").click()
        dialog.locator("select[name=clock]").select_option("none")
        dialog.locator("#challenge-send").click()
        expect(dialog).to_be_hidden()

        expect(ana).to_have_url(MATCH_URL, timeout=ACCEPT_MS)  # the client accepted
        match_id = MATCH_URL.search(ana.url).group(1)  # type: ignore[union-attr]
        assert client.played.accepted, said
        # her opponent is named a bot at the table too
        named = fill(EN["names"]["bot_named"], name="robo_browser")
        expect(ana.locator("#log")).to_contain_text(named)

        mine: list[int] = []
        done = f"() => ({LOG_COUNT})() >= {ENOUGH_LOG} || !document.getElementById('final').hidden"
        play_until(ana, done, "editor", seen=lambda page: mine.append(1), budget_s=180.0)
        assert mine and client.played.actions > 0, (len(mine), client.played.actions, said)

        final = ana.locator("#final")
        if not final.is_visible():  # the usual case: she resigns a few rounds in
            ana.locator("#menu summary").click()
            ana.locator("#resign").click()
            ana.locator("#resign-yes").click()  # the page's own question
            expect(final).to_be_visible()
            expect(final.locator("h2")).to_have_text(EN["ui"]["you_lost"])
            expect(final).to_contain_text(EN["reasons"]["resigned"])
        shot(ana, "bot-duel-end", full_page=False)

        lost = final.locator("h2").text_content() == EN["ui"]["you_lost"]
        winner = seen_end(client, match_id, said)
        assert winner == ("nixon" if lost else "editor"), (winner, said)  # the same end
    finally:
        client.stop.set()
        thread.join(timeout=40)
        client.http.close()


def seen_end(client: BotClient, match_id: str, said: list[str]) -> Any:
    """The winner the client read at the end of its match stream."""
    deadline = time.monotonic() + END_S
    while match_id not in client.played.finished:
        assert time.monotonic() < deadline, f"the client never saw the end: {said}"
        time.sleep(0.05)  # a condition polled with a deadline, not a wait standing in for one
    return client.played.finished[match_id]
