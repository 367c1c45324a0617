"""Nations over websockets: pushes to both seats and a spectator, a whole match played over sockets
only, and a whole match against the computer (the Nations heuristic through the app's bot path)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from .nations_play import SEATS, create, pick, started, view
from .test_ws import receive


def view_after(ws: WebSocketTestSession, version: int) -> dict[str, Any]:
    """The first pushed view newer than `version` (pushes coalesce: it may be several moves on)."""
    while (seen := receive(ws))["type"] != "view" or seen["version"] <= version:
        assert seen["type"] == "view", seen
    return seen


def test_a_move_is_pushed_to_both_seats_and_the_spectator(client: TestClient) -> None:
    match_id, tokens = started(client)
    key = view(client, match_id, tokens["p1"])["spectate_path"].rsplit("key=", 1)[1]
    with (
        client.websocket_connect(f"/ws/matches/{match_id}?token={tokens['p1']}") as p1,
        client.websocket_connect(f"/ws/matches/{match_id}?token={tokens['p2']}") as p2,
        client.websocket_connect(f"/ws/watch/{match_id}?key={key}") as sp,
    ):
        first = receive(p1)
        assert (first["type"], first["version"], first["state"]["game"]) == ("view", 0, "nations")
        decider = first["state"]["decision"]["seat"]
        sockets = {"p1": p1, "p2": p2}
        offered = view(client, match_id, tokens[decider])["legal_actions"]
        sockets[decider].send_text(json.dumps({"type": "action", "action": offered[0]}))
        pushed = {seat: view_after(ws, 0) for seat, ws in (*sockets.items(), ("spectator", sp))}
        assert {v["version"] for v in pushed.values()} == {1}
        assert {json.dumps(v["state"]["nations"]) for v in pushed.values()} == {
            json.dumps(pushed["p1"]["state"]["nations"])
        }  # one table for all (NR1)
        assert pushed["spectator"]["legal_actions"] == []
        now = pushed["p1"]["state"]["decision"]["seat"]
        sockets[now].send_text(json.dumps({"type": "action", "action": {"type": "hire"}}))
        while (error := receive(sockets[now]))["type"] == "view":
            pass
        assert (error["type"], error["code"]) == ("error", "illegal_action")


def test_a_whole_nations_match_over_websockets_only(client: TestClient) -> None:
    match_id, tokens = started(client)
    rnd = random.Random(11)
    with (
        client.websocket_connect(f"/ws/matches/{match_id}?token={tokens['p1']}") as p1,
        client.websocket_connect(f"/ws/matches/{match_id}?token={tokens['p2']}") as p2,
    ):
        sockets = {"p1": p1, "p2": p2}
        latest = {seat: receive(ws) for seat, ws in sockets.items()}
        while latest["p1"]["status"] == "active":
            decider = latest["p1"]["state"]["decision"]["seat"]
            mine = latest[decider]
            assert mine["version"] == latest["p1"]["version"]
            action = pick(mine["legal_actions"], rnd)
            sockets[decider].send_text(
                json.dumps(
                    {"type": "action", "action": action, "expected_version": mine["version"]}
                )
            )
            latest = {seat: view_after(ws, mine["version"]) for seat, ws in sockets.items()}
            assert latest["p1"]["version"] < 3000
    for seat in SEATS:
        assert latest[seat]["status"] == "finished"
        assert set(latest[seat]["outcome"]["scores"]) == set(SEATS)


@pytest.mark.parametrize("role", SEATS)
def test_a_whole_nations_match_against_the_computer(client: TestClient, role: str) -> None:
    made = create(client, role, "bot")
    match_id, token = made["match_id"], made["seat_token"]
    rnd = random.Random(role)
    moves = {"mine": 0}
    with client.websocket_connect(f"/ws/matches/{match_id}?token={token}") as ws:
        seen = receive(ws)
        assert seen["opponent"] == "bot" and seen["status"] == "active"
        while seen["status"] == "active":
            if seen["legal_actions"]:
                assert seen["state"]["decision"]["seat"] == role
                action = pick(seen["legal_actions"], rnd)
                ws.send_text(
                    json.dumps(
                        {"type": "action", "action": action, "expected_version": seen["version"]}
                    )
                )
                moves["mine"] += 1
            before = seen["version"]
            seen = view_after(ws, before)
    assert seen["outcome"]["winner"] in SEATS
    assert set(seen["outcome"]["scores"]) == set(SEATS)
    actors = [a["role"] for a in client.get(f"/api/replays/{match_id}/export").json()["actions"]]
    other = next(s for s in SEATS if s != role)
    assert actors.count(role) == moves["mine"] and actors.count(other) > 0
