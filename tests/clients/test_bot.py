"""The reference bot client (issue 45) against a real server (`python -m app`): two bot accounts,
each run by its own client on its own connections, play each other — a Watergate duel that one
client asks for itself (`--challenge`) and a Nations table of three with the computer in the
third seat — accepting the challenges from their event streams and playing from their match
streams to the end. It doubles as the bot
API's integration test: every action the clients send is an unchanged legal one."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from clients.bot import BotClient
from tests.e2e.conftest import serving

MATCH_BUDGET_S = 180  # a whole match of random play over HTTP, on a busy 2-core machine


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(tmp_path_factory.mktemp("bot-clients")) as url:
        yield url


def bot_account(http: httpx.Client, name: str) -> tuple[dict[str, Any], str]:
    """An account upgraded to a bot, and its API token of every scope."""
    made = http.post("/api/accounts", json={"username": name, "password": "correct horse bot"})
    assert made.status_code == 201, made.text
    account = made.json()
    scopes = ["bot:play", "challenge:write", "match:read"]
    token = http.post(
        "/api/account/tokens",
        json={"scopes": scopes, "label": name},
        headers={"X-Player-Token": account["player_token"]},
    ).json()["token"]
    upgraded = http.post("/api/bot/account/upgrade", headers={"Authorization": f"Bearer {token}"})
    assert upgraded.status_code == 200, upgraded.text
    return account, token


def finished_by_both(clients: list[BotClient], match_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + MATCH_BUDGET_S
    while time.monotonic() < deadline:
        if all(match_id in c.played.finished for c in clients):
            return {c.headers["Authorization"]: c.played.finished[match_id] for c in clients}
        time.sleep(0.1)  # a condition polled with a deadline, not a wait standing in for one
    pytest.fail(f"match {match_id} did not end within {MATCH_BUDGET_S} s for both clients")


def challenged(client: BotClient) -> str:
    """The match of the client's own challenge, once it has made it."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if client.played.challenged:
            return next(iter(client.played.challenged.values()))
        time.sleep(0.05)  # a condition polled with a deadline, not a wait standing in for one
    pytest.fail("the client made no challenge within 30 s")


def test_two_reference_clients_play_each_other_at_both_games(server: str) -> None:
    with httpx.Client(base_url=server, timeout=10.0) as http:
        (ann, ann_token), (bob, bob_token) = (
            bot_account(http, "robo_ann"),
            bot_account(http, "robo_bob"),
        )
        said: list[str] = []
        clients = [
            BotClient(httpx.Client(base_url=server, timeout=10.0), token, seed=n, say=said.append)
            for n, token in enumerate((ann_token, bob_token))
        ]
        threads = [
            threading.Thread(target=clients[0].run, args=(bob["player_id"],), daemon=True),
            threading.Thread(target=clients[1].run, daemon=True),
        ]
        for thread in threads:
            thread.start()
        try:
            duel_id = challenged(clients[0])  # Ann's client challenged Bob by its token
            owner = {"X-Player-Token": ann["player_token"]}  # Ann's owner, from the site
            winners = finished_by_both(clients, duel_id)
            assert len(set(winners.values())) == 1  # both saw the same end

            table = http.post(
                "/api/challenges",
                json={
                    "to": bob["player_id"],
                    "game": "nations",
                    "players": 3,
                    "seats": {"p3": "bot"},
                },
                headers=owner,
            )
            assert table.status_code == 201, table.text
            table_id = table.json()["match_id"]
            winners = finished_by_both(clients, table_id)
            assert len(set(winners.values())) == 1
            view = http.get(
                f"/api/matches/{table_id}",
                headers={"Authorization": f"Bearer {table.json()['seat_token']}"},
            ).json()
            assert view["status"] == "finished" and len(view["state"]["nations"]) == 3
        finally:
            for client in clients:
                client.stop.set()
            for thread in threads:
                thread.join(timeout=40)
            for client in clients:
                client.http.close()
        assert all(c.played.actions > 0 for c in clients), said
        assert clients[1].played.accepted and not clients[1].played.declined
