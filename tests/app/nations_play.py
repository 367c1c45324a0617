"""Helpers for the Nations contract tests: creating Nations matches through the API and playing
them to the end by choosing among the offered actions only."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

SEATS = ("p1", "p2")
View = dict[str, Any]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, role: str = "p1", opponent: str = "human", **more: Any) -> View:
    body = {"game": "nations", "role": role, "opponent": opponent, **more}
    response = client.post("/api/matches", json=body)
    assert response.status_code == 201, response.text
    made: View = response.json()
    return made


def claim(client: TestClient, made: View) -> View:
    code = made["invite_url"].rsplit("/invite/", 1)[1]
    response = client.post(f"/api/invites/{code}/claim")
    assert response.status_code == 200, response.text
    claimed: View = response.json()
    return claimed


def started(client: TestClient, role: str = "p1") -> tuple[str, dict[str, str]]:
    """A Nations match between two people, both seated: (match id, seat -> token)."""
    made = create(client, role)
    claimed = claim(client, made)
    return made["match_id"], {
        made["role"]: made["seat_token"],
        claimed["role"]: claimed["seat_token"],
    }


def view(client: TestClient, match_id: str, token: str) -> View:
    response = client.get(f"/api/matches/{match_id}", headers=bearer(token))
    assert response.status_code == 200, response.text
    seen: View = response.json()
    return seen


def act(client: TestClient, match_id: str, token: str, action: object, version: int) -> Any:
    body = {"action": action, "expected_version": version}
    return client.post(f"/api/matches/{match_id}/actions", headers=bearer(token), json=body)


def pick(offered: list[dict[str, Any]], rnd: random.Random) -> dict[str, Any]:
    """A random offered action, passing rarely so that matches buy and build (a match that
    passes at once ends as quickly, but tests less)."""
    busy = [a for a in offered if a["type"] != "pass"]
    return rnd.choice(busy) if busy and rnd.random() < 0.85 else rnd.choice(offered)


def play_to_the_end(
    client: TestClient, match_id: str, tokens: dict[str, str], seed: int, limit: int = 3000
) -> View:
    """Play both seats over HTTP, sending exactly an offered object each time; the final view of
    the first seat. The decider is read from the public view's decision."""
    rnd = random.Random(seed)
    seen = view(client, match_id, tokens["p1"])
    while seen["status"] == "active":
        decider = seen["state"]["decision"]["seat"]
        mine = view(client, match_id, tokens[decider])
        assert mine["legal_actions"], f"{decider} must decide at v{mine['version']} with no choice"
        response = act(
            client, match_id, tokens[decider], pick(mine["legal_actions"], rnd), mine["version"]
        )
        assert response.status_code == 200, response.text
        seen = response.json()
        assert seen["version"] < limit, "the match does not end"
    return view(client, match_id, tokens["p1"])
