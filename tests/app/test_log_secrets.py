"""No secret in the server's log (contract v1.1): a real server (`python -m app`) serves a whole
match — invite page and claim, HTTP views and moves, seat sockets by the first message and by v1's
?token=, a spectator's page, view and socket, a rematch — and its captured output (stdout and
stderr) names no seat token, spectator key or invite code, while its request lines are there; in
text and in JSON lines (LOG_FORMAT=json), where every line is one object with a request id on
each request's and each accepted action's line."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from app.logs import scrub
from engine.watergate.bots import RandomBot
from tests.app.conftest import ADMIN_TOKEN
from tests.app.test_crash import Server, Spawn, servers
from tests.app.test_persistence import ROLES, bearer

DEADLINE = 10.0  # seconds per receive: a guard against hanging


@pytest.fixture
def spawn(tmp_path: Path) -> Iterator[Spawn]:
    with servers(tmp_path) as make:
        yield make


def next_view(ws: ClientConnection, newer_than: int = -1) -> dict[str, Any]:
    while True:
        try:
            message = json.loads(ws.recv(timeout=DEADLINE))
        except TimeoutError:
            pytest.fail(f"no view within {DEADLINE} s")
        assert message["type"] == "view", message
        if message["version"] > newer_than:
            return dict(message)


def play_out(sockets: dict[str, ClientConnection], watcher: ClientConnection) -> dict[str, Any]:
    """Both seats play random legal moves over their sockets to the end; the spectator follows."""
    bot = RandomBot(5)
    latest = {role: next_view(sockets[role]) for role in ROLES}
    watched = next_view(watcher)
    while latest["editor"]["status"] == "active":
        role = next(r for r in ROLES if latest[r]["legal_actions"])
        mine = latest[role]
        action = bot.choose(mine["state"], mine["legal_actions"])
        body = {"type": "action", "action": action, "expected_version": mine["version"]}
        sockets[role].send(json.dumps(body))
        latest = {r: next_view(sockets[r], mine["version"]) for r in ROLES}
        assert mine["version"] < 2000, "the match does not end"
    while watched["status"] != "finished":
        watched = next_view(watcher, watched["version"])
    return latest["editor"]


@dataclass(frozen=True)
class Played:
    """What a whole match on a real server left: its captured output and what it must hide."""

    log: str
    match_id: str
    secrets: dict[str, str]  # what -> the secret
    actions: int  # accepted during the match


def play_a_match(server: Server) -> Played:
    """Invite page and claim, HTTP views and moves, seat sockets by the first message and by v1's
    ?token=, a spectator's page, view and socket, a rematch, a scrape of /metrics; then the
    server is stopped and its output read."""
    http, ws_base = server.http, f"ws://{server.base}"
    made = http.post("/api/matches", json={"role": "editor", "opponent": "human"}).json()
    match_id, code = made["match_id"], made["invite_url"].rsplit("/invite/", 1)[1]
    assert http.get(f"/invite/{code}").status_code == 200  # the friend opens the link
    claimed = http.post(f"/api/invites/{code}/claim").json()
    tokens = {"editor": made["seat_token"], "nixon": claimed["seat_token"]}
    # a client that puts its token in the query (not how the API takes it) is logged too
    assert http.get(f"/api/matches/{match_id}?token={tokens['editor']}").status_code == 401
    watch = http.get(f"/api/matches/{match_id}", headers=bearer(tokens["editor"]))
    spectate_path = watch.json()["spectate_path"]
    key = spectate_path.rsplit("key=", 1)[1]
    assert http.get(spectate_path).status_code == 200
    assert http.get(f"/api/matches/{match_id}/spectate?key={key}").status_code == 200

    with (
        connect(f"{ws_base}/ws/matches/{match_id}", open_timeout=DEADLINE) as editor,
        connect(f"{ws_base}/ws/matches/{match_id}?token={tokens['nixon']}") as nixon,  # v1
        connect(f"{ws_base}/ws/watch/{match_id}?key={key}", open_timeout=DEADLINE) as watcher,
    ):
        editor.send(json.dumps({"type": "auth", "token": tokens["editor"]}))
        final = play_out({"editor": editor, "nixon": nixon}, watcher)
    assert final["status"] == "finished"

    offered = http.post(f"/api/matches/{match_id}/rematch", headers=bearer(tokens["editor"]))
    assert offered.status_code == 200, offered.text
    accepted = http.post(f"/api/matches/{match_id}/rematch/accept", headers=bearer(tokens["nixon"]))
    claimed_back = http.post(
        f"/api/matches/{match_id}/rematch/claim", headers=bearer(tokens["editor"])
    )
    assert accepted.status_code == claimed_back.status_code == 200
    rematch = accepted.json()["match_id"]
    tokens |= {
        "nixon's rematch": accepted.json()["seat_token"],
        "editor's rematch": claimed_back.json()["seat_token"],
    }
    for new_token in (tokens["nixon's rematch"], tokens["editor's rematch"]):
        with connect(f"{ws_base}/ws/matches/{rematch}?token={new_token}") as seat:
            assert next_view(seat)["match_id"] == rematch
    assert http.get("/metrics").status_code == 200  # this machine's scraper, no token set
    server.stop()
    secrets = {"spectator key": key, "invite code": code, "admin token": ADMIN_TOKEN} | {
        f"{name} seat token": token for name, token in tokens.items()
    }
    return Played(server.log.read_text(errors="replace"), match_id, secrets, final["version"])


def leaked(played: Played) -> list[str]:
    return [name for name, secret in played.secrets.items() if secret in played.log]


def test_the_server_log_names_no_seat_token_spectator_key_or_invite_code(
    sqlite_url: str, spawn: Spawn
) -> None:
    played = play_a_match(spawn(sqlite_url))
    log, match_id = played.log, played.match_id
    # the lines that would carry them are there, scrubbed
    assert f'"WebSocket /ws/matches/{match_id}?token=***" [accepted]' in log
    assert f'"WebSocket /ws/matches/{match_id}" [accepted]' in log
    assert f'"WebSocket /ws/watch/{match_id}?key=***" [accepted]' in log
    assert f'"GET /watch/{match_id}?key=*** HTTP/1.1" 200' in log
    assert '"POST /api/invites/***/claim HTTP/1.1" 200' in log
    assert '"GET /invite/*** HTTP/1.1" 200' in log
    assert not leaked(played), f"in the server's log: {leaked(played)}"


def test_the_json_log_is_one_object_a_line_and_names_no_secret_either(
    sqlite_url: str, spawn: Spawn
) -> None:
    """LOG_FORMAT=json: every line of the output is one JSON object with its time, level,
    logger and message; each HTTP request and each accepted action has a line with a request
    id; the same scrubbing applies."""
    played = play_a_match(spawn(sqlite_url, env={"LOG_FORMAT": "json"}))
    lines = [json.loads(line) for line in played.log.splitlines() if line.strip()]
    for line in lines:
        assert isinstance(line, dict), line
        assert {"time", "level", "logger", "message"} <= line.keys(), line
        assert line["time"].endswith("Z") and line["level"] in ("INFO", "WARNING", "ERROR")
    requests = [line for line in lines if line["logger"] == "watergate.request"]
    paths = {(line["method"], line["path"], line["status"]) for line in requests}
    match_id = played.match_id
    assert ("POST", "/api/invites/***/claim", 200) in paths
    assert ("GET", "/invite/***", 200) in paths
    assert ("GET", f"/watch/{match_id}?key=***", 200) in paths
    assert ("GET", f"/api/matches/{match_id}?token=***", 401) in paths
    assert ("GET", "/metrics", 200) in paths
    assert '"POST /api/invites/***/claim HTTP/1.1" 200' in {line["message"] for line in requests}
    for line in requests:
        assert re.fullmatch(r"[0-9a-f]{16}", line["request_id"]), line
        assert line["duration_ms"] >= 0 and line["client"].startswith("127.0.0.1:")
    assert len({line["request_id"] for line in requests}) == len(requests), "one id a request"
    moves = [
        line
        for line in lines
        if line["logger"] == "watergate.play" and line["message"] == "action accepted"
    ]
    # one line a seat's action, at the version it left the match at: one more, or a few more
    # when the server took an only choice after it (issue 42)
    versions = [line["version"] for line in moves]
    assert versions[0] >= 1 and versions == sorted(set(versions))
    assert versions[-1] == played.actions and len(moves) <= played.actions
    assert all(line["match_id"] == match_id and line["request_id"] for line in moves)
    sockets = [line["message"] for line in lines if line["logger"] == "uvicorn.error"]
    assert any(f'"WebSocket /ws/watch/{match_id}?key=***" [accepted]' in m for m in sockets)
    assert any(f'"WebSocket /ws/matches/{match_id}?token=***" [accepted]' in m for m in sockets)
    assert not leaked(played), f"in the server's JSON log: {leaked(played)}"


def test_secret_query_values_are_hidden_however_the_name_is_spelled() -> None:
    """Starlette decodes parameter names, so %74oken= is a token too; other values stay."""
    line = 'x - "GET /api/x?%74oken=T1&Seat_Token=T2&api_key=T3&lang=de&q=a%3Db HTTP/1.1" 401'
    assert scrub(line) == (
        'x - "GET /api/x?%74oken=***&Seat_Token=***&api_key=***&lang=de&q=a%3Db HTTP/1.1" 401'
    )
    assert scrub("Authorization: Bearer T4 then /invite/C1?lang=de") == (
        "Authorization: Bearer *** then /invite/***?lang=de"
    )
