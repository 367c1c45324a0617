"""Tutorial matches over HTTP and websockets (contract v1.1 Tutorials): a lesson starts an
unrated match against the computer from the lesson's deal at the lesson's seat; the coach tells
the learner only the learner's own moves; while the learner keeps to the path the computer
answers with the lesson's moves, and once the learner chooses freely it plays as in any match.

Synchronisation is by blocking receives only (tests.app.test_ws.receive has a deadline)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from app.lessons import lesson_path
from engine.registry import get_game

from .test_bad_input import assert_refused
from .test_ws import receive_view, send_action, socket


def start(client: TestClient, lesson: str, game: str = "watergate") -> dict[str, Any]:
    response = client.post(f"/api/lessons/{game}/{lesson}/start")
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def view_of(client: TestClient, made: dict[str, Any]) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {made['seat_token']}"}
    response = client.get(f"/api/matches/{made['match_id']}", headers=headers)
    assert response.status_code == 200, response.text
    view: dict[str, Any] = response.json()
    return view


def test_the_lessons_on_offer_name_their_game_and_seat(client: TestClient) -> None:
    listed = client.get("/api/lessons").json()
    watergate = {(x["lesson"], x["seat"]) for x in listed if x["game"] == "watergate"}
    assert watergate == {("editor", "editor"), ("nixon", "nixon")}
    nations = {(x["lesson"], x["seat"]) for x in listed if x["game"] == "nations"}
    assert nations == {("p1", "p1")}  # one nation: the learner's, against the computer's


@pytest.mark.parametrize("path", ["chess/editor", "watergate/bishop", "nations/nixon"])
def test_an_unknown_lesson_is_404(client: TestClient, path: str) -> None:
    assert_refused(client.get(f"/api/lessons/{path}"), 404)
    assert_refused(client.post(f"/api/lessons/{path}/start"), 404)
    assert_refused(client.get(f"/learn/{path}"), 404)


@pytest.mark.parametrize(("game", "lesson"), [("watergate", "editor"), ("nations", "p1")])
def test_the_coach_gives_only_the_learners_own_moves(
    client: TestClient, game: str, lesson: str
) -> None:
    coach = client.get(f"/api/lessons/{game}/{lesson}").json()
    script = lesson_path(game, lesson).lesson.script
    mine = {v: a for v, (seat, a) in enumerate(script) if seat == lesson}
    assert {s["version"]: s["action"] for s in coach["steps"]} == mine
    assert coach["seat"] == lesson and coach["length"] == len(script)


@pytest.mark.parametrize(
    ("game", "lesson", "other"),
    [("watergate", "editor", "nixon"), ("watergate", "nixon", "editor"), ("nations", "p1", "p2")],
)
def test_a_lesson_starts_unrated_against_the_computer_at_its_seat(
    client: TestClient, game: str, lesson: str, other: str
) -> None:
    made = start(client, lesson, game)
    assert made["role"] == lesson
    view = view_of(client, made)
    assert view["tutorial"] == {"lesson": lesson, "on_path": True}
    assert view["players"][other]["kind"] == "bot"
    assert view["status"] == "active"
    # the deal is the lesson's: the table shows its path's position (the computer may have made
    # its scripted first move already)
    rules, taught = get_game(game), lesson_path(game, lesson).lesson
    state = rules.start(taught.seed).state
    for seat, action in taught.script[: view["version"]]:
        state = rules.apply(state, seat, action).state
    assert view["state"] == rules.view_for(state, lesson)


def follow(ws: WebSocketTestSession, script: list[tuple[str, Any]], upto: int) -> dict[str, Any]:
    """Play the learner's scripted moves until the match reaches version `upto`; the computer's
    moves in between must be the script's."""
    view = receive_view(ws)
    while view["version"] < upto:
        seat, action = script[view["version"]]
        if view["legal_actions"] and seat == view["role"]:
            assert action in view["legal_actions"]
            send_action(ws, action, view["version"])
        next_view = receive_view(ws)
        while next_view["version"] == view["version"]:
            next_view = receive_view(ws)
        view = next_view
    return view


@pytest.mark.parametrize(("game", "lesson"), [("watergate", "editor"), ("nations", "p1")])
def test_the_computer_follows_the_lesson_while_the_learner_does(
    client: TestClient, game: str, lesson: str
) -> None:
    made = start(client, lesson, game)
    script = list(lesson_path(game, lesson).lesson.script)
    with socket(client, made["match_id"], made["seat_token"]) as ws:
        view = follow(ws, script, len(script))
    # on the path at its end: the state is the script's own, so the computer played its moves
    assert view["version"] == len(script) and view["tutorial"]["on_path"] is True


@pytest.mark.parametrize(("game", "lesson"), [("watergate", "editor"), ("nations", "p1")])
def test_a_free_choice_leaves_the_path_and_the_computer_plays_on(
    client: TestClient, game: str, lesson: str
) -> None:
    made = start(client, lesson, game)
    script = list(lesson_path(game, lesson).lesson.script)
    mine = next(v for v, (seat, _) in enumerate(script) if seat == lesson)
    with socket(client, made["match_id"], made["seat_token"]) as ws:
        view = follow(ws, script, mine)  # the computer's scripted moves first, if any
        _, taught = script[mine]
        other = next(a for a in view["legal_actions"] if a != taught)
        send_action(ws, other, view["version"])
        view = receive_view(ws)
        while view["version"] <= mine:
            view = receive_view(ws)
        assert view["tutorial"]["on_path"] is False
        sent = 1  # my moves since the path's end: until the computer has made one of its own
        while view["status"] == "active" and view["version"] == mine + sent:
            if view["legal_actions"]:  # mine again (a Nations turn after a growth): pass on
                legal = view["legal_actions"]
                move = next((a for a in legal if a == {"type": "pass"}), legal[0])
                send_action(ws, move, view["version"])
                sent += 1
            view = receive_view(ws)
            while view["version"] < mine + sent:  # a push of the same position
                view = receive_view(ws)
    assert view["version"] > mine + sent  # the computer answered by itself, off the script


@pytest.mark.parametrize(("lesson", "topic"), [("editor", "evaluation"), ("nixon", "pin")])
def test_a_lesson_can_start_at_the_step_that_teaches_a_topic(
    client: TestClient, lesson: str, topic: str
) -> None:
    """The rules page's links: the path is played for both seats up to that decision."""
    response = client.post(f"/api/lessons/watergate/{lesson}/start", json={"at": topic})
    assert response.status_code == 201, response.text
    made = response.json()
    coach = client.get(f"/api/lessons/watergate/{lesson}").json()
    step = next(s for s in coach["steps"] if topic in s["topics"])
    assert step["version"] > 0
    view = view_of(client, made)
    assert view["version"] == step["version"]
    assert view["tutorial"] == {"lesson": lesson, "on_path": True}
    assert step["action"] in view["legal_actions"]


@pytest.mark.parametrize("at", ["bishop", "", "x" * 33, 7])
def test_an_unknown_topic_is_refused_before_any_match_is_made(
    client: TestClient, at: object
) -> None:
    response = client.post("/api/lessons/watergate/editor/start", json={"at": at})
    assert_refused(response, 422)


def test_every_rules_link_names_a_topic_its_lesson_teaches() -> None:
    """A lesson re-found after a rules change must still show what the rules pages link to."""
    from app.http.pages import NATIONS_LESSON, NATIONS_RULE_TOPICS, RULE_TOPICS

    links = [("watergate", lesson, topic) for row in RULE_TOPICS for lesson, topic in row.items()]
    assert NATIONS_LESSON is not None
    links += [("nations", NATIONS_LESSON, t) for t in NATIONS_RULE_TOPICS if t is not None]
    for game, lesson, topic in links:
        path = lesson_path(game, lesson)
        version = path.version_teaching(topic)
        assert version is not None and version < path.length, (game, lesson, topic)
