"""Direct challenges (contract v1.2 "People"): a challenge makes a waiting match (the
challenger's seat taken, the target's kept), reaches the target at once (a `challenge`
notification, told to their lobby socket), is accepted (both seats then play), declined with a
reason, canceled by its challenger or expired; the target's setting and blocks refuse it with
one code. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.main import create_app, lobby_sweep_once
from app.persistence.db import Database
from app.persistence.people_tables import Notification
from app.services import challenges

from .accounts_helpers import sign_up
from .conftest import make_settings
from .test_api import assert_error, bearer
from .test_clocks import START, FakeClock
from .test_lifecycle import receive
from .test_players import Player, as_player, new_player

Body = dict[str, Any]


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def client(any_db_url: str, fake: FakeClock) -> Iterator[TestClient]:
    settings = make_settings(any_db_url, sweep_seconds=1e6)
    with TestClient(create_app(settings, clock=fake)) as c:
        yield c


def send(c: TestClient, me: Player, to: Player, **extra: Any) -> Any:
    body = {"to": to["player_id"], "role": "editor", **extra}
    return c.post("/api/challenges", json=body, headers=as_player(me))


def challenge(c: TestClient, me: Player, to: Player, **extra: Any) -> Body:
    made = send(c, me, to, **extra)
    assert made.status_code == 201, made.text
    return dict(made.json())


def lists(c: TestClient, me: Player) -> Body:
    found = c.get("/api/challenges", headers=as_player(me))
    assert found.status_code == 200, found.text
    return dict(found.json())


def view(c: TestClient, match_id: str, token: str) -> Body:
    return dict(c.get(f"/api/matches/{match_id}", headers=bearer(token)).json())


def act(c: TestClient, me: Player, made: Body, what: str, **body: Any) -> Any:
    path = f"/api/challenges/{made['challenge_id']}/{what}"
    return c.post(path, json=body or None, headers=as_player(me))


def notes(url: str, player: Player) -> list[tuple[str, dict[str, Any]]]:
    db = Database(url)
    try:
        with db.reader() as s:
            rows = s.scalars(
                select(Notification)
                .where(Notification.player == player["player_id"])
                .order_by(Notification.id)
            )
            return [(n.kind, dict(n.data)) for n in rows]
    finally:
        db.dispose()


def test_a_challenge_is_received_at_once_and_accepted(client: TestClient, any_db_url: str) -> None:
    ana, bo = new_player(client, "Ana"), new_player(client, "Bo")
    cy = new_player(client, "Cy")
    with (
        client.websocket_connect("/ws/lobby") as lobby,
        client.websocket_connect("/ws/lobby") as other,
    ):
        lobby.send_json({"type": "auth", "player_token": bo["player_token"]})
        other.send_json({"type": "auth", "player_token": cy["player_token"]})
        assert receive(lobby)["type"] == "lobby" and receive(other)["type"] == "lobby"
        made = challenge(client, ana, bo, clock="realtime-15")
        told = receive(lobby)
        assert told["type"] == "notified" and isinstance(told["id"], int)
        other.send_json({"type": "ping"})
        assert receive(other)["type"] == "pong"  # nobody else's socket is told
    assert set(made) == {"challenge_id", "match_id", "role", "seat_token", "invites"}
    assert made["role"] == "editor" and made["invites"] == {}  # the target's seat has no link
    assert view(client, made["match_id"], made["seat_token"])["status"] == "waiting"
    [(kind, data)] = notes(any_db_url, bo)
    assert kind == "challenge" and data["challenge_id"] == made["challenge_id"]
    assert data["from"] == {"player_id": ana["player_id"], "name": "Ana"}
    incoming = lists(client, bo)["incoming"]
    assert [c["challenge_id"] for c in incoming] == [made["challenge_id"]]
    assert incoming[0]["challenger"]["name"] == "Ana" and incoming[0]["seat"] == "nixon"
    assert incoming[0]["clock"] == "realtime-15" and incoming[0]["status"] == "open"
    assert lists(client, bo)["outgoing"] == [] and lists(client, ana)["incoming"] == []
    assert [c["status"] for c in lists(client, ana)["outgoing"]] == ["open"]
    # only the target accepts
    assert_error(act(client, ana, made, "accept"), 403, "not_your_challenge")
    assert_error(act(client, cy, made, "accept"), 404, "not_found")
    accepted = act(client, bo, made, "accept")
    assert accepted.status_code == 200, accepted.text
    seat = accepted.json()
    assert seat["match_id"] == made["match_id"] and seat["role"] == "nixon"
    assert view(client, made["match_id"], seat["seat_token"])["status"] == "active"
    assert view(client, made["match_id"], made["seat_token"])["status"] == "active"
    assert lists(client, ana)["outgoing"][0]["status"] == "accepted"
    assert lists(client, bo)["incoming"] == []
    assert notes(any_db_url, ana)[-1][0] == "challenge_accepted"
    assert_error(act(client, bo, made, "accept"), 409, "challenge_closed")
    assert_error(act(client, bo, made, "decline"), 409, "challenge_closed")
    assert_error(act(client, ana, made, "cancel"), 409, "challenge_closed")
    assert view(client, made["match_id"], seat["seat_token"])["status"] == "active"  # untouched


def test_decline_with_a_reason_then_challenge_again(client: TestClient, any_db_url: str) -> None:
    ana, bo = new_player(client, "Ana"), new_player(client, "Bo")
    made = challenge(client, ana, bo)
    assert_error(send(client, ana, bo), 409, "challenge_open")  # one open at a time
    assert_error(act(client, bo, made, "decline", reason="rude"), 422, "invalid_reason")
    assert_error(act(client, ana, made, "decline", reason="later"), 403, "not_your_challenge")
    assert act(client, bo, made, "decline", reason="too_fast").status_code == 204
    [answered] = lists(client, ana)["outgoing"]
    assert answered["status"] == "declined" and answered["reason"] == "too_fast"
    kind, data = notes(any_db_url, ana)[-1]
    assert kind == "challenge_declined" and data["reason"] == "too_fast"
    assert data["by"] == {"player_id": bo["player_id"], "name": "Bo"}
    # the declined challenge's match ended unplayed; its seat can be taken by nobody
    assert view(client, made["match_id"], made["seat_token"])["status"] == "finished"
    assert_error(act(client, bo, made, "accept"), 409, "challenge_closed")
    again = challenge(client, ana, bo)
    assert act(client, bo, again, "accept").status_code == 200


def test_the_challenger_cancels(client: TestClient, any_db_url: str) -> None:
    ana, bo = new_player(client, "Ana"), new_player(client, "Bo")
    made = challenge(client, ana, bo)
    assert_error(act(client, bo, made, "cancel"), 403, "not_your_challenge")
    assert act(client, ana, made, "cancel").status_code == 204
    assert lists(client, bo)["incoming"] == []
    assert notes(any_db_url, bo)[-1][0] == "challenge_canceled"
    assert_error(act(client, bo, made, "accept"), 409, "challenge_closed")
    assert_error(act(client, ana, made, "cancel"), 409, "challenge_closed")


def test_challenges_expire(client: TestClient, fake: FakeClock) -> None:
    ana, bo = new_player(client, "Ana"), new_player(client, "Bo")
    live = challenge(client, ana, bo, clock="realtime-15")
    fake.advance(challenges.LIVE_EXPIRY.total_seconds() + 1)
    assert lists(client, bo)["incoming"] == []  # past its time: no longer offered
    assert_error(act(client, bo, live, "accept"), 409, "challenge_expired")
    assert client.portal is not None
    client.portal.call(lobby_sweep_once, client.app.state.ctx)  # type: ignore[attr-defined]
    assert lists(client, ana)["outgoing"][0]["status"] == "expired"
    assert view(client, live["match_id"], live["seat_token"])["status"] == "finished"
    slow = challenge(client, ana, bo, clock="turn-1")
    fake.advance(challenges.LIVE_EXPIRY.total_seconds() + 1)
    assert [c["challenge_id"] for c in lists(client, bo)["incoming"]] == [slow["challenge_id"]]


def test_who_may_challenge_me(client: TestClient) -> None:
    ana, bo = new_player(client, "Ana"), new_player(client, "Bo")
    acct = sign_up(client, "cy_account")

    def setting(value: str) -> None:
        done = client.patch(
            "/api/players/me/settings", json={"challenges": value}, headers=as_player(bo)
        )
        assert done.status_code == 200

    setting("nobody")
    assert_error(send(client, ana, bo), 403, "challenge_refused")
    setting("registered")
    assert_error(send(client, ana, bo), 403, "challenge_refused")  # a guest
    assert act(client, bo, challenge(client, acct, bo), "decline").status_code == 204
    setting("friends")
    client.put(f"/api/players/me/follows/{bo['player_id']}", headers=as_player(ana))
    assert_error(send(client, ana, bo), 403, "challenge_refused")  # a follow one way only
    client.put(f"/api/players/me/follows/{ana['player_id']}", headers=as_player(bo))
    challenge(client, ana, bo)


def test_a_block_refuses_challenges_both_ways_and_ends_open_ones(client: TestClient) -> None:
    ana, bo = new_player(client, "Ana"), new_player(client, "Bo")
    made = challenge(client, ana, bo)
    assert (
        client.put(f"/api/players/me/blocks/{ana['player_id']}", headers=as_player(bo)).status_code
        == 204
    )
    assert lists(client, bo)["incoming"] == []
    assert lists(client, ana)["outgoing"][0]["status"] == "canceled"
    assert view(client, made["match_id"], made["seat_token"])["status"] == "finished"
    # the blocked one learns nothing but "refused", word for word a setting's answer
    by_block = assert_error(send(client, ana, bo), 403, "challenge_refused")
    assert_error(send(client, bo, ana), 403, "challenge_refused")
    cy = new_player(client, "Cy")
    client.patch("/api/players/me/settings", json={"challenges": "nobody"}, headers=as_player(cy))
    assert assert_error(send(client, ana, cy), 403, "challenge_refused") == by_block


def test_challenge_bad_input(client: TestClient) -> None:
    ana, bo = new_player(client, "Ana"), new_player(client, "Bo")
    assert_error(
        client.post("/api/challenges", json={"to": bo["player_id"]}), 401, "player_required"
    )
    assert_error(send(client, ana, ana), 422, "invalid_request")
    assert_error(send(client, ana, {"player_id": "nobody_here"}), 404, "not_found")
    assert_error(send(client, ana, bo, role="king"), 422, "invalid_role")
    assert_error(send(client, ana, bo, players=3), 422, "invalid_players")
    assert send(client, ana, bo, clock="forever").status_code == 422
    assert_error(send(client, ana, bo, rated=True), 403, "account_required")
    acct, other = sign_up(client, "ana_rated"), sign_up(client, "bo_rated")
    assert_error(send(client, acct, bo, rated=True), 422, "rated_needs_accounts")
    assert challenge(client, acct, other, rated=True)["role"] == "editor"
    assert_error(client.post("/api/challenges/nope/accept", headers=as_player(bo)), 404)
    assert_error(client.get("/api/challenges"), 401, "player_required")


def test_the_open_challenges_cap(client: TestClient) -> None:
    ana = new_player(client, "Ana")
    for n in range(challenges.MAX_OPEN):
        challenge(client, ana, new_player(client, f"P{n}"))
    assert_error(send(client, ana, new_player(client, "Zed")), 429, "too_many_challenges")
    assert len(lists(client, ana)["outgoing"]) == challenges.MAX_OPEN


def test_a_nations_challenge_with_an_open_seat_and_the_computer(client: TestClient) -> None:
    ana, bo, cy = (new_player(client, n) for n in ("Ana", "Bo", "Cy"))
    made = challenge(
        client, ana, bo, game="nations", players=4, role="p1", seats={"p3": "human", "p4": "bot"}
    )
    assert list(made["invites"]) == ["p3"]  # the third person's link; p2 is kept for Bo
    [incoming] = lists(client, bo)["incoming"]
    assert incoming["seat"] == "p2" and incoming["players"] == 4 and incoming["game"] == "nations"
    taken = act(client, bo, made, "accept").json()
    assert taken["role"] == "p2"
    assert view(client, made["match_id"], made["seat_token"])["status"] == "waiting"  # p3 open
    code = made["invites"]["p3"].rsplit("/", 1)[1]
    claimed = client.post(f"/api/invites/{code}/claim", headers=as_player(cy))
    assert claimed.status_code == 200
    assert view(client, made["match_id"], made["seat_token"])["status"] == "active"


@pytest.mark.parametrize(
    "body",
    [
        {"game": "nations", "players": 9},
        {"seats": {"nixon": "bot"}, "role": "editor"},  # no seat left for the target
        {"seats": {"p9": "bot"}, "game": "nations", "players": 3},
        {"game": "nations", "players": 3, "role": "p1", "seats": {"p2": "bot", "p3": "bot"}},
        {"to": "x" * 65},
        {"rated": "yes"},
        {"to": None},
        {"extra": 1},
        {"seats": {f"s{n}": "bot" for n in range(9)}},
    ],
)
def test_bad_challenges_are_4xx_with_a_code(client: TestClient, body: dict[str, Any]) -> None:
    ana, bo = new_player(client, "Ana"), new_player(client, "Bo")
    sent = client.post(
        "/api/challenges", json={"to": bo["player_id"], **body}, headers=as_player(ana)
    )
    assert 400 <= sent.status_code < 500 and sent.json()["code"], sent.text
    assert lists(client, bo)["incoming"] == []  # nothing was stored
    bad = [
        ("POST", "/api/challenges/" + "x" * 70 + "/accept", None),
        ("POST", "/api/challenges/abc/decline", {"reason": 5}),
        ("POST", "/api/challenges/abc/decline", {"reason": "x" * 40}),
        ("PUT", "/api/players/me/follows/%00", None),
        ("PUT", "/api/players/me/blocks/é", None),
        ("PATCH", "/api/players/me/settings", {"challenges": None}),
        ("PATCH", "/api/players/me/settings", {}),
    ]
    for method, path, payload in bad:
        answer = client.request(method, path, json=payload, headers=as_player(ana))
        assert 400 <= answer.status_code < 500 and answer.json()["code"], (path, answer.text)
