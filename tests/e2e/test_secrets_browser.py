"""No seat token in a URL the browser opens (contract v1.1, websocket authentication): two friends
start a match through the invite link, play a few moves over their sockets and reload; every page,
request and websocket address either browser opened is free of both seat tokens, and each seat's
socket carried its token in its first message instead."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .test_browser import Table, join_invite, start_match

try:
    from playwright.sync_api import Page, WebSocket, expect
except ImportError:  # pragma: no cover - depends on the machine
    if os.environ.get("CI") == "true":
        raise
    pytest.skip("Playwright for Python is not installed", allow_module_level=True)

Shot = Callable[..., Path]
MOVES = 4


class Traffic:
    """Every address a page opened (navigations, requests, websockets) and, per websocket, the
    messages it sent."""

    def __init__(self, page: Page) -> None:
        self.urls: list[str] = []
        self.sockets: list[tuple[str, list[str]]] = []  # (url, messages sent in order) per open
        page.on("framenavigated", lambda frame: self.urls.append(frame.url))
        page.on("request", lambda request: self.urls.append(request.url))
        page.on("websocket", self._socket)

    def _socket(self, ws: WebSocket) -> None:
        self.urls.append(ws.url)
        sent: list[str] = []
        self.sockets.append((ws.url, sent))
        ws.on("framesent", lambda payload: sent.append(str(payload)))


def seat_token(page: Page, match_id: str) -> str:
    seat: dict[str, Any] = page.evaluate(
        f"() => JSON.parse(localStorage.getItem('wg.seat.{match_id}'))"
    )
    return str(seat["token"])


def test_no_seat_token_is_in_any_url_the_browser_opens(
    open_page: Callable[..., Page], shot: Shot, server: str
) -> None:
    editor = open_page()
    traffic = {"editor": Traffic(editor)}
    editor.goto("/")
    match_id = start_match(editor, "editor", "human")
    invite = editor.locator("#invite-url")
    expect(invite).to_have_value(re.compile(r"/invite/\S+$"))
    nixon = open_page()
    traffic["nixon"] = Traffic(nixon)
    join_invite(nixon, invite.input_value())
    expect(nixon).to_have_url(re.compile(rf"/match/{re.escape(match_id)}$"))
    pages = {"editor": editor, "nixon": nixon}
    expect(editor.locator("body")).to_have_class(re.compile(r"\bmy-turn\b"))  # R5

    table = Table(pages, shot, explore=False)
    while table.steps < MOVES:  # each move is sent and pushed over the sockets
        role = table.whose_turn()
        assert role is not None, "every page has rendered the last push: someone decides"
        table.act(role)
    editor.reload()  # a new socket, authenticated again by its first message
    expect(editor.locator("#log")).to_have_attribute("data-count", re.compile(r"\d+"))

    socket_url = server.replace("http://", "ws://") + f"/ws/matches/{match_id}"
    actions = []
    for role, page in pages.items():
        token = seat_token(page, match_id)
        leaked = [url for seen in traffic.values() for url in seen.urls if token in url]
        assert not leaked, f"the {role}'s seat token is in {leaked}"
        bell_url = server.replace("http://", "ws://") + "/ws/notifications"
        opened = [(url, sent) for url, sent in traffic[role].sockets if url != bell_url]
        assert len(opened) == (2 if role == "editor" else 1), opened  # one per page load
        player = page.evaluate("() => JSON.parse(localStorage.getItem('wg.player') || 'null')")
        for url, sent in traffic[role].sockets:
            if url == bell_url:  # the table's bell (issue 43): its player's token, first message
                assert player is not None and player["token"] not in url
                assert json.loads(sent[0]) == {"type": "auth", "player_token": player["token"]}
                assert all(token not in m for m in sent)
        for url, sent in opened:
            # no secret in the query: only the request for log tails (contract v1.1)
            assert url == socket_url + "?log=tail"
            assert json.loads(sent[0]) == {"type": "auth", "token": token}  # its first message
            actions += [json.loads(m) for m in sent[1:]]
    assert len(actions) == MOVES and all(m["type"] == "action" for m in actions), actions
