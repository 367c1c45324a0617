"""A page never goes back to an older view of its match. A match starts (waiting -> active)
without a move, so its version stays 0: the view a page asked for over HTTP before the second seat
was taken can be answered after the socket's frame that says the match is on. Taken, it left the
Editor waiting for an opponent who was already there, with no move offered, until the next push
(seen as a rare failure of the rematch test under load)."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

import pytest

from .conftest import LOCALES
from .test_browser import join_invite

try:
    from playwright.sync_api import Page, Route, expect
except ImportError:  # pragma: no cover - depends on the machine
    if os.environ.get("CI") == "true":
        raise
    pytest.skip("Playwright for Python is not installed", allow_module_level=True)

UI = LOCALES["en"]["ui"]
VIEW = re.compile(r"/api/matches/[^/?#]+$")
# counts the match views the page has read (after their JSON is parsed), so the test knows when
# the held answer has been taken in or refused
COUNT_VIEWS = """
const fetchFirst = window.fetch.bind(window);
window.fetch = async (input, init) => {
  const response = await fetchFirst(input, init);
  const url = new URL(String(input), location.href);
  if (/^\\/api\\/matches\\/[^/]+$/.test(url.pathname) && (init?.method ?? "GET") === "GET") {
    const json = response.json.bind(response);
    response.json = async () => {
      const body = await json();
      window.viewsRead = (window.viewsRead || 0) + 1;
      return body;
    };
  }
  return response;
};
"""


def test_a_view_read_before_the_match_started_does_not_undo_its_start(
    open_page: Callable[..., Page],
) -> None:
    editor = open_page()
    editor.add_init_script(COUNT_VIEWS)
    held: list[tuple[Route, Any]] = []

    def hold_first_view(route: Route) -> None:
        if route.request.method != "GET" or held:
            route.continue_()
            return
        held.append((route, route.fetch()))  # answered now (waiting), handed over later

    editor.goto("/")
    editor.route(VIEW, hold_first_view)
    form = editor.locator("#new-match")
    form.get_by_text(UI["editor"], exact=True).click()
    form.get_by_text(UI["a_friend"], exact=True).click()
    editor.locator("#start").click()
    invite = editor.locator("#invite-url")
    expect(invite).to_have_value(re.compile(r"/invite/\S+$"))  # the socket's frame: waiting
    # The route handler runs between the test's own calls to the browser: each round trip lets
    # it go on, so one is made until it has kept its answer (a bound, not a wait on the clock).
    for _ in range(1000):
        if held:
            break
        editor.evaluate("0")
    assert len(held) == 1 and held[0][1].json()["status"] == "waiting"

    nixon = open_page()
    join_invite(nixon, invite.input_value(), "Nina")
    expect(editor.locator("body")).to_have_class(re.compile(r"\bmy-turn\b"))  # pushed: it is on
    expect(editor.locator("#presence")).to_have_class(re.compile(r"\bon\b"))  # the last push

    read = editor.evaluate("() => window.viewsRead || 0")
    route, answer = held[0]
    route.fulfill(response=answer)  # the old answer arrives last
    editor.wait_for_function("(n) => (window.viewsRead || 0) > n", arg=read)
    expect(editor.locator("body")).to_have_class(re.compile(r"\bmy-turn\b"))
    expect(editor.locator("#turn-indicator")).to_have_text(UI["your_turn"])
    expect(editor.locator("#invite-box")).to_be_hidden()
