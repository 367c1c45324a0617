"""Deleting oneself (issue 12): an account gives its password; its sessions, account and
ratings go, its username is free again, its profile is gone; its matches stay, and everywhere
they are shown (the opponent's view, replays, the opponent's profile) the seat reads "Deleted
player" with no id; the leaderboard no longer lists it. And "my games": ongoing matches first,
those where it is the player's turn before the others, then the newest finished ones."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .accounts_helpers import PASSWORD, as_player, profile, rated_match, resign, sign_in, sign_up
from .test_api import assert_error, view

DELETED = {"kind": "human", "name": "Deleted player"}


@pytest.fixture
def db_client(any_db_url: str, make_client: Callable[..., TestClient]) -> TestClient:
    return make_client(any_db_url)


def delete_me(client: TestClient, token: str, password: str | None = None) -> Any:
    body = {} if password is None else {"password": password}
    return client.request("DELETE", "/api/players/me", json=body, headers={"X-Player-Token": token})


def test_a_deleted_account_is_gone_and_its_matches_show_deleted_player(
    db_client: TestClient,
) -> None:
    ana, bob = sign_up(db_client, "ana"), sign_up(db_client, "bob")
    finished, tokens = rated_match(db_client, ana, bob)
    assert resign(db_client, finished, tokens["nixon"]).status_code == 200
    ongoing, live = rated_match(db_client, bob, ana)  # Ana holds Nixon here
    view(db_client, ongoing, live["editor"])  # (read once: cached with her name)
    other_device = sign_in(db_client, "ana").json()

    assert_error(delete_me(db_client, ana["player_token"]), 401, "bad_credentials")
    assert_error(delete_me(db_client, ana["player_token"], "wrong password"), 401)
    assert delete_me(db_client, ana["player_token"], PASSWORD).status_code == 200

    for token in (ana["player_token"], other_device["player_token"]):
        mine = db_client.get("/api/players/me/matches", headers={"X-Player-Token": token})
        assert_error(mine, 401, "unknown_player")
    assert_error(sign_in(db_client, "ana"), 401, "bad_credentials")
    assert_error(db_client.get(f"/api/players/{ana['player_id']}"), 404, "not_found")
    assert view(db_client, ongoing, live["editor"])["players"]["nixon"] == DELETED
    assert view(db_client, finished, tokens["nixon"])["players"]["editor"] == DELETED
    replay = db_client.get(f"/api/replays/{finished}")
    assert replay.status_code == 200 and "ana" not in replay.text.lower().replace("analysis", "")
    bobs = profile(db_client, bob["player_id"])
    assert bobs["recent"][0]["opponent"] == DELETED and bobs["games"] == 1
    board = db_client.get("/api/leaderboard").json()
    assert [p["name"] for p in board["players"]] == ["bob"]
    assert sign_up(db_client, "ana")["player_id"] != ana["player_id"], "the username is free"


def test_an_anonymous_player_deletes_itself_without_a_password(db_client: TestClient) -> None:
    anon = db_client.post("/api/players", json={"name": "Cris"}).json()
    assert delete_me(db_client, anon["player_token"]).status_code == 200
    assert_error(db_client.get(f"/api/players/{anon['player_id']}"), 404)
    assert_error(delete_me(db_client, anon["player_token"]), 401, "unknown_player")


def test_my_games_lists_ongoing_matches_your_turn_first_then_recent(
    client: TestClient,
) -> None:
    ana, bob = sign_up(client, "ana"), sign_up(client, "bob")
    theirs, _ = rated_match(client, bob, ana)  # Bob is the Editor: his move first
    mine, _ = rated_match(client, ana, bob, rated=False)  # Ana is the Editor: her move
    done, tokens = rated_match(client, ana, bob)
    assert resign(client, done, tokens["editor"]).status_code == 200
    listed = client.get("/api/players/me/matches", headers=as_player(ana)).json()
    assert [(m["match_id"], m["your_turn"]) for m in listed["ongoing"]] == [
        (mine, True),
        (theirs, False),
    ]
    first = listed["ongoing"][0]
    assert (first["role"], first["rated"], first["status"]) == ("editor", False, "active")
    bobs = round(profile(client, bob["player_id"])["rating"]["watergate"]["rating"])
    assert bobs > 1500, "Bob won the rated match"
    assert first["opponent"] == {
        "kind": "human",
        "name": "bob",
        "player_id": bob["player_id"],
        "rating": bobs,  # his rating in the match's game, as views show it
    }
    assert [(r["match_id"], r["result"]) for r in listed["recent"]] == [(done, "loss")]
    assert_error(client.get("/api/players/me/matches"), 401, "unknown_player")
