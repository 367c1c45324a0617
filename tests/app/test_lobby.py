"""The public lobby (contract v1.1, "Players, lobby, ratings"): a public match is a challenge
listed in GET /api/lobby and pushed over WS /ws/lobby; joining takes its seat once (409 taken
after, 409 own_challenge for its creator) by the same path as its invite link; quick pairing
joins only a compatible challenge or opens one; a challenge leaves the lobby when taken,
cancelled, or when its creator has been away too long (driven by the app's injected clock)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from app.main import create_app, lobby_sweep_once

from .accounts_helpers import sign_up
from .conftest import make_settings
from .test_clocks import START, FakeClock
from .test_lifecycle import bearer, receive, refused, seat_socket, wait_for
from .test_players import Player, as_player, new_player
from .test_ws_auth import refusal

View = dict[str, Any]
MINUTE = 60.0


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def client(sqlite_url: str, fake: FakeClock) -> Iterator[TestClient]:
    settings = make_settings(sqlite_url, sweep_seconds=1e6, lobby_away_minutes=5)
    with TestClient(create_app(settings, clock=fake)) as c:
        yield c


def challenge(
    c: TestClient, player: Player | None, role: str = "editor", clock: str = "none"
) -> View:
    headers = as_player(player) if player else {}
    body = {"role": role, "clock": clock, "visibility": "public"}
    response = c.post("/api/matches", json=body, headers=headers)
    assert response.status_code == 201, response.text
    return dict(response.json())


def listed(c: TestClient) -> list[View]:
    response = c.get("/api/lobby")
    assert response.status_code == 200, response.text
    return list(response.json()["challenges"])


def join(c: TestClient, match_id: str, player: Player | None) -> Any:
    headers = as_player(player) if player else {}
    return c.post(f"/api/lobby/{match_id}/join", headers=headers)


def quick(c: TestClient, player: Player, **body: object) -> View:
    response = c.post("/api/lobby/quick", json=body, headers=as_player(player))
    assert response.status_code == 200, response.text
    return dict(response.json())


def lobby_list(ws: WebSocketTestSession, holds: Callable[[list[View]], bool]) -> list[View]:
    """Pushed lobby lists until one satisfies `holds` (each receive has its own deadline)."""
    for _ in range(12):
        message = receive(ws)
        assert message["type"] == "lobby", message
        if holds(message["challenges"]):
            return list(message["challenges"])
    pytest.fail("the awaited lobby list was never pushed")


def ids(found: list[View]) -> list[str]:
    return [c["match_id"] for c in found]


def sweep(c: TestClient) -> list[str]:
    assert c.portal is not None
    return list(c.portal.call(lobby_sweep_once, c.app.state.ctx))  # type: ignore[attr-defined]


def test_two_players_meet_in_the_lobby_and_a_third_sees_the_challenge_vanish(
    client: TestClient,
) -> None:
    ana, bea, carl = (new_player(client, n) for n in ("Ana", "Bea", "Carl"))
    with client.websocket_connect("/ws/lobby") as watching:
        assert lobby_list(watching, lambda found: True) == []
        made = challenge(client, ana, "editor", "turn-1")
        shown = lobby_list(watching, lambda found: len(found) == 1)
        assert shown == listed(client)
        entry = shown[0]
        assert entry["match_id"] == made["match_id"]
        assert entry["open_role"] == "nixon" and entry["game"] == "watergate"
        assert entry["creator"] == {
            "player_id": ana["player_id"], "name": "Ana", "rating": None, "reliability": None,
        }  # fmt: skip
        assert (entry["clock"], entry["rated"]) == ("turn-1", False)
        assert entry["created_at"].startswith("2030-03-17")  # the app's clock, not the wall's

        with seat_socket(client, made["match_id"], made["seat_token"]) as ana_ws:
            wait_for(ana_ws, lambda v: v["status"] == "waiting", "Ana waits at her table")
            joined = join(client, made["match_id"], bea)
            assert joined.status_code == 200, joined.text
            taken = joined.json()
            assert (taken["match_id"], taken["role"]) == (made["match_id"], "nixon")
            on = wait_for(ana_ws, lambda v: v["status"] == "active", "Ana learns it is on")
            assert on["players"]["nixon"]["name"] == "Bea"
        assert lobby_list(watching, lambda found: found == []) == []  # Carl sees it vanish
    refused(join(client, made["match_id"], carl), 409, "taken")
    refused(join(client, made["match_id"], None), 409, "taken")
    view = client.get(f"/api/matches/{made['match_id']}", headers=bearer(taken["seat_token"]))
    assert view.json()["players"]["editor"]["name"] == "Ana"
    assert listed(client) == []


def test_one_cannot_join_ones_own_challenge_and_a_challenge_needs_a_player(
    client: TestClient,
) -> None:
    ana = new_player(client, "Ana")
    made = challenge(client, ana)
    refused(join(client, made["match_id"], ana), 409, "own_challenge")
    assert ids(listed(client)) == [made["match_id"]]  # still open to everyone else
    body = {"visibility": "public"}
    refused(client.post("/api/matches", json=body), 401, "player_required")
    vs_bot = {"visibility": "public", "opponent": "bot"}
    refused(
        client.post("/api/matches", json=vs_bot, headers=as_player(ana)), 422, "invalid_request"
    )
    refused(client.post("/api/matches", json={"visibility": "open"}), 422, "invalid_request")
    refused(join(client, "nosuchmatch", None), 404, "not_found")
    private = client.post("/api/matches", json={"role": "editor"}, headers=as_player(ana)).json()
    refused(join(client, private["match_id"], None), 404, "not_found")  # invite links only
    assert ids(listed(client)) == [made["match_id"]]


def test_a_guest_may_join_and_the_invite_link_of_a_challenge_still_works(
    client: TestClient,
) -> None:
    ana = new_player(client, "Ana")
    first, second = challenge(client, ana), challenge(client, ana, "nixon")
    assert join(client, first["match_id"], None).json()["role"] == "nixon"
    code = second["invite_url"].rsplit("/invite/", 1)[1]
    claimed = client.post(f"/api/invites/{code}/claim")
    assert claimed.status_code == 200 and claimed.json()["role"] == "editor"
    assert listed(client) == []  # taken by its link: out of the lobby too
    refused(join(client, second["match_id"], None), 409, "taken")


def test_quick_pairing_joins_only_a_compatible_challenge_else_opens_one(
    client: TestClient, fake: FakeClock
) -> None:
    ana, bea, cid, dan = (new_player(client, n) for n in ("Ana", "Bea", "Cid", "Dan"))
    open_nixon = challenge(client, ana, "editor", "none")  # Nixon's seat open
    fake.advance(1)  # the lobby lists them oldest first
    other_clock = challenge(client, bea, "nixon", "turn-1")  # the Editor's, another clock
    fake.advance(1)
    open_editor = challenge(client, cid, "nixon", "none")  # the Editor's, the same clock
    fake.advance(1)
    paired = quick(client, dan, clock="none", role="editor")
    assert paired["created"] is False
    assert (paired["match_id"], paired["role"]) == (open_editor["match_id"], "editor")
    assert ids(listed(client)) == [open_nixon["match_id"], other_clock["match_id"]]

    # Ana's own challenge is compatible in all else: she is given a new one, not her own
    mine = quick(client, ana, clock="none", role="nixon")
    assert mine["created"] is True and mine["role"] == "nixon"
    assert mine["match_id"] not in (open_nixon["match_id"], other_clock["match_id"])

    guest_rated = client.post(
        "/api/lobby/quick", json={"clock": "none", "rated": True}, headers=as_player(dan)
    )
    refused(guest_rated, 403, "account_required")  # rated play needs an account
    eve = sign_up(client, "Eve_1")
    rated = quick(client, eve, clock="none", rated=True)  # only unrated ones are open
    assert rated["created"] is True
    entry = next(c for c in listed(client) if c["match_id"] == rated["match_id"])
    assert entry["rated"] is True and entry["creator"]["name"] == "Eve_1"
    assert entry["creator"]["rating"] is None, "no rated game played yet"

    # random takes the oldest compatible: Ana's first (Nixon open, clock none)
    anyone = quick(client, bea, clock="none", role="random")
    assert (anyone["match_id"], anyone["role"]) == (open_nixon["match_id"], "nixon")
    refused(client.post("/api/lobby/quick", json={"clock": "none"}), 401, "player_required")
    bad = client.post("/api/lobby/quick", json={"role": "judge"}, headers=as_player(bea))
    refused(bad, 422, "invalid_request")


def test_the_creator_cancels_and_only_the_creator(client: TestClient) -> None:
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    made = challenge(client, ana)
    with client.websocket_connect("/ws/lobby") as watching:
        lobby_list(watching, lambda found: len(found) == 1)
        path = f"/api/lobby/{made['match_id']}"
        refused(client.delete(path, headers=as_player(bea)), 403, "not_your_challenge")
        refused(client.delete(path), 401, "player_required")
        assert client.delete(path, headers=as_player(ana)).status_code == 204
        lobby_list(watching, lambda found: found == [])
    refused(client.delete(path, headers=as_player(ana)), 404, "not_found")
    refused(join(client, made["match_id"], bea), 409, "taken")
    code = made["invite_url"].rsplit("/invite/", 1)[1]  # still a private match by its link
    assert client.post(f"/api/invites/{code}/claim").status_code == 200


def test_a_challenge_whose_creator_is_away_too_long_leaves_the_lobby(
    client: TestClient, fake: FakeClock
) -> None:
    ana, bea, cid = (new_player(client, n) for n in ("Ana", "Bea", "Cid"))
    made = []
    for player in (ana, bea, cid):
        made.append(challenge(client, player))
        fake.advance(1)  # the lobby lists them oldest first
    gone, looking, seated = made
    with (
        client.websocket_connect("/ws/lobby") as bea_lobby,
        seat_socket(client, seated["match_id"], seated["seat_token"]) as cid_table,
    ):
        bea_lobby.send_json({"type": "auth", "player_token": bea["player_token"]})
        lobby_list(bea_lobby, lambda found: len(found) == 3)
        wait_for(cid_table, lambda v: v["status"] == "waiting", "Cid waits at his table")
        bea_lobby.send_json({"type": "ping"})
        assert receive(bea_lobby) == {"type": "pong"}  # her auth was handled before the ping
        fake.advance(4 * MINUTE)
        assert sweep(client) == []  # Ana has been away 4 minutes: not yet
        fake.advance(1.5 * MINUTE)
        assert sweep(client) == [gone["match_id"]]
        shown = lobby_list(bea_lobby, lambda found: len(found) == 2)
        assert ids(shown) == [looking["match_id"], seated["match_id"]]
        fake.advance(10 * MINUTE)  # Bea in the lobby, Cid at his table: both seen all along
        assert sweep(client) == []
    fake.advance(5.5 * MINUTE)  # both left when the sockets closed
    assert sorted(sweep(client)) == sorted([looking["match_id"], seated["match_id"]])
    assert listed(client) == []
    assert join(client, gone["match_id"], cid).status_code == 409


def test_the_lobby_socket_refuses_a_bad_player_token_and_unknown_messages(
    client: TestClient,
) -> None:
    with client.websocket_connect("/ws/lobby") as ws:
        lobby_list(ws, lambda found: True)
        ws.send_json({"type": "auth", "player_token": "x" * 43})
        assert receive(ws)["code"] == "unknown_player"
        ws.send_text("not json")
        assert receive(ws)["code"] == "unknown_message"


def test_lobby_sockets_are_capped_per_process(sqlite_url: str) -> None:
    settings = make_settings(sqlite_url, max_lobby_sockets=2)
    with TestClient(create_app(settings)) as c:
        with c.websocket_connect("/ws/lobby") as one, c.websocket_connect("/ws/lobby") as two:
            for ws in (one, two):
                lobby_list(ws, lambda found: True)
            with c.websocket_connect("/ws/lobby") as three:
                assert receive(three)["code"] == "too_many_sockets"
        with c.websocket_connect("/ws/lobby") as again:  # a closed socket frees its place
            assert receive(again)["type"] == "lobby"


def test_one_address_holds_only_its_share_of_the_lobby_sockets(sqlite_url: str) -> None:
    """Issue 40, finding 6: one address filled the cap, and the lobby was offline for everyone.
    A trusted proxy's X-Forwarded-For tells the clients behind it apart."""
    settings = make_settings(sqlite_url, max_lobby_sockets=10, max_lobby_sockets_per_address=2)
    here, there = ({"X-Forwarded-For": a} for a in ("198.51.100.1", "198.51.100.2"))
    with TestClient(create_app(settings), client=("127.0.0.1", 50000)) as c:

        def lobby(headers: dict[str, str]) -> Any:
            return c.websocket_connect("/ws/lobby", headers=headers)

        with lobby(here) as one:
            lobby_list(one, lambda found: True)
            with lobby(here) as two:
                lobby_list(two, lambda found: True)
                with lobby(here) as three:
                    assert refusal(three) == ("too_many_sockets", 4429)
                with lobby(there) as elsewhere:
                    lobby_list(elsewhere, lambda found: True)  # everyone else is served
            with lobby(here) as again:  # a closed socket frees its place
                lobby_list(again, lambda found: True)


def test_creating_challenges_is_rate_limited(sqlite_url: str) -> None:
    settings = make_settings(sqlite_url, rate_limits="on", rate_limit_challenge="2/minute")
    with TestClient(create_app(settings)) as c:
        ana = new_player(c, "Ana")
        for _ in range(2):
            challenge(c, ana)
        over = c.post("/api/matches", json={"visibility": "public"}, headers=as_player(ana))
        refused(over, 429, "rate_limited")
        assert int(over.headers["retry-after"]) > 0
        private = c.post("/api/matches", json={}, headers=as_player(ana))
        assert private.status_code == 201  # a private match counts against "create" only
        refused(c.post("/api/lobby/quick", json={}, headers=as_player(ana)), 429, "rate_limited")


def test_a_nations_challenge_carries_its_game_and_pairs_only_with_nations(
    client: TestClient,
) -> None:
    """Issue 16: the game is part of a challenge; quick pairing never mixes games."""
    ana, bea, cid = (new_player(client, n) for n in ("Ana", "Bea", "Cid"))
    body = {"game": "nations", "role": "p1", "visibility": "public"}
    made = client.post("/api/matches", json=body, headers=as_player(ana))
    assert made.status_code == 201, made.text
    entry = next(c for c in listed(client) if c["match_id"] == made.json()["match_id"])
    assert (entry["game"], entry["open_role"]) == ("nations", "p2")
    watergate = quick(client, bea, game="watergate", clock="none")
    assert watergate["created"] is True, "a Watergate pairing does not take a Nations challenge"
    paired = quick(client, cid, game="nations", clock="none")
    assert (paired["created"], paired["match_id"], paired["role"]) == (
        False,
        made.json()["match_id"],
        "p2",
    )
    seated = client.get(f"/api/matches/{paired['match_id']}", headers=bearer(paired["seat_token"]))
    view = seated.json()
    assert view["status"] == "active" and set(view["players"]) == {"p1", "p2"}, "a Nations table"
