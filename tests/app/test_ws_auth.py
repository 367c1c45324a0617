"""Websocket authentication (contract v1.1): a seat's socket may send its token as its first
message instead of in ?token= (which keeps working), a socket that sends nothing is closed at the
deadline, and the first-message path tells a stranger no more than ?token= does.

Synchronisation is by blocking receives only (tests.app.test_ws.receive has a deadline)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from .test_ws import (
    ROLES,
    assert_error,
    receive,
    receive_view,
    reply,
    send_action,
    started,
    view_at,
)

MakeClient = Callable[..., TestClient]


@contextmanager
def authed(client: TestClient, match_id: str, token: str) -> Iterator[WebSocketTestSession]:
    """A seat's socket with the token in its first message, as the browser opens it."""
    with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
        ws.send_text(json.dumps({"type": "auth", "token": token}))
        yield ws


def refusal(ws: WebSocketTestSession) -> tuple[str, int]:
    """(error code, close code) of a socket the server refuses: one error frame, then closed."""
    message = receive(ws)
    assert_error(message)
    with pytest.raises(WebSocketDisconnect) as closed:
        receive(ws)
    return message["code"], closed.value.code


def test_a_seat_plays_over_a_socket_authenticated_by_its_first_message(
    client: TestClient,
) -> None:
    match_id, tokens = started(client)
    with (
        authed(client, match_id, tokens["editor"]) as ed,
        authed(client, match_id, tokens["nixon"]) as nx,
    ):
        ws = {"editor": ed, "nixon": nx}
        first = {role: receive_view(ws[role]) for role in ROLES}
        assert {role: first[role]["role"] for role in ROLES} == {r: r for r in ROLES}
        send_action(ed, first["editor"]["legal_actions"][0], 0)
        for role in ROLES:  # the action is applied and pushed to both seats
            assert view_at(ws[role], 1)["role"] == role


def test_a_second_auth_message_is_refused_and_the_socket_stays_open(client: TestClient) -> None:
    match_id, tokens = started(client)
    with client.websocket_connect(f"/ws/matches/{match_id}?token={tokens['editor']}") as ws:
        receive_view(ws)
        ws.send_text(json.dumps({"type": "auth", "token": tokens["editor"]}))
        assert_error(reply(ws), "already_authenticated")
        ws.send_text('{"type": "ping"}')
        assert reply(ws) == {"type": "pong"}


def _first_messages(tokens: dict[str, str], other: str) -> dict[str, tuple[str, str, int]]:
    """name -> (first message, expected code, expected close code)."""
    auth = lambda token: json.dumps({"type": "auth", "token": token})  # noqa: E731
    return {
        "unknown token": (auth("not-a-seat-token"), "unauthorized", 4401),
        "empty token": (auth(""), "unauthorized", 4401),
        "token of another match": (auth(other), "wrong_match", 4403),
        "no token field": ('{"type": "auth"}', "unauthorized", 4401),
        "an action first": (
            json.dumps({"type": "action", "action": {"type": "pass"}, "token": tokens["editor"]}),
            "unauthorized",
            4401,
        ),
        "not json": ("hello", "unauthorized", 4401),
    }


def test_a_bad_first_message_gets_an_error_then_the_socket_closes(client: TestClient) -> None:
    match_id, tokens = started(client)
    _, other = started(client)
    for name, (text, code, close) in _first_messages(tokens, other["editor"]).items():
        with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
            ws.send_text(text)
            assert refusal(ws) == (code, close), name


def test_a_socket_that_never_authenticates_is_closed_at_the_deadline(
    sqlite_url: str, make_client: MakeClient
) -> None:
    client = make_client(sqlite_url, ws_auth_seconds=0.2)
    match_id, _ = started(client)
    for path in (match_id, "no-such-match"):  # the same answer whether the match exists or not
        with client.websocket_connect(f"/ws/matches/{path}") as ws:
            assert refusal(ws) == ("auth_timeout", 4408)


def _answers(client: TestClient, match_id: str, token: str) -> tuple[Any, Any]:
    """(by ?token=, by the first message): what each path answers this token on this match."""
    with client.websocket_connect(f"/ws/matches/{match_id}?token={token}") as ws:
        by_query = refusal(ws)
    with authed(client, match_id, token) as ws:
        by_frame = refusal(ws)
    return by_query, by_frame


def test_the_first_message_tells_a_stranger_what_the_token_query_tells(client: TestClient) -> None:
    """Whether a match exists stays as hidden as in v1: without a token of the match, an
    existing, a missing and a malformed match id get the same refusal on both paths."""
    match_id, _ = started(client)
    _, other = started(client)
    seen: dict[str, set[Any]] = {"not-a-seat-token": set(), other["editor"]: set()}
    for target in (match_id, "0" * 24, "x" * 80):  # real, missing, malformed
        for token, answers in seen.items():
            by_query, by_frame = _answers(client, target, token)
            assert by_query == by_frame, (target, token)
            answers.add(by_frame)
    assert seen == {
        "not-a-seat-token": {("unauthorized", 4401)},
        other["editor"]: {("wrong_match", 4403)},
    }
