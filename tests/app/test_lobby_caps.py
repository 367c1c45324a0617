"""The lobby's open challenges are capped per player and per client address (issue 40, finding 5:
one player from eleven addresses filled all 100 places of the lobby in 2.3 s, and quick pairing
seated a real player against the spammer). Over a cap, opening a challenge (a public match, or a
quick pairing that finds nothing to join) is `429 too_many_challenges` (the player's) or `429
too_many_challenges_from_address`; a challenge taken or cancelled frees its place. Two openings
at once count each other. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from app.errors import ApiError
from app.main import create_app
from app.services.context import AppContext

from .conftest import make_settings
from .test_players import Player, as_player, new_player

PROXY = ("127.0.0.1", 50000)  # a trusted proxy: X-Forwarded-For names the client behind it
HOME, CAFE = "198.51.100.1", "198.51.100.2"


@pytest.fixture
def client(any_db_url: str) -> Iterator[TestClient]:
    settings = make_settings(any_db_url, max_challenges_per_player=3, max_challenges_per_address=6)
    with TestClient(create_app(settings), client=PROXY) as c:
        yield c


def headers(player: Player, address: str = HOME) -> dict[str, str]:
    return {**as_player(player), "X-Forwarded-For": address}


def open_challenge(c: TestClient, player: Player, address: str = HOME) -> httpx.Response:
    """A challenge for Nixon: its creator plays the Editor."""
    body = {"role": "editor", "visibility": "public"}
    made: httpx.Response = c.post("/api/matches", json=body, headers=headers(player, address))
    return made


def quick(c: TestClient, player: Player, address: str = HOME, role: str = "editor") -> Any:
    """A quick pairing for `role`: it joins a challenge open to that seat, or opens one."""
    return c.post("/api/lobby/quick", json={"role": role}, headers=headers(player, address))


def refused(response: httpx.Response, code: str) -> None:
    assert response.status_code == 429, response.text
    assert response.json()["code"] == code and response.json()["message"]


def listed(c: TestClient) -> list[str]:
    return [entry["match_id"] for entry in c.get("/api/lobby").json()["challenges"]]


def test_a_player_has_at_most_three_challenges_open(client: TestClient) -> None:
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    made = [open_challenge(client, ana) for _ in range(2)] + [quick(client, ana)]
    assert [r.status_code for r in made] == [201, 201, 200]
    refused(open_challenge(client, ana, CAFE), "too_many_challenges")  # from anywhere
    refused(quick(client, ana), "too_many_challenges")
    private = client.post("/api/matches", json={"opponent": "human"}, headers=headers(ana))
    assert private.status_code == 201  # only the lobby is capped
    assert len(listed(client)) == 3
    # a challenge taken frees its place, and so does one cancelled
    first, second = (r.json()["match_id"] for r in made[:2])
    assert client.post(f"/api/lobby/{first}/join", headers=headers(bea, CAFE)).status_code == 200
    assert open_challenge(client, ana).status_code == 201
    refused(open_challenge(client, ana), "too_many_challenges")
    assert client.delete(f"/api/lobby/{second}", headers=headers(ana)).status_code == 204
    assert open_challenge(client, ana).status_code == 201


def test_an_address_has_at_most_six_challenges_open(client: TestClient) -> None:
    """Players are free to make (30 a minute per address): the address caps them together."""
    players = [new_player(client, f"P{i}") for i in range(8)]
    for player in players[:3]:
        assert open_challenge(client, player).status_code == 201
        assert open_challenge(client, player).status_code == 201
    refused(open_challenge(client, players[3]), "too_many_challenges_from_address")
    refused(quick(client, players[3]), "too_many_challenges_from_address")
    assert open_challenge(client, players[3], CAFE).status_code == 201  # another address
    # quick pairing from the full address still joins someone else's challenge
    paired = quick(client, players[4], role="nixon")
    assert paired.status_code == 200 and paired.json()["created"] is False
    assert open_challenge(client, players[5]).status_code == 201  # the joined one left
    assert len(listed(client)) == 7


def test_openings_at_the_same_moment_count_each_other(client: TestClient) -> None:
    """Eight openings by one player at once, each in a worker thread of its own: exactly three
    are open afterwards, whatever the order the database took them in."""
    ana = new_player(client, "Ana")
    ctx: AppContext = client.app.state.ctx  # type: ignore[attr-defined]

    async def eight_at_once() -> list[Any]:
        made = (
            ctx.matches.create(
                "watergate", "editor", "human", None, ana["player_token"], public="none"
            )
            for _ in range(8)
        )
        return await asyncio.gather(*made, return_exceptions=True)

    results = client.portal.call(eight_at_once)  # type: ignore[union-attr]
    failures = [r for r in results if isinstance(r, BaseException)]
    assert len(results) - len(failures) == 3
    assert all(isinstance(f, ApiError) and f.code == "too_many_challenges" for f in failures)
    assert len(listed(client)) == 3
