"""Around the game (issue 7): presence through the websocket, resigning, rematches with roles
swapped, the 30-day abandonment sweep and read-only spectators (public information only).

Synchronisation is by blocking receives only: a push is awaited by reading messages until the
expected one arrives, bounded by a message count, each read bounded by a deadline that fails the
test instead of hanging it. The periodic sweeper is pushed out of the way (sweep_seconds huge) and
sweeps are run by hand with `sweep_once`."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from app.clocks import Clock
from app.main import create_app, sweep_once
from app.persistence.models import Match, utcnow
from engine.watergate import GAME, apply, current_role, other, start
from engine.watergate.views import events_for, view_for

from .conftest import ADMIN_TOKEN, make_settings

ROLES = ("editor", "nixon")
DEADLINE = 10.0  # seconds per message: a guard against hanging, never a way to wait
MAX_MESSAGES = 12  # pushes read while waiting for one condition
PEEK_SEED = 3  # rules version 2: the Editor's opening hand holds E01 Bob Woodward (peek, move 2)
SETTINGS: dict[str, Any] = {"sweep_seconds": 1e6, "bot_kind": "random", "bot_delay_ms": 0}
View = dict[str, Any]


@contextmanager
def serve(url: str, clock: Clock | None = None) -> Iterator[TestClient]:
    """A started app over the database at `url` (a restart is a second `serve` on the same url)."""
    with TestClient(create_app(make_settings(url, **SETTINGS), clock=clock)) as client:
        yield client


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with serve(sqlite_url) as c:
        yield c


# ---- HTTP -------------------------------------------------------------------------------------


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(
    c: TestClient, role: str = "editor", opponent: str = "human", clock: str = "none"
) -> View:
    response = c.post("/api/matches", json={"role": role, "opponent": opponent, "clock": clock})
    assert response.status_code == 201, response.text
    return dict(response.json())


def claim(c: TestClient, made: View) -> View:
    code = made["invite_url"].rsplit("/invite/", 1)[1]
    response = c.post(f"/api/invites/{code}/claim")
    assert response.status_code == 200, response.text
    return dict(response.json())


def started(c: TestClient, clock: str = "none") -> tuple[str, dict[str, str]]:
    """An active friend match: the creator holds the Editor, the invited friend Nixon."""
    made = create(c, "editor", clock=clock)
    return made["match_id"], {"editor": made["seat_token"], "nixon": claim(c, made)["seat_token"]}


def view(c: TestClient, match_id: str, token: str) -> View:
    response = c.get(f"/api/matches/{match_id}", headers=bearer(token))
    assert response.status_code == 200, response.text
    return dict(response.json())


def act(c: TestClient, match_id: str, token: str, action: object) -> Any:
    return c.post(
        f"/api/matches/{match_id}/actions", headers=bearer(token), json={"action": action}
    )


def post(c: TestClient, match_id: str, path: str, token: str) -> Any:
    return c.post(f"/api/matches/{match_id}/{path}", headers=bearer(token))


def refused(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["code"] == code, response.text


def sweep(c: TestClient) -> list[str]:
    """One sweep (clock expiry, abandonment) in the app's own event loop."""
    assert c.portal is not None
    return list(c.portal.call(sweep_once, c.app.state.ctx))  # type: ignore[attr-defined]


def spectate_key(c: TestClient, match_id: str, token: str) -> str:
    path = view(c, match_id, token)["spectate_path"]
    assert path.startswith(f"/watch/{match_id}?key="), path
    return str(path.rsplit("key=", 1)[1])


# ---- websockets -------------------------------------------------------------------------------


def receive(ws: WebSocketTestSession) -> View:
    """The next message, or fail if none arrives before the deadline (or the socket closes)."""

    async def next_message() -> dict[str, Any]:
        with anyio.fail_after(DEADLINE):
            return await ws._send_rx.receive()  # type: ignore[no-any-return]

    try:
        message = ws.portal.call(next_message)
    except TimeoutError:
        pytest.fail(f"no websocket message within {DEADLINE} s")
    if message["type"] == "websocket.close":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason", ""))
    return dict(json.loads(message.get("text") or message["bytes"].decode()))


def wait_for(ws: WebSocketTestSession, holds: Callable[[View], bool], what: str) -> View:
    """Read pushed views until one satisfies `holds` (at most MAX_MESSAGES of them)."""
    seen = []
    for _ in range(MAX_MESSAGES):
        message = receive(ws)
        assert message["type"] == "view", message
        if holds(message):
            return message
        seen.append({k: message.get(k) for k in ("version", "status", "presence", "rematch")})
    pytest.fail(f"no pushed view where {what} within {MAX_MESSAGES} messages: {seen}")


@contextmanager
def seat_socket(c: TestClient, match_id: str, token: str) -> Iterator[WebSocketTestSession]:
    with c.websocket_connect(f"/ws/matches/{match_id}?token={token}") as ws:
        yield ws


def finished(v: View) -> bool:
    return v["status"] == "finished"


# ---- presence ---------------------------------------------------------------------------------


def test_presence_of_the_opponent_is_pushed_as_its_socket_comes_and_goes(sqlite_url: str) -> None:
    with serve(sqlite_url) as c:
        match_id, tokens = started(c)
        with seat_socket(c, match_id, tokens["editor"]) as ed:
            first = wait_for(ed, lambda v: True, "any view")
            assert first["presence"]["nixon"] == {"online": False, "last_seen": None}
            assert first["presence"]["editor"]["online"] is True
            with seat_socket(c, match_id, tokens["nixon"]) as nx:
                on = wait_for(ed, lambda v: v["presence"]["nixon"]["online"], "Nixon is online")
                assert on["presence"]["editor"]["online"] is True
                mine = wait_for(nx, lambda v: v["presence"]["editor"]["online"], "Editor online")
                assert mine["role"] == "nixon"
                left_at = time.time()
                nx.close()  # the client leaves; the server notices and tells the other seat
                off = wait_for(ed, lambda v: not v["presence"]["nixon"]["online"], "Nixon left")
                noticed_at = time.time()
            seen = off["presence"]["nixon"]["last_seen"]
            assert isinstance(seen, float | int), off["presence"]
            assert left_at <= seen <= noticed_at
            assert view(c, match_id, tokens["editor"])["presence"]["nixon"] == {
                "online": False,
                "last_seen": seen,
            }
    with serve(sqlite_url) as again:  # "last seen" is stored, not only kept in memory
        after = view(again, match_id, tokens["editor"])["presence"]["nixon"]
        assert after["online"] is False
        assert left_at <= after["last_seen"] <= noticed_at


# ---- resign -----------------------------------------------------------------------------------


@pytest.mark.parametrize("quitter", ROLES)
def test_resigning_gives_the_match_to_the_opponent(client: TestClient, quitter: str) -> None:
    match_id, tokens = started(client)
    pending = view(client, match_id, tokens["editor"])["legal_actions"][0]
    with (
        seat_socket(client, match_id, tokens["editor"]) as ed,
        seat_socket(client, match_id, tokens["nixon"]) as nx,
    ):
        response = post(client, match_id, "resign", tokens[quitter])
        assert response.status_code == 200, response.text
        for role, ws in (("editor", ed), ("nixon", nx)):
            for v in (
                wait_for(ws, finished, "the match is over"),
                view(client, match_id, tokens[role]),
            ):
                assert v["role"] == role
                assert v["winner"] == other(quitter)
                assert (v["win_reason"], v["ended_by"]) == ("resigned", quitter)
                assert v["legal_actions"] == []
    refused(act(client, match_id, tokens["editor"], pending), 422, "match_over")
    refused(post(client, match_id, "resign", tokens[quitter]), 422, "match_over")
    refused(post(client, match_id, "resign", tokens[other(quitter)]), 422, "match_over")
    assert view(client, match_id, tokens["nixon"])["winner"] == other(quitter)


def test_only_a_seat_of_the_match_may_resign(client: TestClient) -> None:
    match_id, tokens = started(client)
    _, other_tokens = started(client)
    refused(client.post(f"/api/matches/{match_id}/resign"), 401, "unauthorized")
    refused(post(client, match_id, "resign", other_tokens["nixon"]), 403, "wrong_match")
    assert view(client, match_id, tokens["editor"])["status"] == "active"


# ---- rematch ----------------------------------------------------------------------------------


def test_a_rematch_is_offered_only_after_the_end(client: TestClient) -> None:
    match_id, tokens = started(client)
    for role in ROLES:
        refused(post(client, match_id, "rematch", tokens[role]), 409, "match_not_finished")
    refused(post(client, match_id, "rematch/claim", tokens["editor"]), 404, "not_found")


def test_a_rematch_swaps_the_roles_and_seats_both_players(client: TestClient) -> None:
    old, tokens = started(client)
    assert post(client, old, "resign", tokens["editor"]).status_code == 200
    refused(post(client, old, "rematch/accept", tokens["nixon"]), 404, "not_found")
    with seat_socket(client, old, tokens["nixon"]) as nx:
        wait_for(nx, finished, "the match is over")
        offered = post(client, old, "rematch", tokens["editor"])
        assert offered.status_code == 200, offered.text
        assert offered.json()["status"] == "offered"
        pushed = wait_for(nx, lambda v: v.get("rematch") is not None, "the offer is shown")
        assert pushed["rematch"]["offered_by"] == "editor"
        assert pushed["rematch"]["match_id"] is None
    assert view(client, old, tokens["nixon"])["rematch"]["offered_by"] == "editor"
    refused(post(client, old, "rematch/accept", tokens["editor"]), 409, "own_offer")
    refused(post(client, old, "rematch", tokens["nixon"]), 409, "rematch_offered")
    refused(post(client, old, "rematch/claim", tokens["editor"]), 404, "not_found")

    with seat_socket(client, old, tokens["editor"]) as ed:
        wait_for(ed, finished, "the match is over")
        accepted = post(client, old, "rematch/accept", tokens["nixon"])
        assert accepted.status_code == 200, accepted.text
        mine = accepted.json()
        assert mine["role"] == "editor" and mine["match_id"] != old
        new = mine["match_id"]
        told = wait_for(ed, lambda v: (v.get("rematch") or {}).get("match_id") == new, "started")
        assert told["rematch"]["claimed"]["editor"] is False  # the offering seat still has to
    refused(post(client, old, "rematch/accept", tokens["nixon"]), 409, "rematch_started")
    taken = post(client, old, "rematch/claim", tokens["editor"])
    assert taken.status_code == 200, taken.text
    assert (taken.json()["match_id"], taken.json()["role"]) == (new, "nixon")
    refused(post(client, old, "rematch/claim", tokens["editor"]), 409, "rematch_claimed")
    refused(post(client, old, "rematch/claim", tokens["nixon"]), 409, "rematch_claimed")

    fresh = {"editor": mine["seat_token"], "nixon": taken.json()["seat_token"]}
    assert len({*fresh.values(), *tokens.values()}) == 4
    for role, token in fresh.items():
        v = view(client, new, token)
        assert (v["role"], v["status"], v["version"], v["opponent"]) == (role, "active", 0, "human")
        assert bool(v["legal_actions"]) == (role == "editor")  # R5: the Editor starts
        refused(client.get(f"/api/matches/{old}", headers=bearer(token)), 403, "wrong_match")
    for token in tokens.values():
        refused(client.get(f"/api/matches/{new}", headers=bearer(token)), 403, "wrong_match")
    # the old Nixon, now the Editor, can play the new match with the new token
    first = view(client, new, fresh["editor"])["legal_actions"][0]
    assert act(client, new, fresh["editor"], first).status_code == 200


def test_a_rematch_against_the_computer_starts_at_once(client: TestClient) -> None:
    made = create(client, "editor", "bot")
    old, token = made["match_id"], made["seat_token"]
    assert post(client, old, "resign", token).status_code == 200
    response = post(client, old, "rematch", token)
    assert response.status_code == 200, response.text
    seat = response.json()
    assert (seat["status"], seat["role"]) == ("started", "nixon")
    assert seat["match_id"] != old and seat["seat_token"] != token
    v = view(client, seat["match_id"], seat["seat_token"])
    assert (v["role"], v["status"], v["opponent"]) == ("nixon", "active", "bot")
    refused(post(client, old, "rematch/claim", token), 409, "rematch_claimed")
    with seat_socket(client, seat["match_id"], seat["seat_token"]) as ws:  # the bot opens
        moved = wait_for(ws, lambda v: v["version"] >= 1, "the computer Editor has moved")
        assert moved["role"] == "nixon"


# ---- abandonment ------------------------------------------------------------------------------


def age(c: TestClient, match_id: str, days: float) -> None:
    """Pretend the match's last activity was `days` ago."""
    with c.app.state.ctx.db.writer.begin() as db:  # type: ignore[attr-defined]
        db.execute(
            update(Match)
            .where(Match.id == match_id)
            .values(updated_at=utcnow() - timedelta(days=days))
        )


def stored_status(c: TestClient, match_id: str) -> str:
    with c.app.state.ctx.db.reader() as db:  # type: ignore[attr-defined]
        match = db.get(Match, match_id)
        assert match is not None
        return str(match.status)


def admin_status(c: TestClient, match_id: str) -> str:
    response = c.get(f"/api/admin/matches/{match_id}", headers=bearer(ADMIN_TOKEN))
    assert response.status_code == 200, response.text
    return str(response.json()["match"]["status"])


def test_a_friend_match_idle_for_31_days_is_abandoned(client: TestClient) -> None:
    match_id, tokens = started(client)
    waiting = create(client, "nixon")  # the friend never came
    pending = view(client, match_id, tokens["editor"])["legal_actions"][0]
    age(client, match_id, 31)
    age(client, waiting["match_id"], 31)
    with seat_socket(client, match_id, tokens["editor"]) as ed:
        assert wait_for(ed, lambda v: True, "any view")["legal_actions"]
        assert sorted(sweep(client)) == sorted([match_id, waiting["match_id"]])
        gone = wait_for(ed, lambda v: v["status"] != "active", "the match is abandoned")
        assert gone["legal_actions"] == [] and gone["winner"] is None
    for mid in (match_id, waiting["match_id"]):
        assert stored_status(client, mid) == "abandoned"
        assert admin_status(client, mid) == "abandoned"
    listed = client.get("/api/admin/matches?status=abandoned", headers=bearer(ADMIN_TOKEN))
    assert {row["match_id"] for row in listed.json()} == {match_id, waiting["match_id"]}
    refused(act(client, match_id, tokens["editor"], pending), 422, "match_over")
    assert sweep(client) == []


def test_bot_matches_recent_matches_and_ended_matches_are_not_abandoned(
    client: TestClient,
) -> None:
    bot = create(client, "editor", "bot")["match_id"]  # the human decides first: the bot waits
    recent, _ = started(client)
    ended, tokens = started(client)
    assert post(client, ended, "resign", tokens["nixon"]).status_code == 200
    for match_id, days in ((bot, 31), (recent, 29), (ended, 31)):
        age(client, match_id, days)
    assert sweep(client) == []
    assert [stored_status(client, m) for m in (bot, recent, ended)] == [
        "active",
        "active",
        "finished",
    ]


# ---- spectators -------------------------------------------------------------------------------


def token_ids(data: object) -> list[object]:
    """Every "id" found in a token-like object (anything with a "handle") of a JSON document."""
    found: list[object] = []
    if isinstance(data, dict):
        if "handle" in data and "id" in data:
            found.append(data["id"])
        for value in data.values():
            found += token_ids(value)
    elif isinstance(data, list):
        for value in data:
            found += token_ids(value)
    return found


def test_the_spectator_view_shows_public_information_only(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("app.services.matches.new_seed", lambda: PEEK_SEED)
    match_id, tokens = started(client)
    opening = start(PEEK_SEED, GAME.rules_version)  # dealt as the server deals
    s, events = opening.state, list(opening.events)
    played = {"type": "play_action", "card": "E01"}  # Bob Woodward: the Editor peeks first
    assert played in view(client, match_id, tokens["editor"])["legal_actions"]
    assert act(client, match_id, tokens["editor"], played).status_code == 200
    step = apply(s, "editor", played)
    s, events = step.state, events + list(step.events)
    assert current_role(s) == "editor"  # the Editor now picks the token to move: nothing else ran

    seen = view(client, match_id, tokens["editor"])["state"]["track"]["evidence"]
    peeked = [t for t in seen if t["face"] == "down" and t.get("peeked")]
    assert peeked and all("colors" in t for t in peeked), "the Editor must see what it peeked at"

    key = spectate_key(client, match_id, tokens["nixon"])
    response = client.get(f"/api/matches/{match_id}/spectate", params={"key": key})
    assert response.status_code == 200, response.text
    watched = response.json()
    assert (watched["role"], watched["status"], watched["legal_actions"]) == (None, "active", [])
    hands = watched["state"]["hands"]
    assert hands == {"editor": len(s.hands["editor"]), "nixon": len(s.hands["nixon"])}
    assert all(type(n) is int for n in hands.values())
    for t in watched["state"]["track"]["evidence"]:
        if t["face"] == "down":
            assert "colors" not in t and "momentum_symbol" not in t, t
    assert sum(1 for t in watched["state"]["track"]["evidence"] if t.get("peeked")) == len(peeked)
    assert token_ids(watched) == []
    assert "rematch" not in watched and "spectate_path" not in watched
    # the same as the engine's public projection of the same match, worked out here
    assert watched["state"] == json.loads(json.dumps(view_for(s, None)))
    assert watched["log"] == json.loads(json.dumps(events_for(events, None)))
    text = response.text
    for card in s.hands["editor"] + s.hands["nixon"]:
        assert f'"{card}"' not in text, f"the hand card {card} reached the spectator"
    for entry in watched["log"]:
        assert "cards" not in entry, entry
        for p in [entry.get("token"), *entry.get("tokens", [])]:
            assert not p or p["face"] == "up" or "colors" not in p, entry


def test_a_wrong_spectator_key_is_refused(client: TestClient) -> None:
    match_id, tokens = started(client)
    key = spectate_key(client, match_id, tokens["editor"])
    for params in ({"key": key + "x"}, {"key": ""}, {}):
        refused(client.get(f"/api/matches/{match_id}/spectate", params=params), 403, "wrong_key")
    other_match, _ = started(client)  # a key opens only its own match
    refused(
        client.get(f"/api/matches/{other_match}/spectate", params={"key": key}), 403, "wrong_key"
    )
    with client.websocket_connect(f"/ws/watch/{match_id}?key=nope") as ws:
        assert receive(ws)["code"] == "wrong_key"
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code == 4403


def test_the_spectator_socket_is_live_and_read_only(client: TestClient) -> None:
    match_id, tokens = started(client)
    key = spectate_key(client, match_id, tokens["editor"])
    with client.websocket_connect(f"/ws/watch/{match_id}?key={key}") as sp:
        first = wait_for(sp, lambda v: True, "any view")
        assert (first["role"], first["version"], first["legal_actions"]) == (None, 0, [])
        assert not any(first["presence"][r]["online"] for r in ROLES), "a spectator is no seat"
        action = view(client, match_id, tokens["editor"])["legal_actions"][0]
        assert act(client, match_id, tokens["editor"], action).status_code == 200
        pushed = wait_for(sp, lambda v: v["version"] == 1, "the move is pushed")
        assert pushed["role"] is None and pushed["legal_actions"] == []
        assert type(pushed["state"]["hands"]["editor"]) is int
        decider = current_role_of(pushed)
        move = view(client, match_id, tokens[decider])["legal_actions"][0]
        sp.send_text(json.dumps({"type": "action", "action": move, "expected_version": 1}))
        answer = receive(sp)
        assert (answer["type"], answer["code"]) == ("error", "spectator")
        sp.send_text(json.dumps({"type": "ping"}))
        assert receive(sp) == {"type": "pong"}  # still connected after the refusal
    assert view(client, match_id, tokens["editor"])["version"] == 1, "the spectator moved"
    assert post(client, match_id, "resign", tokens["nixon"]).status_code == 200
    watched = client.get(f"/api/matches/{match_id}/spectate", params={"key": key}).json()
    assert (watched["status"], watched["winner"], watched["win_reason"]) == (
        "finished",
        "editor",
        "resigned",
    )


def current_role_of(v: View) -> str:
    return str(v["state"]["decision"]["role"])
