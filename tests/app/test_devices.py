"""Your seats on every device (contract v1.2, issue 42 item 1): a signed-in player who opens a
match they play on another browser asks `POST /api/matches/{id}/seat` with that browser's player
token and plays from there; nobody else can, and signing that browser out takes its seat away.
On SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Callable

import httpx
import pytest
from fastapi.testclient import TestClient

from .accounts_helpers import as_player, rated_match, sign_in, sign_up
from .test_api import assert_error, bearer

MakeClient = Callable[..., TestClient]


@pytest.fixture
def db_client(any_db_url: str, make_client: MakeClient) -> TestClient:
    return make_client(any_db_url)


def second_device(client: TestClient, username: str) -> dict[str, str]:
    signed = sign_in(client, username)
    assert signed.status_code == 200, signed.text
    return {"X-Player-Token": signed.json()["player_token"]}


def seat_here(client: TestClient, match_id: str, headers: dict[str, str]) -> httpx.Response:
    return client.post(f"/api/matches/{match_id}/seat", headers=headers)


def test_a_signed_in_player_plays_their_seat_from_a_second_device(db_client: TestClient) -> None:
    ana, bo = sign_up(db_client, "ana_dev"), sign_up(db_client, "bo_dev")
    match_id, tokens = rated_match(db_client, ana, bo, rated=False)
    phone = second_device(db_client, "ana_dev")

    got = seat_here(db_client, match_id, phone)
    assert got.status_code == 200, got.text
    answer = got.json()
    assert answer["role"] == "editor" and answer["match_id"] == match_id
    assert answer["seat_token"] not in tokens.values()  # a token of its own

    phone_seat = {"editor": answer["seat_token"], "nixon": tokens["nixon"]}
    view = db_client.get(f"/api/matches/{match_id}", headers=bearer(answer["seat_token"])).json()
    assert view["role"] == "editor"
    for _ in range(4):  # the Editor's turn comes within a few decisions; the phone acts for it
        mover = "editor" if view["legal_actions"] else "nixon"
        seen = db_client.get(f"/api/matches/{match_id}", headers=bearer(phone_seat[mover])).json()
        body = {"action": seen["legal_actions"][0], "expected_version": seen["version"]}
        moved = db_client.post(
            f"/api/matches/{match_id}/actions", json=body, headers=bearer(phone_seat[mover])
        )
        assert moved.status_code == 200, moved.text
        if mover == "editor":
            break
        view = db_client.get(
            f"/api/matches/{match_id}", headers=bearer(answer["seat_token"])
        ).json()
    else:
        pytest.fail("the Editor never had a decision")
    # and the first browser's token still works beside it
    again = db_client.get(f"/api/matches/{match_id}", headers=bearer(tokens["editor"]))
    assert again.status_code == 200


def test_the_second_devices_seat_token_opens_the_seats_socket(db_client: TestClient) -> None:
    ana, bo = sign_up(db_client, "ana_ws"), sign_up(db_client, "bo_ws")
    match_id, _ = rated_match(db_client, ana, bo, rated=False)
    phone = second_device(db_client, "bo_ws")
    key = seat_here(db_client, match_id, phone).json()["seat_token"]
    with db_client.websocket_connect(f"/ws/matches/{match_id}") as ws:
        ws.send_text(json.dumps({"type": "auth", "token": key}))
        frame = json.loads(ws.receive_text())
        assert frame["type"] == "view" and frame["role"] == "nixon"


def test_nobody_else_gets_a_seat_and_the_answer_does_not_tell_matches_apart(
    db_client: TestClient,
) -> None:
    ana, bo, cy = (
        sign_up(db_client, "ana_x"),
        sign_up(db_client, "bo_x"),
        sign_up(db_client, "cy_x"),
    )
    match_id, _ = rated_match(db_client, ana, bo, rated=False)
    assert_error(seat_here(db_client, match_id, as_player(cy)), 403, "not_your_seat")
    assert_error(seat_here(db_client, "nosuchmatch", as_player(cy)), 403, "not_your_seat")
    assert_error(seat_here(db_client, match_id, {}), 401, "player_required")
    unknown = {"X-Player-Token": "x" * 43}
    assert_error(seat_here(db_client, match_id, unknown), 401, "unknown_player")


def test_signing_the_device_out_takes_its_seat_token_away(db_client: TestClient) -> None:
    ana, bo = sign_up(db_client, "ana_out"), sign_up(db_client, "bo_out")
    match_id, tokens = rated_match(db_client, ana, bo, rated=False)
    phone = second_device(db_client, "ana_out")
    key = seat_here(db_client, match_id, phone).json()["seat_token"]
    assert db_client.get(f"/api/matches/{match_id}", headers=bearer(key)).status_code == 200

    assert db_client.post("/api/accounts/logout", headers=phone).status_code in (200, 204)
    assert_error(db_client.get(f"/api/matches/{match_id}", headers=bearer(key)), 401)
    # the browser that took the seat keeps it
    assert (
        db_client.get(f"/api/matches/{match_id}", headers=bearer(tokens["editor"])).status_code
        == 200
    )


def test_asking_again_replaces_the_devices_earlier_seat_token(db_client: TestClient) -> None:
    ana, bo = sign_up(db_client, "ana_re"), sign_up(db_client, "bo_re")
    match_id, _ = rated_match(db_client, ana, bo, rated=False)
    phone = second_device(db_client, "ana_re")
    first = seat_here(db_client, match_id, phone).json()["seat_token"]
    second = seat_here(db_client, match_id, phone).json()["seat_token"]
    assert first != second
    assert_error(db_client.get(f"/api/matches/{match_id}", headers=bearer(first)), 401)
    assert db_client.get(f"/api/matches/{match_id}", headers=bearer(second)).status_code == 200
