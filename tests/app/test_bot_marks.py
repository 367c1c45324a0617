"""Bot accounts shown as bots (contract v1.2 "Bots", issue 45): being a bot is public, so a
bot account's seat carries `bot: true` in every view's "players", its profile says so, the
people page's lists mark it; the leaderboard keeps people and bots apart (each its own board);
and a bot account stays out of the lobby — opening, joining or quick pairing is `403
bot_not_allowed` (it plays by direct challenges and invite links)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .accounts_helpers import as_player, profile, rated_match, resign, sign_up
from .test_api import assert_error, bearer
from .test_bot_challenges import bot

MakeClient = Callable[..., TestClient]


@pytest.fixture
def db_client(any_db_url: str, make_client: MakeClient) -> TestClient:
    return make_client(any_db_url)


def board(client: TestClient, kind: str) -> list[dict[str, Any]]:
    found = client.get(f"/api/leaderboard?game=watergate&board={kind}")
    assert found.status_code == 200, found.text
    assert found.json()["board"] == kind
    players: list[dict[str, Any]] = found.json()["players"]
    return players


def test_a_bot_is_marked_at_its_seat_its_profile_and_the_people_page(
    db_client: TestClient,
) -> None:
    ana = sign_up(db_client, "ana_marks")
    robo, _ = bot(db_client, "robo_marks")
    match_id, seats = rated_match(db_client, ana, robo)
    view = db_client.get(f"/api/matches/{match_id}", headers=bearer(seats["editor"])).json()
    assert view["players"]["nixon"]["bot"] is True
    assert "bot" not in view["players"]["editor"]  # a person's seat says nothing of bots

    assert profile(db_client, robo["player_id"])["bot"] is True
    assert "bot" not in profile(db_client, ana["player_id"])

    follow = db_client.put(f"/api/players/me/follows/{robo['player_id']}", headers=as_player(ana))
    assert follow.status_code in (200, 204), follow.text
    listed = db_client.get("/api/players/me/follows", headers=as_player(ana)).json()
    assert [(p["player_id"], p["bot"]) for p in listed["following"]] == [(robo["player_id"], True)]


def test_people_and_bots_have_boards_of_their_own(db_client: TestClient) -> None:
    ana = sign_up(db_client, "ana_board")
    robo, _ = bot(db_client, "robo_board")
    match_id, seats = rated_match(db_client, ana, robo)
    assert resign(db_client, match_id, seats["nixon"]).status_code == 200  # both now rated
    humans, bots = board(db_client, "humans"), board(db_client, "bots")
    assert [p["player_id"] for p in humans] == [ana["player_id"]]
    assert [(p["player_id"], p["bot"]) for p in bots] == [(robo["player_id"], True)]
    default = db_client.get("/api/leaderboard?game=watergate").json()
    assert [p["player_id"] for p in default["players"]] == [ana["player_id"]]
    assert db_client.get("/api/leaderboard?board=robots").status_code == 422


def test_a_bot_account_stays_out_of_the_lobby(db_client: TestClient) -> None:
    ana = sign_up(db_client, "ana_lobby")
    robo, _ = bot(db_client, "robo_lobby")
    public = {"role": "editor", "opponent": "human", "visibility": "public"}
    opened = db_client.post("/api/matches", json=public, headers=as_player(robo))
    assert_error(opened, 403, "bot_not_allowed")
    quick = db_client.post("/api/lobby/quick", json={}, headers=as_player(robo))
    assert_error(quick, 403, "bot_not_allowed")
    hers = db_client.post("/api/matches", json=public, headers=as_player(ana))
    assert hers.status_code == 201, hers.text
    joined = db_client.post(f"/api/lobby/{hers.json()['match_id']}/join", headers=as_player(robo))
    assert_error(joined, 403, "bot_not_allowed")
    # her challenge is still open to people
    listed = db_client.get("/api/lobby").json()["challenges"]
    assert [c["match_id"] for c in listed] == [hers.json()["match_id"]]


def test_a_bot_account_seat_gets_no_hints(db_client: TestClient) -> None:
    """Hints are for people at unrated tables: the bot's own seat's view has none, its
    opponent's still does (both through the API and through the bot's stream)."""
    ana = sign_up(db_client, "ana_hinted")
    robo, api = bot(db_client, "robo_unhinted")
    match_id, seats = rated_match(db_client, ana, robo, rated=False)
    person = db_client.get(f"/api/matches/{match_id}", headers=bearer(seats["editor"])).json()
    assert "hints" in person
    mine = db_client.get(f"/api/matches/{match_id}", headers=bearer(seats["nixon"])).json()
    assert "hints" not in mine
    with db_client.stream("GET", f"/api/bot/matches/{match_id}/stream", headers=bearer(api)) as s:
        first = json.loads(next(line for line in s.iter_lines() if line.strip()))
    assert first["type"] == "view" and "hints" not in first
