"""Admin endpoints (product.md): with `Authorization: Bearer <ADMIN_TOKEN>` an admin lists the
stored matches and opens one in full (every hand, deck order, bag, face-down token, the seed, and
the ordered list of every command); without the token, with a wrong one, or when no ADMIN_TOKEN is
configured, the answer is 401."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from engine.watergate import current_role, replay
from engine.watergate.bots import RandomBot
from engine.watergate.views import view_for

from .conftest import ADMIN_TOKEN
from .test_admin_console import only_choices

ROLES = ("editor", "nixon")
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def seat(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def started(client: TestClient) -> tuple[str, dict[str, str]]:
    made = client.post("/api/matches", json={"role": "editor", "opponent": "human"}).json()
    code = made["invite_url"].rsplit("/invite/", 1)[1]
    claimed = client.post(f"/api/invites/{code}/claim").json()
    return made["match_id"], {"editor": made["seat_token"], "nixon": claimed["seat_token"]}


def play(
    client: TestClient, match_id: str, tokens: dict[str, str], count: int | None
) -> list[tuple[str, dict[str, Any]]]:
    """Play `count` offered actions (None: to the end) chosen by RandomBot; return them in order."""
    bot = RandomBot(5)
    played: list[tuple[str, dict[str, Any]]] = []
    while count is None or len(played) < count:
        public = client.get(f"/api/matches/{match_id}", headers=seat(tokens["editor"])).json()
        if public["status"] == "finished":
            break
        role = public["state"]["decision"]["role"]
        mine = client.get(f"/api/matches/{match_id}", headers=seat(tokens[role])).json()
        action = bot.choose(mine["state"], mine["legal_actions"])
        response = client.post(
            f"/api/matches/{match_id}/actions", headers=seat(tokens[role]), json={"action": action}
        )
        assert response.status_code == 200, response.text
        played.append((role, action))
        # and the only choices the server took after it (issue 42), as stored
        played.extend(only_choices(client, match_id, len(played), response.json()["version"]))
    return played


def assert_401(response: Any) -> None:
    assert response.status_code == 401, response.text
    body = response.json()
    assert body["code"] and body["message"]


WRONG = [
    None,
    "Bearer wrong-token",
    f"Bearer {ADMIN_TOKEN}x",
    f"Bearer {ADMIN_TOKEN[:-1]}",
    f"Basic {ADMIN_TOKEN}",
    ADMIN_TOKEN,
]


@pytest.mark.parametrize("header", WRONG, ids=range(len(WRONG)))
def test_admin_needs_the_admin_token(client: TestClient, header: str | None) -> None:
    match_id, _ = started(client)
    headers = {} if header is None else {"Authorization": header}
    assert_401(client.get("/api/admin/matches", headers=headers))
    assert_401(client.get(f"/api/admin/matches/{match_id}", headers=headers))


def test_a_seat_token_does_not_open_the_admin_endpoints(client: TestClient) -> None:
    match_id, tokens = started(client)
    for token in tokens.values():
        assert_401(client.get("/api/admin/matches", headers=seat(token)))
        assert_401(client.get(f"/api/admin/matches/{match_id}", headers=seat(token)))


@pytest.mark.parametrize("configured", [None, ""])
def test_admin_is_disabled_when_no_admin_token_is_configured(
    sqlite_url: str, make_client: Callable[..., TestClient], configured: str | None
) -> None:
    client = make_client(sqlite_url, admin_token=configured)
    match_id, _ = started(client)
    for header in (None, "Bearer ", f"Bearer {ADMIN_TOKEN}", "Bearer None"):
        headers = {} if header is None else {"Authorization": header}
        assert_401(client.get("/api/admin/matches", headers=headers))
        assert_401(client.get(f"/api/admin/matches/{match_id}", headers=headers))


def test_the_list_shows_every_match_with_its_status_and_version(client: TestClient) -> None:
    active_id, tokens = started(client)
    play(client, active_id, tokens, 3)
    waiting = client.post("/api/matches", json={"role": "nixon", "opponent": "human"}).json()
    finished_id, finished_tokens = started(client)
    moves = len(play(client, finished_id, finished_tokens, None))
    response = client.get("/api/admin/matches", headers=ADMIN)
    assert response.status_code == 200, response.text
    rows = {row["match_id"]: row for row in response.json()}
    assert set(rows) == {active_id, waiting["match_id"], finished_id}
    assert (rows[finished_id]["status"], rows[finished_id]["version"]) == ("finished", moves)
    assert rows[finished_id]["winner"] in ROLES
    assert (rows[active_id]["status"], rows[active_id]["version"]) == ("active", 3)
    assert (rows[waiting["match_id"]]["status"], rows[waiting["match_id"]]["version"]) == (
        "waiting",
        0,
    )


def test_the_detail_shows_the_full_hidden_state_and_every_command_in_order(
    client: TestClient,
) -> None:
    match_id, tokens = started(client)
    played = play(client, match_id, tokens, 6)
    response = client.get(f"/api/admin/matches/{match_id}", headers=ADMIN)
    assert response.status_code == 200, response.text
    detail = response.json()

    actions = detail["actions"]
    assert [a["seq"] for a in actions] == list(range(1, len(played) + 1))
    assert [(a["role"], a["action"]) for a in actions] == played
    stamps = [datetime.fromisoformat(a["created_at"]) for a in actions]
    assert stamps == sorted(stamps)

    state = detail["state"]
    views = {
        r: client.get(f"/api/matches/{match_id}", headers=seat(tokens[r])).json() for r in ROLES
    }
    for role in ROLES:
        own = [card["id"] for card in views[role]["state"]["hands"][role]]
        assert state["hands"][role] == own, "the admin sees both hands"
        assert isinstance(state["decks"][role], list), "the admin sees the deck order"
        assert len(state["decks"][role]) == views[role]["state"]["decks"][role]
    assert isinstance(state["bag"], list) and len(state["bag"]) == views["editor"]["state"]["bag"]
    assert all(isinstance(token["id"], str) for token in state["track"]), "face-down tokens too"
    assert len(state["track"]) == len(views["editor"]["state"]["track"]["evidence"])
    assert type(detail["seed"]) is int


def test_seed_and_commands_let_the_admin_step_through_the_match(client: TestClient) -> None:
    """A match is its seed plus its ordered commands: replaying every prefix gives each position,
    and the whole list gives exactly what the seats are shown now."""
    match_id, tokens = started(client)
    played = play(client, match_id, tokens, 12)
    detail = client.get(f"/api/admin/matches/{match_id}", headers=ADMIN).json()
    commands = [(a["role"], a["action"]) for a in detail["actions"]]
    assert commands == played
    for k, (role, _) in enumerate(commands):  # each position, and whose move came next
        assert current_role(replay(detail["seed"], commands[:k], detail["rules_version"])) == role
    final = replay(detail["seed"], commands, detail["rules_version"])
    for role in ROLES:
        shown = client.get(f"/api/matches/{match_id}", headers=seat(tokens[role])).json()
        assert shown["state"] == view_for(final, role)


def test_an_unknown_match_is_404_for_the_admin(client: TestClient) -> None:
    response = client.get("/api/admin/matches/no-such-match", headers=ADMIN)
    assert response.status_code == 404
    assert response.json()["code"] and response.json()["message"]
