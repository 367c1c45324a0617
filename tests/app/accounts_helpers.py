"""Helpers of the account and rating tests: accounts made over HTTP, rated matches between
them, resigning, and the rows the database holds."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from app.persistence.db import driver_url

from .test_api import bearer, invite_code

PASSWORD = "correct horse battery"
Account = dict[str, str]


def sign_up(client: TestClient, username: str, password: str = PASSWORD, **extra: Any) -> Account:
    headers = extra.pop("headers", {})
    response = client.post(
        "/api/accounts", json={"username": username, "password": password, **extra}, headers=headers
    )
    assert response.status_code == 201, response.text
    made: Account = response.json()
    return made


def sign_in(client: TestClient, username: str, password: str = PASSWORD) -> Any:
    return client.post("/api/accounts/login", json={"username": username, "password": password})


def as_player(account: Account) -> dict[str, str]:
    return {"X-Player-Token": account["player_token"]}


def rated_match(
    client: TestClient, editor: Account, nixon: Account, clock: str = "none", rated: bool = True
) -> tuple[str, dict[str, str]]:
    """An active match, `editor` created it, `nixon` claimed its invite."""
    body = {"role": "editor", "opponent": "human", "rated": rated, "clock": clock}
    made = client.post("/api/matches", json=body, headers=as_player(editor))
    assert made.status_code == 201, made.text
    seat = made.json()
    claimed = client.post(f"/api/invites/{invite_code(seat)}/claim", headers=as_player(nixon))
    assert claimed.status_code == 200, claimed.text
    return seat["match_id"], {"editor": seat["seat_token"], "nixon": claimed.json()["seat_token"]}


def resign(client: TestClient, match_id: str, token: str) -> Any:
    return client.post(f"/api/matches/{match_id}/resign", headers=bearer(token))


def profile(client: TestClient, player_id: str) -> dict[str, Any]:
    response = client.get(f"/api/players/{player_id}")
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def rows(url: str, sql: str, **params: object) -> list[Any]:
    engine = create_engine(driver_url(url), poolclass=NullPool)
    try:
        with engine.connect() as conn:
            return list(conn.execute(text(sql), params).all())
    finally:
        engine.dispose()


def execute(url: str, sql: str, **params: object) -> None:
    engine = create_engine(driver_url(url), poolclass=NullPool)
    try:
        with engine.begin() as conn:
            conn.execute(text(sql), params)
    finally:
        engine.dispose()
