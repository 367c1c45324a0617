"""Hostile and broken requests: every one is refused with a 4xx carrying {"code", "message"} and
never crashes the server (no 500), on SQLite and on PostgreSQL where the database is involved."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from .conftest import ADMIN_TOKEN

LIMIT = 64 * 1024
JSON_HEADERS = {"content-type": "application/json"}


def create(client: TestClient, role: str = "editor", opponent: str = "human") -> dict[str, Any]:
    response = client.post("/api/matches", json={"role": role, "opponent": opponent})
    assert response.status_code == 201, response.text
    return response.json()


def started(client: TestClient) -> tuple[str, str]:
    """An active match: its id and the Editor's seat token."""
    made = create(client)
    code = made["invite_url"].rsplit("/invite/", 1)[1]
    assert client.post(f"/api/invites/{code}/claim").status_code == 200
    return made["match_id"], made["seat_token"]


def assert_refused(response: Any, *statuses: int) -> dict[str, Any]:
    """A 4xx (one of `statuses` if given) whose JSON body has a code and a message."""
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:300])
    if statuses:
        assert response.status_code in statuses, (response.status_code, response.text[:300])
    body = response.json()
    assert isinstance(body.get("code"), str) and body["code"], body
    assert isinstance(body.get("message"), str) and body["message"], body
    return body


@pytest.fixture
def no_raise_client(
    any_db_url: str, make_client: Callable[..., TestClient]
) -> Iterator[TestClient]:
    """A client on SQLite and on PostgreSQL that returns a server error as a 500 response."""
    client = make_client(any_db_url)
    client.raise_server_exceptions = False
    yield client


def _targets(client: TestClient) -> dict[str, tuple[str, dict[str, str]]]:
    match_id, token = started(client)
    return {
        "create": ("/api/matches", JSON_HEADERS),
        "action": (
            f"/api/matches/{match_id}/actions",
            {**JSON_HEADERS, "Authorization": f"Bearer {token}"},
        ),
        "claim": ("/api/invites/some-code/claim", JSON_HEADERS),
    }


# ---- size and depth ----


@pytest.mark.parametrize(
    ("target", "framing"),
    [
        ("create", "content-length"),
        ("action", "content-length"),
        ("claim", "content-length"),
        ("create", "chunked"),  # no length given: the server must count what it reads
        ("action", "chunked"),
    ],
)
def test_a_body_over_64_kib_is_refused_with_413(
    client: TestClient, target: str, framing: str
) -> None:
    client.raise_server_exceptions = False
    path, headers = _targets(client)[target]
    body = json.dumps({"action": {"type": "pass"}, "pad": "x" * (LIMIT + 1)}).encode()
    if framing == "chunked":
        chunks = [body[i : i + 8192] for i in range(0, len(body), 8192)]
        response = client.post(path, headers=headers, content=iter(chunks))
        assert response.request.headers.get("transfer-encoding") == "chunked"
    else:
        response = client.post(path, headers=headers, content=body)
    assert_refused(response, 413)
    assert response.json()["code"] == "payload_too_large"


def test_a_body_under_the_limit_is_read_not_refused_for_size(client: TestClient) -> None:
    body = json.dumps({"role": "editor", "pad": "x" * (LIMIT - 1000)})
    response = client.post("/api/matches", headers=JSON_HEADERS, content=body)
    assert_refused(response, 422)  # the unknown field, not the size


DEEP_BODIES = {
    "open-lists": "[" * 50_000,
    "open-lists-in-action": '{"action": ' + "[" * 50_000,
    "closed-lists": "[" * 30_000 + "]" * 30_000,
    "nested-objects-in-action": '{"action": ' + '{"a":' * 10_000 + "1" + "}" * 10_001,
}


@pytest.mark.parametrize("target", ["create", "action"])
@pytest.mark.parametrize("name", list(DEEP_BODIES))
def test_deeply_nested_json_is_refused_never_a_500(
    client: TestClient, target: str, name: str
) -> None:
    client.raise_server_exceptions = False
    path, headers = _targets(client)[target]
    body = assert_refused(client.post(path, headers=headers, content=DEEP_BODIES[name]), 400)
    assert body["code"] == "invalid_json"  # the contract's code (issue 40, finding 23)


def test_deeply_nested_json_on_the_websocket_gets_an_error_and_the_socket_stays_open(
    client: TestClient,
) -> None:
    match_id, token = started(client)
    with client.websocket_connect(f"/ws/matches/{match_id}?token={token}") as ws:
        assert ws.receive_json()["type"] == "view"
        for frame in (
            "[" * 50_000,
            "[" * 30_000 + "]" * 30_000,
            '{"type": "action", "action": ' + "[" * 40_000,
        ):
            ws.send_text(frame)
            error = ws.receive_json()
            assert error["type"] == "error" and error["code"] and error["message"]
        ws.send_text('{"type": "ping"}')
        assert ws.receive_json() == {"type": "pong"}


# ---- not JSON, wrong types, unknown fields ----


@pytest.mark.parametrize(
    ("body", "headers"),
    [
        (b"this is not json", JSON_HEADERS),
        (b'{"role": "editor",', JSON_HEADERS),
        (b"\xff\xfe\xfa invalid utf-8", JSON_HEADERS),
        (b"role=editor&opponent=bot", {"content-type": "application/x-www-form-urlencoded"}),
        (b"", JSON_HEADERS),
    ],
    ids=["text", "truncated", "bad-utf8", "form", "empty"],
)
@pytest.mark.parametrize("target", ["create", "action"])
def test_a_body_that_is_not_a_json_object_is_refused(
    client: TestClient, target: str, body: bytes, headers: dict[str, str]
) -> None:
    client.raise_server_exceptions = False
    path, base = _targets(client)[target]
    assert_refused(client.post(path, headers={**base, **headers}, content=body), 400, 422)


@pytest.mark.parametrize(
    "body",
    [
        {"role": 5},
        {"role": "Editor"},
        {"role": None},
        {"role": "editor", "opponent": ["bot"]},
        {"role": "editor", "opponent": "alien"},
        {"role": "editor", "colour": "red"},
        [{"role": "editor"}],
        "editor",
    ],
)
def test_create_refuses_wrong_types_and_unknown_fields(client: TestClient, body: object) -> None:
    assert_refused(client.post("/api/matches", json=body), 422)


@pytest.mark.parametrize(
    "body",
    [
        {"action": {"type": "pass"}, "expected_version": "x"},
        {"action": {"type": "pass"}, "expected_version": -1},
        {"action": {"type": "pass"}, "expected_version": 1.5},
        {"action": {"type": "pass"}, "expected_version": [0]},
        {"action": [1, 2]},
        {"action": {"type": "choose_token", "handle": "1"}},
        {"action": {"type": "choose_token", "handle": True}},
        {"action": {"type": "choose_token", "handle": 10**40}},
        {"action": {"type": "pass"}, "unknown": 1},
        {"expected_version": 0},
        [{"action": {"type": "pass"}}],
    ],
)
def test_actions_refuse_wrong_types_and_unknown_fields(client: TestClient, body: object) -> None:
    match_id, token = started(client)
    response = client.post(
        f"/api/matches/{match_id}/actions", headers={"Authorization": f"Bearer {token}"}, json=body
    )
    assert_refused(response, 422)
    view = client.get(f"/api/matches/{match_id}", headers={"Authorization": f"Bearer {token}"})
    assert view.json()["version"] == 0


# ---- junk in paths, queries and headers ----

JUNK_IDS = {
    "long": "a" * 10_000,
    "unicode": "匹配-🃏-ünï",
    "nul": "ab%00cd",
    "encoded-slash": "..%2F..%2Fadmin",
    "percent": "%25%25%25",
    "spaces": "%20%20",
}


@pytest.mark.parametrize("name", list(JUNK_IDS))
def test_junk_in_a_path_is_refused_with_a_4xx(no_raise_client: TestClient, name: str) -> None:
    client, junk = no_raise_client, JUNK_IDS[name]
    _, token = started(client)
    seat, admin = {"Authorization": f"Bearer {token}"}, {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    assert_refused(client.get(f"/api/matches/{junk}"), 401, 404)
    assert_refused(client.get(f"/api/matches/{junk}", headers=seat), 403, 404)
    action = {"action": {"type": "pass"}}
    assert_refused(client.post(f"/api/matches/{junk}/actions", headers=seat, json=action), 403, 404)
    assert_refused(client.get(f"/api/admin/matches/{junk}", headers=admin), 404)
    assert_refused(client.post(f"/api/invites/{junk}/claim"), 404)


@pytest.mark.parametrize("name", [n for n in JUNK_IDS if n != "encoded-slash"])
def test_junk_in_a_websocket_path_gets_an_error_and_a_close(
    no_raise_client: TestClient, name: str
) -> None:
    client, junk = no_raise_client, JUNK_IDS[name]
    _, token = started(client)
    # the token in the query (v1), junk in the query, and the token in the first message (v1.1)
    for query, auth in ((f"?token={token}", None), ("?token=%00junk", None), ("", token)):
        with client.websocket_connect(f"/ws/matches/{junk}{query}") as ws:
            if auth is not None:
                ws.send_json({"type": "auth", "token": auth})
            error = ws.receive_json()
            assert error["type"] == "error" and error["code"] and error["message"]
            with pytest.raises(WebSocketDisconnect):
                ws.receive_json()


@pytest.mark.parametrize("query", ["limit=-1", "limit=abc", "offset=-5", "limit=100000"])
def test_admin_list_refuses_bad_paging(client: TestClient, query: str) -> None:
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    assert_refused(client.get(f"/api/admin/matches?{query}", headers=admin), 422)


@pytest.mark.parametrize(
    "header",
    ["Bearer " + "x" * 8000, "Bearer", "bearer  ", "Token abc", "Bearer a b c", "Bearer ÿÿ"],
)
def test_junk_authorization_headers_get_401(client: TestClient, header: str) -> None:
    match_id, _ = started(client)
    raw = {"Authorization": header.encode("latin-1")}
    assert_refused(client.get(f"/api/matches/{match_id}", headers=raw), 401)
    admin = client.get("/api/admin/matches", headers=raw)
    assert_refused(admin, 401)


def test_unknown_paths_and_methods_answer_with_a_code(client: TestClient) -> None:
    assert_refused(client.get("/api/no-such-thing"), 404)
    assert_refused(client.delete("/api/matches"), 405)
    assert_refused(client.put("/healthz"), 405)
