"""The match websocket of product.md: a full view at once and after every change, actions in,
errors out with the socket left open, reconnection, per-seat views, whole matches over sockets only,
and a computer opponent that answers by itself.

Synchronisation is by blocking receives only; `receive` has a generous deadline so that a push the
server never sends fails the test instead of hanging it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from engine.watergate.bots import RandomBot

ROLES = ("editor", "nixon")
CONTRACT_KEYS = ("match_id", "role", "status", "version", "state", "legal_actions", "log", "winner")
DEADLINE = 10.0  # seconds; a guard against hanging, never a way to wait for something


def receive(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next message, or fail if none arrives before the deadline (or the socket closes)."""

    async def next_message() -> dict[str, Any]:
        with anyio.fail_after(DEADLINE):
            return await ws._send_rx.receive()  # type: ignore[no-any-return]

    try:
        message = ws.portal.call(next_message)
    except TimeoutError:
        pytest.fail(f"no websocket message within {DEADLINE} s")
    if message["type"] == "websocket.close":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason", ""))
    return json.loads(message.get("text") or message["bytes"].decode())


def receive_view(ws: WebSocketTestSession) -> dict[str, Any]:
    message = receive(ws)
    assert message["type"] == "view", message
    return message


def view_at(ws: WebSocketTestSession, version: int) -> dict[str, Any]:
    """The pushed view of `version`. Views of older versions may come first: a view is pushed
    again when something besides the rules changes (a seat connecting: presence)."""
    while True:
        view = receive_view(ws)
        assert view["version"] <= version, (view["version"], version)
        if view["version"] == version:
            return view


def view_after(ws: WebSocketTestSession, version: int) -> dict[str, Any]:
    """The first pushed view newer than `version` (pushes coalesce: it may be several moves on)."""
    while (view := receive_view(ws))["version"] <= version:
        pass
    return view


def reply(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next message that is not a view (no move is made meanwhile: views are refreshes)."""
    while (message := receive(ws))["type"] == "view":
        pass
    return message


def create(client: TestClient, role: str = "editor", opponent: str = "human") -> dict[str, Any]:
    response = client.post("/api/matches", json={"role": role, "opponent": opponent})
    assert response.status_code == 201, response.text
    return response.json()


def claim(client: TestClient, made: dict[str, Any]) -> dict[str, Any]:
    code = made["invite_url"].rsplit("/invite/", 1)[1]
    response = client.post(f"/api/invites/{code}/claim")
    assert response.status_code == 200, response.text
    return response.json()


def started(client: TestClient) -> tuple[str, dict[str, str]]:
    made = create(client, "editor")
    return made["match_id"], {
        "editor": made["seat_token"],
        "nixon": claim(client, made)["seat_token"],
    }


def http_view(client: TestClient, match_id: str, token: str) -> dict[str, Any]:
    response = client.get(f"/api/matches/{match_id}", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text
    return response.json()


@contextmanager
def socket(client: TestClient, match_id: str, token: str) -> Iterator[WebSocketTestSession]:
    with client.websocket_connect(f"/ws/matches/{match_id}?token={token}") as ws:
        yield ws


@contextmanager
def both_sockets(
    client: TestClient, match_id: str, tokens: dict[str, str]
) -> Iterator[dict[str, WebSocketTestSession]]:
    with (
        socket(client, match_id, tokens["editor"]) as ed,
        socket(client, match_id, tokens["nixon"]) as nx,
    ):
        yield {"editor": ed, "nixon": nx}


def send_action(ws: WebSocketTestSession, action: object, version: int | None = None) -> None:
    message: dict[str, Any] = {"type": "action", "action": action}
    if version is not None:
        message["expected_version"] = version
    ws.send_text(json.dumps(message))


def assert_error(message: dict[str, Any], code: str | None = None) -> None:
    assert message["type"] == "error", message
    assert isinstance(message["code"], str) and message["code"], message
    assert isinstance(message["message"], str) and message["message"], message
    if code is not None:
        assert message["code"] == code, message


# ---- connecting and pushes ----


def test_a_socket_gets_the_full_view_at_once(client: TestClient) -> None:
    match_id, tokens = started(client)
    for role in ROLES:
        with socket(client, match_id, tokens[role]) as ws:
            first = receive_view(ws)
            expected = http_view(client, match_id, tokens[role])
            for key in CONTRACT_KEYS:  # live extras (presence, clocks) may differ in time
                assert first[key] == expected[key], key
            assert (first["role"], first["status"], first["version"]) == (role, "active", 0)
            assert set(first["state"]) >= {"track", "board", "hands"}
            assert isinstance(first["log"], list)


def test_the_creators_socket_is_told_when_the_friend_claims_the_invite(
    client: TestClient,
) -> None:
    made = create(client, "editor")
    with socket(client, made["match_id"], made["seat_token"]) as ws:
        assert receive_view(ws)["status"] == "waiting"
        claim(client, made)
        while (pushed := view_at(ws, 0))["status"] == "waiting":
            pass
        assert pushed["status"] == "active"
        assert pushed["legal_actions"], "the Editor starts (R5) and may now play"


def test_an_http_action_is_pushed_to_both_seats(client: TestClient) -> None:
    match_id, tokens = started(client)
    with both_sockets(client, match_id, tokens) as ws:
        first = {role: receive_view(ws[role]) for role in ROLES}
        action = first["editor"]["legal_actions"][0]
        response = client.post(
            f"/api/matches/{match_id}/actions",
            headers={"Authorization": f"Bearer {tokens['editor']}"},
            json={"action": action, "expected_version": 0},
        )
        assert response.status_code == 200, response.text
        for role in ROLES:
            assert view_at(ws[role], 1)["role"] == role


def test_an_action_sent_over_the_socket_is_applied_and_pushed_to_both(client: TestClient) -> None:
    match_id, tokens = started(client)
    with both_sockets(client, match_id, tokens) as ws:
        first = {role: receive_view(ws[role]) for role in ROLES}
        send_action(ws["editor"], first["editor"]["legal_actions"][0], 0)
        for role in ROLES:
            assert view_at(ws[role], 1)["role"] == role
    assert http_view(client, match_id, tokens["editor"])["version"] == 1


def _junk(view: dict[str, Any]) -> list[tuple[str, str | None]]:
    hand = {c["id"] for c in view["state"]["hands"]["editor"]}
    foreign = next(c for c in ("E01", "E02", "E03", "E04", "E05", "E06") if c not in hand)
    legal = view["legal_actions"][0]
    return [
        ("this is not json", None),
        ("[1, 2, 3]", None),
        ('{"type": "dance"}', None),
        ('{"type": "action"}', None),
        ('{"type": "action", "action": {"type": "pass"}, "expected_version": "x"}', None),
        (
            json.dumps({"type": "action", "action": {"type": "play_action", "card": foreign}}),
            "illegal_action",
        ),
        (json.dumps({"type": "action", "action": legal, "expected_version": 5}), "stale_version"),
        ('{"type": "action", "action": [1, 2]}', None),
        ("[" * 50_000, None),
    ]


def test_junk_frames_get_an_error_and_the_socket_stays_open(client: TestClient) -> None:
    match_id, tokens = started(client)
    with socket(client, match_id, tokens["editor"]) as ws:
        first = receive_view(ws)
        for frame, code in _junk(first):
            ws.send_text(frame)
            assert_error(reply(ws), code)
            ws.send_text('{"type": "ping"}')
            assert reply(ws) == {"type": "pong"}, frame[:60]
        ws.send_bytes(b"\xff\xfe\x00 binary junk")
        assert_error(reply(ws))
        send_action(ws, first["legal_actions"][0], 0)
        assert view_at(ws, 1)["version"] == 1


@pytest.mark.parametrize("kind", ["unknown", "other-match", "missing"])
def test_a_bad_token_gets_an_error_then_the_socket_closes(client: TestClient, kind: str) -> None:
    match_id, _ = started(client)
    _, other_tokens = started(client)
    query = {
        "unknown": "?token=not-a-seat-token",
        "other-match": f"?token={other_tokens['editor']}",
        "missing": "?token=",  # with no ?token= at all the socket waits for an auth message
    }[kind]
    with client.websocket_connect(f"/ws/matches/{match_id}{query}") as ws:
        assert_error(receive(ws))
        with pytest.raises(WebSocketDisconnect):
            receive(ws)


def test_a_dropped_client_reconnects_and_gets_the_current_view(client: TestClient) -> None:
    match_id, tokens = started(client)
    with socket(client, match_id, tokens["nixon"]) as ws:
        assert receive_view(ws)["version"] == 0
    for _ in range(3):  # the match goes on while Nixon's client is away
        decider = http_view(client, match_id, tokens["editor"])["state"]["decision"]["role"]
        seen = http_view(client, match_id, tokens[decider])
        response = client.post(
            f"/api/matches/{match_id}/actions",
            headers={"Authorization": f"Bearer {tokens[decider]}"},
            json={"action": seen["legal_actions"][0], "expected_version": seen["version"]},
        )
        assert response.status_code == 200, response.text
    with socket(client, match_id, tokens["nixon"]) as ws:
        again = receive_view(ws)
    current = http_view(client, match_id, tokens["nixon"])
    assert again["version"] == current["version"] == 3
    assert again["state"] == current["state"]
    assert again["legal_actions"] == current["legal_actions"]


# ---- whole matches ----

CARD_ID = re.compile(r"^[EN]\d\d$")


def _card_ids(value: object) -> set[str]:
    """Every card id anywhere in a JSON value."""
    if isinstance(value, str):
        return {value} if CARD_ID.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(_card_ids(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_card_ids(v) for v in value)) if value else set()
    return set()


def _assert_own_view_only(pushed: dict[str, dict[str, Any]]) -> None:
    """At one version, neither seat's state or choices name a card in the other's hand."""
    for role, opponent in (("editor", "nixon"), ("nixon", "editor")):
        mine = pushed[role]
        assert mine["role"] == role
        assert type(mine["state"]["hands"][opponent]) is int
        their_hand = {c["id"] for c in pushed[opponent]["state"]["hands"][opponent]}
        seen = _card_ids(mine["state"]) | _card_ids(mine["legal_actions"])
        assert not seen & their_hand, (role, mine["version"], seen & their_hand)


@pytest.mark.parametrize("seed", [3, 4])
def test_a_whole_match_over_websockets_only(client: TestClient, seed: int) -> None:
    match_id, tokens = started(client)
    bots = {role: RandomBot(seed * 10 + k) for k, role in enumerate(ROLES)}
    with both_sockets(client, match_id, tokens) as ws:
        latest = {role: receive_view(ws[role]) for role in ROLES}
        while latest["editor"]["status"] == "active":
            _assert_own_view_only(latest)
            deciders = [role for role in ROLES if latest[role]["legal_actions"]]
            assert len(deciders) == 1, latest["editor"]["state"]["decision"]
            decider = deciders[0]
            mine = latest[decider]
            send_action(
                ws[decider],
                bots[decider].choose(mine["state"], mine["legal_actions"]),
                mine["version"],
            )
            latest = {role: view_after(ws[role], mine["version"]) for role in ROLES}
            assert mine["version"] < 2000, "the match does not end"
        _assert_own_view_only(latest)
    for role in ROLES:
        assert latest[role]["status"] == "finished"
        assert latest[role]["winner"] in ROLES
        assert latest[role]["legal_actions"] == []
    assert latest["editor"]["winner"] == latest["nixon"]["winner"]


@pytest.mark.parametrize("role", ROLES)
def test_a_match_against_the_computer_over_a_websocket(client: TestClient, role: str) -> None:
    made = create(client, role, "bot")
    bot = RandomBot(77)
    mine = 0
    with socket(client, made["match_id"], made["seat_token"]) as ws:
        seen = receive_view(ws)
        while seen["status"] != "finished":
            assert (seen["status"], seen["role"]) == ("active", role)
            if seen["legal_actions"]:
                mine += 1
                send_action(ws, bot.choose(seen["state"], seen["legal_actions"]), seen["version"])
                seen = view_after(ws, seen["version"])  # my move (and maybe the answer)
            else:
                seen = receive_view(ws)  # the computer answers by itself
            assert seen["version"] < 2000, "the match does not end"
    assert seen["winner"] in ROLES
    assert mine > 0
    assert seen["version"] > mine, "the computer made moves of its own"


def test_a_socket_that_asks_for_log_tails_gets_each_entry_once_and_the_same_log(
    client: TestClient,
) -> None:
    """v1.1 `?log=tail`: the first view is whole (log_from 0), then each view carries only the
    entries after "log_from"; put together they are exactly the whole log a v1 socket gets every
    time, so a push stays small late in a match. A reconnect starts whole again."""
    match_id, tokens = started(client)
    bot = RandomBot(8)
    tail_path = f"/ws/matches/{match_id}?token={tokens['editor']}&log=tail"
    with both_sockets(client, match_id, tokens) as ws, client.websocket_connect(tail_path) as tail:
        first = receive_view(tail)
        latest = {role: receive_view(ws[role]) for role in ROLES}
        assert first["log_from"] == 0 and first["log"] == latest["editor"]["log"]
        kept, longest_tail = list(first["log"]), 0
        for _ in range(40):
            decider = next(r for r in ROLES if latest[r]["legal_actions"])
            mine = latest[decider]
            send_action(
                ws[decider], bot.choose(mine["state"], mine["legal_actions"]), mine["version"]
            )
            latest = {role: view_after(ws[role], mine["version"]) for role in ROLES}
            while (part := receive_view(tail))["version"] < mine["version"] + 1:
                pass
            assert part["log_from"] <= len(kept)
            kept = kept[: part["log_from"]] + part["log"]
            longest_tail = max(longest_tail, len(part["log"]))
            assert kept == latest["editor"]["log"]  # the same entries, in the same order
            assert {k: v for k, v in part.items() if k not in ("log", "log_from")} == {
                k: v for k, v in latest["editor"].items() if k != "log"
            }
        assert "log_from" not in latest["editor"]  # a v1 socket never sees the field
        assert longest_tail < len(kept) / 2  # each push carried only the new entries
    with client.websocket_connect(tail_path) as again:
        whole = receive_view(again)
        assert whole["log_from"] == 0 and whole["log"] == kept
