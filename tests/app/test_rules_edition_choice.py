"""An unrated match may be played under any published rules edition of its game (contract v1.2
"Rules editions", issue 41): players who prefer an earlier wording can have it; a rated match is
always played by today's rules, so every rating is earned under one edition; an unknown edition
is refused before anything is made. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from engine.nations.ruleset import rules_versions
from engine.watergate.versions import RULES_VERSION, VERSIONS

from .accounts_helpers import as_player, rows, sign_up
from .test_api import assert_error, bearer


@pytest.fixture
def db_client(any_db_url: str, make_client: Callable[..., TestClient]) -> TestClient:
    return make_client(any_db_url)


def view(client: TestClient, made: dict[str, Any]) -> dict[str, Any]:
    got = client.get(f"/api/matches/{made['match_id']}", headers=bearer(made["seat_token"]))
    assert got.status_code == 200, got.text
    found: dict[str, Any] = got.json()
    return found


def test_an_unrated_match_plays_the_edition_asked_for(db_client: TestClient) -> None:
    earlier = min(VERSIONS, key=int)
    assert earlier != RULES_VERSION
    body = {"role": "editor", "opponent": "bot", "rules_version": earlier}
    made = db_client.post("/api/matches", json=body)
    assert made.status_code == 201, made.text
    assert view(db_client, made.json())["rules_version"] == earlier


def test_without_one_a_match_plays_todays_edition(db_client: TestClient) -> None:
    made = db_client.post("/api/matches", json={"role": "editor", "opponent": "bot"}).json()
    assert view(db_client, made)["rules_version"] == RULES_VERSION


def test_a_nations_match_may_ask_for_an_earlier_edition_too(db_client: TestClient) -> None:
    versions = rules_versions()
    body = {"game": "nations", "opponent": "bot", "rules_version": versions[0]}
    made = db_client.post("/api/matches", json=body)
    assert made.status_code == 201, made.text
    assert view(db_client, made.json())["rules_version"] == versions[0]


@pytest.mark.parametrize("asked", ["0", "99", "5; drop table", ""])
def test_an_unknown_edition_is_refused_and_nothing_is_made(
    any_db_url: str, make_client: Callable[..., TestClient], asked: str
) -> None:
    client = make_client(any_db_url)
    body = {"role": "editor", "opponent": "bot", "rules_version": asked}
    assert_error(client.post("/api/matches", json=body), 422, "invalid_rules_version")
    assert rows(any_db_url, "select count(*) from matches")[0][0] == 0


def test_a_rated_match_is_played_by_todays_rules_only(db_client: TestClient) -> None:
    ana = sign_up(db_client, "ana_edition")
    earlier = {"role": "editor", "opponent": "human", "rated": True, "rules_version": "4"}
    refused = db_client.post("/api/matches", json=earlier, headers=as_player(ana))
    assert_error(refused, 422, "invalid_rules_version")
    today = {**earlier, "rules_version": RULES_VERSION}
    assert db_client.post("/api/matches", json=today, headers=as_player(ana)).status_code == 201


def test_the_lobby_lists_each_challenges_edition(db_client: TestClient) -> None:
    """A public challenge carries the edition its match is played by (issue 41: the lobby names
    an earlier one), on the list and the lobby socket alike (one rendering)."""
    earlier = min(VERSIONS, key=int)
    me = as_player(sign_up(db_client, "edition_host"))
    made = {}
    for edition in (earlier, None):
        body = {"role": "editor", "visibility": "public", "rules_version": edition}
        got = db_client.post("/api/matches", json=body, headers=me)
        assert got.status_code == 201, got.text
        made[got.json()["match_id"]] = edition or RULES_VERSION
    listed = db_client.get("/api/lobby").json()["challenges"]
    assert {c["match_id"]: c["rules_version"] for c in listed} == made
