"""A bot challenging by its API token (contract v1.2 "Bots", issue 45): `POST /api/challenges`
with `Authorization: Bearer` and scope challenge:write makes the challenge as the token's
account (withdrawn the same way); a token without that scope is `403 missing_scope`; a bot
account challenging another bot account is counted per bot (RATE_LIMIT_BOT_CHALLENGE, `429
rate_limited` with Retry-After), while its challenges to people and people's to it are not."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .accounts_helpers import as_player, sign_up
from .test_api import assert_error, bearer
from .test_bot_api import token, upgrade

MakeClient = Callable[..., TestClient]
ALL_SCOPES = ("bot:play", "challenge:write", "match:read")


@pytest.fixture
def db_client(any_db_url: str, make_client: MakeClient) -> TestClient:
    return make_client(any_db_url)


def bot(client: TestClient, name: str) -> tuple[dict[str, str], str]:
    """A bot account and its API token of every scope."""
    account = sign_up(client, name)
    api = token(client, account, *ALL_SCOPES)["token"]
    assert upgrade(client, api).status_code == 200
    return account, api


def challenge(client: TestClient, to: dict[str, str], headers: dict[str, str]) -> Any:
    return client.post(
        "/api/challenges", json={"to": to["player_id"], "game": "watergate"}, headers=headers
    )


def test_a_bot_challenges_a_person_with_its_token_and_takes_it_back(db_client: TestClient) -> None:
    robo, api = bot(db_client, "robo_asks")
    ana = sign_up(db_client, "ana_asked")
    reader = token(db_client, robo, "bot:play", "match:read")["token"]
    assert_error(challenge(db_client, ana, bearer(reader)), 403, "missing_scope")
    assert_error(challenge(db_client, ana, bearer("not-a-token")), 401, "unauthorized")

    made = challenge(db_client, ana, bearer(api))
    assert made.status_code == 201, made.text
    incoming = db_client.get("/api/challenges", headers=as_player(ana)).json()["incoming"]
    assert [(c["challenge_id"], c["challenger"]["player_id"]) for c in incoming] == [
        (made.json()["challenge_id"], robo["player_id"])
    ]
    # the challenger's seat is the bot's: it reads it through the bot API
    stream = f"/api/bot/matches/{made.json()['match_id']}/stream"
    with db_client.stream("GET", stream, headers=bearer(api)) as seat:
        assert seat.status_code == 200

    cancel = f"/api/challenges/{made.json()['challenge_id']}/cancel"
    assert_error(db_client.post(cancel, headers=bearer(reader)), 403, "missing_scope")
    assert db_client.post(cancel, headers=bearer(api)).status_code == 204
    assert db_client.get("/api/challenges", headers=as_player(ana)).json()["incoming"] == []


def test_bots_challenging_bots_are_limited_per_bot(
    sqlite_url: str, make_client: MakeClient
) -> None:
    client = make_client(sqlite_url, rate_limits="on", rate_limit_bot_challenge="2/hour")
    (robo, api), (other, _) = bot(client, "robo_loops"), bot(client, "robo_looped")
    ana = sign_up(client, "ana_between")

    def ask_and_withdraw(to: dict[str, str], headers: dict[str, str]) -> None:
        made = challenge(client, to, headers)
        assert made.status_code == 201, made.text
        cancel = f"/api/challenges/{made.json()['challenge_id']}/cancel"
        assert client.post(cancel, headers=headers).status_code == 204

    for _ in range(2):
        ask_and_withdraw(other, bearer(api))
    over = challenge(client, other, bearer(api))
    assert_error(over, 429, "rate_limited")
    assert int(over.headers["Retry-After"]) > 0
    # its owner's player token is the same bot account: counted the same
    assert_error(challenge(client, other, as_player(robo)), 429, "rate_limited")
    # a bot challenging a person, and a person challenging a bot, are not bots looping
    ask_and_withdraw(ana, bearer(api))
    ask_and_withdraw(other, as_player(ana))
    ask_and_withdraw(robo, as_player(ana))
