"""The computer's levels (contract v1.1): a match against the computer is created at a level
(normal unless asked), an unknown level is refused, the views name the computer with its level,
and the computer of the match plays with that level's recipe.

Synchronisation is by blocking receives only (tests.app.test_ws.receive has a deadline)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from app.services import thinking
from engine.watergate.bots.levels import LEVELS

from .test_bad_input import assert_refused
from .test_ws import receive_view, send_action, socket

MakeClient = Callable[..., TestClient]


def create(client: TestClient, **body: str) -> dict[str, Any]:
    response = client.post("/api/matches", json={"role": "nixon", **body})
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def players(client: TestClient, made: dict[str, Any]) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {made['seat_token']}"}
    view = client.get(f"/api/matches/{made['match_id']}", headers=headers).json()
    result: dict[str, Any] = view["players"]
    return result


@pytest.mark.parametrize("level", ["expert", "", "Easy", 3, None])
def test_an_unknown_level_is_refused(client: TestClient, level: object) -> None:
    body = {"role": "editor", "opponent": "bot", "level": level}
    assert_refused(client.post("/api/matches", json=body), 422)


# the computer's fixed rating per level, as docs/ratings.md publishes them
FIXED_RATINGS = {"easy": 1000, "normal": 1400, "hard": 1800}


@pytest.mark.parametrize("level", LEVELS)
def test_the_views_name_the_computer_with_its_level(client: TestClient, level: str) -> None:
    made = create(client, opponent="bot", level=level)
    expected = {"kind": "bot", "name": "Computer", "level": level, "rating": FIXED_RATINGS[level]}
    assert players(client, made)["editor"] == expected


def test_a_match_against_the_computer_is_normal_unless_asked(client: TestClient) -> None:
    made = create(client, opponent="bot")
    assert players(client, made)["editor"]["level"] == "normal"
    against_a_friend = create(client, opponent="human", level="hard")
    assert "level" not in players(client, against_a_friend)["editor"]


# the human's seat, so that the computer moves first: the Editor (R5), Nations' first player
SECOND_SEAT = {"watergate": "nixon", "nations": "p2"}


@pytest.mark.parametrize("game", SECOND_SEAT)
@pytest.mark.parametrize("level", ["easy", "hard"])
def test_the_computer_plays_the_recipe_of_its_match_level(
    sqlite_url: str,
    make_client: MakeClient,
    monkeypatch: pytest.MonkeyPatch,
    level: str,
    game: str,
) -> None:
    """The computer (moving first) answers with the bot of the level it was created at, not the
    server's default, in every game that offers levels."""
    asked: list[str] = []
    real = thinking.choose_move

    def spy(*args: Any) -> Any:
        asked.append(args[4])  # the bot kind choose_move is asked for
        return real(*args)

    monkeypatch.setattr(thinking, "choose_move", spy)
    client = make_client(sqlite_url, bot_kind="level", bot_processes=0, bot_budget_ms=20)
    made = create(client, game=game, role=SECOND_SEAT[game], opponent="bot", level=level)
    with socket(client, made["match_id"], made["seat_token"]) as ws:
        computer_moved(ws)
    assert asked and set(asked) == {level}


def computer_moved(ws: WebSocketTestSession) -> None:
    """Play the first offered action whenever asked, until a view shows a move of the other
    seat (Nations draws who starts: the human may be first)."""
    mine: set[int] = {0}
    while (view := receive_view(ws))["version"] in mine:
        if view["legal_actions"] and view["version"] + 1 not in mine:  # (a view may come twice)
            send_action(ws, view["legal_actions"][0], view["version"])
            mine.add(view["version"] + 1)
