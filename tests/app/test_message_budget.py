"""Every socket's message budget (issue 40, finding 1; contract v1.1, hostile clients): a seat's,
a spectator's and a lobby socket that sends faster than WS_MESSAGES_PER_SECOND, with bursts of
WS_MESSAGE_BURST, gets the error frame `rate_limited` and is closed 4429, while a person playing,
clicking fast, chatting and pinging never comes near it. A message costs one token per started
4 KiB, so large messages are metered by what parsing them costs.

The budget runs on the app's clock, which these tests move by hand (FakeClock): no test waits
for time to pass. Synchronisation is by blocking receives only (tests.app.test_ws.receive has a
deadline)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.routing import WebSocketRoute
from starlette.testclient import WebSocketDenialResponse, WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from app.config import Settings
from app.http.sockets import NEVER_HONEST
from app.main import create_app

from .conftest import ADMIN_TOKEN, make_settings
from .test_clocks import START, FakeClock
from .test_security_headers import flat_routes
from .test_socket_flood import spectator_socket
from .test_ws import (
    assert_error,
    http_view,
    receive,
    receive_view,
    send_action,
    socket,
    started,
)

PING = json.dumps({"type": "ping"})
BUDGET = ("ws_messages_per_second", "ws_message_burst")
PROXY = ("127.0.0.1", 50000)  # a trusted proxy (FORWARDED_ALLOW_IPS)
ELSEWHERE = {"X-Forwarded-For": "203.0.113.7"}  # another client behind it
Make = Callable[..., TestClient]


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def make(sqlite_url: str, fake: FakeClock) -> Iterator[Make]:
    """make(**settings) -> a started TestClient on the fake clock."""
    clients: list[TestClient] = []

    def started_client(**overrides: object) -> TestClient:
        app = create_app(make_settings(sqlite_url, **overrides), clock=fake)
        client = TestClient(app, client=PROXY)  # X-Forwarded-For tells its clients apart
        client.__enter__()
        clients.append(client)
        return client

    yield started_client
    for client in clients:
        client.__exit__(None, None, None)


def flooded(ws: WebSocketTestSession) -> dict[str, Any]:
    """The error frame of a socket closed for flooding (views pushed meanwhile are skipped);
    fails unless the socket is then closed 4429."""
    while (frame := receive(ws))["type"] == "view":
        pass
    assert_error(frame, "rate_limited")
    assert frame["retry_after"] >= 1
    with pytest.raises(WebSocketDisconnect) as closed:
        receive(ws)
    assert closed.value.code == 4429
    return frame


def pong(ws: WebSocketTestSession) -> None:
    """The next message that is not a view is a pong."""
    while (frame := receive(ws))["type"] == "view":
        pass
    assert frame == {"type": "pong"}, frame


def limited_count(client: TestClient) -> int:
    health = client.get("/api/admin/health", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    return int(health.json()["rate_limited"].get("messages", 0))


def test_a_lobby_socket_over_its_budget_is_told_and_closed_4429(make: Make) -> None:
    """The lobby socket needs no token: anyone may open one and flood it."""
    client = make(ws_messages_per_second=1, ws_message_burst=5)
    with client.websocket_connect("/ws/lobby") as ws:
        assert receive(ws)["type"] == "lobby"
        for _ in range(5):
            ws.send_text(PING)
            assert receive(ws) == {"type": "pong"}
        ws.send_text(PING)
        assert flooded(ws)["retry_after"] == 1  # a token comes back within a second
    assert limited_count(client) == 1  # operators see it (admin health, /metrics)
    with client.websocket_connect("/ws/lobby", headers=ELSEWHERE) as other:  # nobody else pays
        assert receive(other)["type"] == "lobby"


def test_an_address_that_flooded_opens_no_socket_for_a_while(make: Make, fake: FakeClock) -> None:
    """Else a flooder closed 4429 reconnected at once, with a fresh budget every time."""
    client = make(ws_messages_per_second=1, ws_message_burst=2, ws_flood_penalty_seconds=30)
    client.app.state.penalties.delay_s = 0.0  # type: ignore[attr-defined]  # answered at once
    with client.websocket_connect("/ws/lobby") as ws:
        assert receive(ws)["type"] == "lobby"
        for _ in range(3):
            ws.send_text(PING)
        assert [receive(ws), receive(ws)] == [{"type": "pong"}] * 2
        flooded(ws)
    with pytest.raises(WebSocketDenialResponse) as refused, client.websocket_connect("/ws/lobby"):
        pass
    answer = refused.value
    assert answer.status_code == 429 and 1 <= int(answer.headers["retry-after"]) <= 30
    assert answer.json()["code"] == "rate_limited"
    with client.websocket_connect("/ws/lobby", headers=ELSEWHERE) as other:
        assert receive(other)["type"] == "lobby"
    fake.advance(30.0)
    with client.websocket_connect("/ws/lobby") as again:  # the penalty is over
        assert receive(again)["type"] == "lobby"


def test_the_budget_refills_at_its_rate(make: Make, fake: FakeClock) -> None:
    client = make(ws_messages_per_second=2, ws_message_burst=4)
    with client.websocket_connect("/ws/lobby") as ws:
        assert receive(ws)["type"] == "lobby"
        for second in range(30):  # 4 at once, then 2 a second for 30 s: exactly the budget
            for _ in range(4 if second == 0 else 2):
                ws.send_text(PING)
                assert receive(ws) == {"type": "pong"}
            fake.advance(1.0)
        fake.advance(60.0)  # a quiet minute saves up the burst, not more
        for _ in range(4):
            ws.send_text(PING)
            assert receive(ws) == {"type": "pong"}
        ws.send_text(PING)
        flooded(ws)


def test_a_seat_flooding_illegal_actions_is_closed_and_its_match_is_untouched(
    make: Make,
) -> None:
    """An action no rule allows costs five tokens (a match transaction each), so a burst of 10
    allows two of them where it allows ten pings."""
    client = make(ws_messages_per_second=1, ws_message_burst=10)
    match_id, tokens = started(client)
    with socket(client, match_id, tokens["nixon"]) as nx:
        version = receive_view(nx)["version"]
        for _ in range(2):
            send_action(nx, {"type": "no_such_action"}, version)
            while (frame := receive(nx))["type"] == "view":
                pass
            assert_error(frame)  # each is refused on its own merits
            assert frame["code"] in NEVER_HONEST
        send_action(nx, {"type": "no_such_action"}, version)
        flooded(nx)
    path = f"/ws/matches/{match_id}?token={tokens['editor']}"
    with client.websocket_connect(path, headers=ELSEWHERE) as ed:  # the opponent, elsewhere
        view = receive_view(ed)
        assert view["version"] == version and view["status"] == "active"
        send_action(ed, view["legal_actions"][0], version)  # the match plays on
        while (view := receive_view(ed))["version"] == version:
            pass
        for _ in range(9):  # its own allowance of pings, untouched by the flooder's
            ed.send_text(PING)
            pong(ed)


def test_a_spectator_over_its_budget_is_closed_4429(make: Make) -> None:
    client = make(ws_messages_per_second=1, ws_message_burst=3)
    match_id, tokens = started(client)
    with spectator_socket(client, match_id, tokens["editor"])() as ws:
        assert receive_view(ws)["role"] is None
        for _ in range(3):
            ws.send_text(PING)
            pong(ws)
        ws.send_text(PING)
        flooded(ws)


def test_a_large_message_costs_one_token_per_started_4_kib(make: Make) -> None:
    """Parsing is paid by size: a 16 KiB ping costs 5 tokens, so a burst of 8 allows one."""
    client = make(ws_messages_per_second=1, ws_message_burst=8)
    padded = json.dumps({"type": "ping", "padding": "x" * 16384})
    with client.websocket_connect("/ws/lobby") as ws:
        assert receive(ws)["type"] == "lobby"
        ws.send_text(padded)
        assert receive(ws) == {"type": "pong"}
        ws.send_text(PING)
        assert receive(ws) == {"type": "pong"}  # 2 tokens left
        ws.send_text(padded)
        flooded(ws)


def test_junk_costs_five_tokens(make: Make) -> None:
    """No honest client sends what is no message."""
    client = make(ws_messages_per_second=1, ws_message_burst=12)
    with client.websocket_connect("/ws/lobby") as ws:
        assert receive(ws)["type"] == "lobby"
        for _ in range(2):
            ws.send_text("junk")
            assert_error(receive(ws), "unknown_message")
        ws.send_text(PING)
        assert receive(ws) == {"type": "pong"}  # 1 token left
        ws.send_text("junk")
        assert_error(receive(ws), "unknown_message")  # the token it had, and 4 it has not
        ws.send_text(PING)
        flooded(ws)


def test_a_person_playing_fast_chatting_and_pinging_is_never_limited(
    make: Make, fake: FakeClock
) -> None:
    """The defaults (5 a second, bursts of 20) against the fastest honest use: a whole match
    played at four decisions a second, every fifth one double-clicked (the second is answered
    stale_version), a chat line and a ping every tenth, and 15 pings in one instant on top."""
    defaults = {f: Settings.model_fields[f].default for f in BUDGET}
    assert defaults == {"ws_messages_per_second": 5.0, "ws_message_burst": 20}
    client = make(**defaults)
    match_id, tokens = started(client)
    rng = random.Random(7)
    with (
        socket(client, match_id, tokens["editor"]) as ed,
        socket(client, match_id, tokens["nixon"]) as nx,
    ):
        seats = {"editor": ed, "nixon": nx}
        for ws in seats.values():
            receive_view(ws)
        for _ in range(15):  # in the same instant
            ed.send_text(PING)
            pong(ed)
        views = [http_view(client, match_id, tokens[role]) for role in ("editor", "nixon")]
        view = views[0] if views[0]["legal_actions"] else views[1]
        for moves in range(400):
            if view["status"] == "finished":
                break
            fake.advance(0.25)  # four decisions a second
            if moves % 10 == 0:
                # a new text each time: the same one again and again is refused (issue 43)
                ed.send_text(json.dumps({"type": "chat", "text": f"nice {moves}"}))
                nx.send_text(PING)
            seat = seats[view["role"]]
            action = rng.choice(view["legal_actions"])
            send_action(seat, action, view["version"])
            if moves % 5 == 0:
                send_action(seat, action, view["version"])  # a double click
            view = mover_view(seats, view["version"])
    assert view["status"] == "finished" or moves == 399
    assert limited_count(client) == 0


def mover_view(seats: dict[str, WebSocketTestSession], version: int) -> dict[str, Any]:
    """The newest view of the seat to decide after `version`, both seats' pushes read; pongs,
    chat lines and a double click's stale_version (match_over, on the last move) are passed over,
    any other error fails."""
    newest: dict[str, dict[str, Any]] = {}
    for role, ws in seats.items():
        while True:
            frame = receive(ws)
            if frame["type"] == "view" and frame["version"] > version:
                newest[role] = frame
                break
            if frame["type"] == "error":
                assert frame["code"] in ("stale_version", "match_over"), frame  # the last move
                continue
            assert frame["type"] in ("view", "pong", "chat"), frame
    deciding = [v for v in newest.values() if v["legal_actions"] or v["status"] == "finished"]
    return deciding[0] if deciding else newest["editor"]


def test_with_no_budget_a_socket_is_never_metered(make: Make) -> None:
    client = make(ws_messages_per_second=0, ws_message_burst=1)
    with client.websocket_connect("/ws/lobby") as ws:
        assert receive(ws)["type"] == "lobby"
        for _ in range(100):
            ws.send_text(PING)
            assert receive(ws) == {"type": "pong"}


def test_a_bell_socket_over_its_budget_is_closed_4429(make: Make) -> None:
    """The bell's socket (issue 43), once its player said who they are (a socket that does not
    is closed at its first message, metered by the socket connects' rate limit)."""
    client = make(ws_messages_per_second=1, ws_message_burst=4)
    token = client.post("/api/players", json={"name": "Ana"}).json()["player_token"]
    with client.websocket_connect("/ws/notifications") as ws:
        ws.send_text(json.dumps({"type": "auth", "player_token": token}))
        assert receive(ws) == {"type": "unread", "unread": 0}
        for _ in range(4):
            ws.send_text(PING)
            assert receive(ws) == {"type": "pong"}
        ws.send_text(PING)
        flooded(ws)
    assert limited_count(client) == 1


def test_a_tournament_socket_over_its_budget_is_closed_4429(make: Make) -> None:
    """A tournament page's socket (issue 46), watching or as an entrant, is metered alike."""
    client = make(ws_messages_per_second=1, ws_message_burst=4)
    made = client.post(
        "/api/tournaments",
        json={"name": "Flood cup", "starts_at": datetime.fromtimestamp(START, UTC).isoformat()},
        headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
    )
    with client.websocket_connect(f"/ws/tournaments/{made.json()['tournament_id']}") as ws:
        ws.send_text(json.dumps({"type": "watch"}))
        assert receive(ws)["type"] == "tournament"
        for _ in range(4):  # (the first message, who is watching, is read before the meter)
            ws.send_text(PING)
            assert receive(ws) == {"type": "pong"}
        ws.send_text(PING)
        flooded(ws)
    assert limited_count(client) == 1


def test_every_socket_kind_is_metered_here(make: Make) -> None:
    """The sockets these tests flood are every socket the app serves: a new kind (a tournament's
    or a bot's stream) reads its messages through app.http.sockets.Meter and is added above."""
    client = make()
    routes = flat_routes(client.app.routes)  # type: ignore[attr-defined]
    served = {r.path for r in routes if isinstance(r, WebSocketRoute)}
    assert served == {
        "/ws/matches/{match_id}", "/ws/watch/{match_id}", "/ws/lobby", "/ws/notifications",
        "/ws/tournaments/{tournament_id}",
    }  # fmt: skip
