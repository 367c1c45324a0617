"""People (contract v1.2 "People"): follows and friends (a cap, guests too), blocks (listed to
their blocker only, answered as any refusal, ending follows), who may challenge me, and a block
keeping two players apart in lobby joins and quick pairing. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.persistence.db import Database
from app.persistence.models import Player as PlayerModel
from app.persistence.people_tables import Block, Follow
from app.services import social

from .accounts_helpers import sign_up
from .conftest import make_settings
from .test_api import assert_error, bearer
from .test_clocks import START, FakeClock
from .test_lifecycle import receive, seat_socket
from .test_players import Player, as_player, new_player


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def client(any_db_url: str, fake: FakeClock) -> Iterator[TestClient]:
    settings = make_settings(any_db_url, sweep_seconds=1e6)
    with TestClient(create_app(settings, clock=fake)) as c:
        yield c


def put(c: TestClient, me: Player, what: str, other: Player) -> Any:
    return c.put(f"/api/players/me/{what}/{other['player_id']}", headers=as_player(me))


def people(c: TestClient, me: Player) -> dict[str, Any]:
    response = c.get("/api/players/me/follows", headers=as_player(me))
    assert response.status_code == 200, response.text
    return dict(response.json())


def ids(found: list[dict[str, Any]]) -> list[str]:
    return [p["player_id"] for p in found]


def test_follow_unfollow_and_friends(client: TestClient) -> None:
    ana, bo, cy = (new_player(client, n) for n in ("Ana", "Bo", "Cy"))  # guests, all three
    assert put(client, ana, "follows", bo).status_code == 204
    assert put(client, ana, "follows", bo).status_code == 204  # twice is once
    assert put(client, ana, "follows", cy).status_code == 204
    mine = people(client, ana)
    assert ids(mine["following"]) == [bo["player_id"], cy["player_id"]]  # by name
    assert mine["followers"] == [] and not any(p["friend"] for p in mine["following"])
    assert ids(people(client, bo)["followers"]) == [ana["player_id"]]
    assert put(client, bo, "follows", ana).status_code == 204  # mutual: friends
    friend = people(client, ana)["following"][0]
    assert friend == {
        "player_id": bo["player_id"], "name": "Bo", "online": False, "playing": False,
        "friend": True, "bot": False,
    }  # fmt: skip
    assert people(client, bo)["following"][0]["friend"]
    gone = client.delete(f"/api/players/me/follows/{bo['player_id']}", headers=as_player(ana))
    assert gone.status_code == 204
    assert ids(people(client, ana)["following"]) == [cy["player_id"]]
    assert not people(client, bo)["following"][0]["friend"]


def test_follow_refusals(client: TestClient) -> None:
    ana = new_player(client, "Ana")
    assert_error(client.put("/api/players/me/follows/nobody_here"), 401, "player_required")
    assert_error(put(client, ana, "follows", {"player_id": "nobody_here"}), 404, "not_found")
    assert_error(put(client, ana, "follows", {"player_id": "bad id!"}), 404, "not_found")
    assert_error(put(client, ana, "follows", ana), 422, "invalid_request")
    assert_error(client.get("/api/players/me/follows"), 401, "player_required")
    bad = {"X-Player-Token": "x" * 43}
    assert_error(client.get("/api/players/me/follows", headers=bad), 401, "unknown_player")


def test_the_follow_cap(client: TestClient, any_db_url: str) -> None:
    ana, bo = new_player(client, "Ana"), new_player(client, "Bo")
    db = Database(any_db_url)
    try:
        with db.write() as session:
            session.add_all(
                PlayerModel(id=f"filler{n}", name=f"F{n}") for n in range(social.MAX_FOLLOWS)
            )
            session.flush()
            session.add_all(
                Follow(follower=ana["player_id"], followee=f"filler{n}")
                for n in range(social.MAX_FOLLOWS)
            )
    finally:
        db.dispose()
    assert_error(put(client, ana, "follows", bo), 409, "too_many_follows")
    assert len(people(client, ana)["following"]) == social.MAX_FOLLOWS  # bounded, all listed
    client.delete("/api/players/me/follows/filler0", headers=as_player(ana))
    assert put(client, ana, "follows", bo).status_code == 204


def test_a_block_ends_follows_refuses_them_and_is_listed_to_its_blocker_only(
    client: TestClient,
) -> None:
    ana, bo = new_player(client, "Ana"), new_player(client, "Bo")
    put(client, ana, "follows", bo)
    put(client, bo, "follows", ana)
    assert put(client, ana, "blocks", bo).status_code == 204
    assert people(client, ana) == {"following": [], "followers": []}
    assert people(client, bo) == {"following": [], "followers": []}
    # both ways, with the one answer that does not say who blocked whom
    assert_error(put(client, bo, "follows", ana), 403, "blocked")
    assert_error(put(client, ana, "follows", bo), 403, "blocked")
    mine = client.get("/api/players/me/blocks", headers=as_player(ana)).json()["blocked"]
    assert [(b["player_id"], b["name"]) for b in mine] == [(bo["player_id"], "Bo")]
    theirs = client.get("/api/players/me/blocks", headers=as_player(bo)).json()
    assert theirs == {"blocked": []}
    assert_error(put(client, ana, "blocks", ana), 422, "invalid_request")
    gone = client.delete(f"/api/players/me/blocks/{bo['player_id']}", headers=as_player(ana))
    assert gone.status_code == 204
    assert put(client, bo, "follows", ana).status_code == 204


def test_challenge_settings(client: TestClient) -> None:
    ana = new_player(client, "Ana")
    mine = client.get("/api/players/me/settings", headers=as_player(ana))
    assert mine.json() == {"challenges": "everyone"}
    for setting in ("registered", "friends", "nobody", "everyone"):
        done = client.patch(
            "/api/players/me/settings", json={"challenges": setting}, headers=as_player(ana)
        )
        assert done.json() == {"challenges": setting}
        assert client.get("/api/players/me/settings", headers=as_player(ana)).json() == {
            "challenges": setting
        }
    wrong = client.patch(
        "/api/players/me/settings", json={"challenges": "x"}, headers=as_player(ana)
    )
    assert wrong.status_code == 422
    assert_error(client.patch("/api/players/me/settings", json={"challenges": "nobody"}), 401)


def public(c: TestClient, me: Player, **extra: Any) -> str:
    body = {"role": "editor", "clock": "none", "visibility": "public", **extra}
    made = c.post("/api/matches", json=body, headers=as_player(me))
    assert made.status_code == 201, made.text
    return str(made.json()["match_id"])


def test_a_block_refuses_lobby_joins_and_quick_pairing_both_ways(client: TestClient) -> None:
    ana, bo, cy = (new_player(client, n) for n in ("Ana", "Bo", "Cy"))
    put(client, ana, "blocks", bo)
    mine = public(client, ana)
    join = client.post(f"/api/lobby/{mine}/join", headers=as_player(bo))
    assert_error(join, 403, "blocked")
    # quick pairing never seats the two together: Bo opens a challenge of their own instead
    paired = client.post("/api/lobby/quick", json={"role": "nixon"}, headers=as_player(bo))
    assert paired.status_code == 200 and paired.json()["created"], paired.text
    theirs = paired.json()["match_id"]
    assert_error(client.post(f"/api/lobby/{theirs}/join", headers=as_player(ana)), 403, "blocked")
    quick = client.post("/api/lobby/quick", json={"role": "editor"}, headers=as_player(ana))
    assert quick.json()["match_id"] != theirs
    # someone else joins either as ever
    assert client.post(f"/api/lobby/{theirs}/join", headers=as_player(cy)).status_code == 200


def test_a_block_refuses_a_seat_at_a_nations_table_beside_a_blocked_player(
    client: TestClient,
) -> None:
    ana, bo, cy = (new_player(client, n) for n in ("Ana", "Bo", "Cy"))
    table = public(client, ana, game="nations", role="p1", players=3)
    assert client.post(f"/api/lobby/{table}/join", headers=as_player(bo)).status_code == 200
    put(client, cy, "blocks", bo)
    assert_error(client.post(f"/api/lobby/{table}/join", headers=as_player(cy)), 403, "blocked")


def test_an_account_keeps_its_follows_on_another_device(client: TestClient) -> None:
    ana = sign_up(client, "ana_follows")
    bo = new_player(client, "Bo")
    put(client, ana, "follows", bo)
    again = client.post(
        "/api/accounts/login", json={"username": "ana_follows", "password": "correct horse battery"}
    )
    other_device = {"player_token": again.json()["player_token"]}
    assert ids(people(client, other_device)["following"]) == [bo["player_id"]]


def test_status_online_in_the_lobby_and_playing_at_a_table(client: TestClient) -> None:
    ana, bo = new_player(client, "Ana"), new_player(client, "Bo")
    put(client, bo, "follows", ana)
    assert people(client, bo)["following"][0]["online"] is False
    with client.websocket_connect("/ws/lobby") as lobby:
        lobby.send_json({"type": "auth", "player_token": ana["player_token"]})
        assert receive(lobby)["type"] == "lobby"
        lobby.send_json({"type": "ping"})
        assert receive(lobby)["type"] == "pong"  # the auth was handled before this
        seen = people(client, bo)["following"][0]
        assert (seen["online"], seen["playing"]) == (True, False)
    assert people(client, bo)["following"][0]["online"] is False
    body = {"opponent": "bot", "role": "editor"}
    made = client.post("/api/matches", json=body, headers=as_player(ana)).json()
    with seat_socket(client, made["match_id"], made["seat_token"]) as seat:
        assert receive(seat)["type"] == "view"
        seen = people(client, bo)["following"][0]
        assert (seen["online"], seen["playing"]) == (True, True)


def test_people_calls_are_rate_limited(sqlite_url: str) -> None:
    settings = make_settings(sqlite_url, rate_limits="on", rate_limit_social="3/minute")
    with TestClient(create_app(settings)) as c:
        ana, bo = new_player(c, "Ana"), new_player(c, "Bo")
        for _ in range(3):
            assert put(c, ana, "follows", bo).status_code == 204
        limited = c.get("/api/players/me/follows", headers=as_player(ana))
        assert_error(limited, 429, "rate_limited")
        assert int(limited.headers["retry-after"]) >= 1


def test_a_deleted_player_leaves_no_follows_blocks_or_open_challenges(
    client: TestClient, any_db_url: str
) -> None:
    ana, bo, cy = (new_player(client, n) for n in ("Ana", "Bo", "Cy"))
    put(client, ana, "follows", bo)
    put(client, bo, "follows", ana)
    put(client, ana, "blocks", cy)
    sent = client.post("/api/challenges", json={"to": bo["player_id"]}, headers=as_player(ana))
    assert sent.status_code == 201
    made = sent.json()
    gone = client.request("DELETE", "/api/players/me", json={}, headers=as_player(ana))
    assert gone.status_code == 200, gone.text
    assert people(client, bo) == {"following": [], "followers": []}
    assert client.get("/api/challenges", headers=as_player(bo)).json()["incoming"] == []
    table = client.get(f"/api/matches/{made['match_id']}", headers=bearer(made["seat_token"]))
    assert table.json()["status"] == "finished"  # ended unplayed
    assert_error(put(client, bo, "follows", ana), 404, "not_found")
    db = Database(any_db_url)
    try:
        with db.reader() as session:
            assert session.query(Block).count() == 0 and session.query(Follow).count() == 0
    finally:
        db.dispose()


def test_the_lobby_hides_challenges_between_players_kept_apart(client: TestClient) -> None:
    ana, bo, cy = (new_player(client, n) for n in ("Ana", "Bo", "Cy"))
    put(client, ana, "blocks", bo)
    mine = public(client, ana)

    def listed(who: Player | None) -> list[str]:
        headers = as_player(who) if who else {}
        found = client.get("/api/lobby", headers=headers).json()["challenges"]
        return [c["match_id"] for c in found]

    assert listed(None) == [mine] and listed(cy) == [mine] and listed(ana) == [mine]
    assert listed(bo) == []  # the blocked one never meets the blocker's challenge
    with (
        client.websocket_connect("/ws/lobby") as blocked,
        client.websocket_connect("/ws/lobby") as other,
    ):
        blocked.send_json({"type": "auth", "player_token": bo["player_token"]})
        other.send_json({"type": "auth", "player_token": cy["player_token"]})
        for ws, wanted in ((blocked, []), (other, [mine])):
            for _ in range(6):  # the list before the auth, then the list for this player
                found = receive(ws)
                if [c["match_id"] for c in found["challenges"]] == wanted:
                    break
            else:
                pytest.fail(f"never pushed {wanted}")
        theirs = public(client, cy)
        assert [c["match_id"] for c in receive(blocked)["challenges"]] == [theirs]
