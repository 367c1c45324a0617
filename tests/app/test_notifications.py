"""The bell (issue 43, contract v1.2 "Notifications"): a player's notifications listed newest
first in pages, marked read (by ids or all), bounded per player and pruned by age, pushed live
on WS /ws/notifications, the kinds a player gets by Web Push, and the lines the site writes
itself: `rematch` for the player a rematch is offered to, `your_turn` for a correspondence
match, one unread line per match. On SQLite and PostgreSQL; synchronised by blocking receives
with a deadline (tests.app.test_ws.receive), never by sleeping."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.persistence import notifications as repo
from app.persistence.models import utcnow
from app.persistence.people_tables import Notification
from app.services.context import AppContext
from engine.watergate.bots import RandomBot

from .test_players import Player, as_player, claim, create, new_player
from .test_turn_notices import decider, play_until
from .test_ws import receive

AUTH = "auth"


@pytest.fixture
def client(any_db_url: str, make_client: Callable[..., TestClient]) -> TestClient:
    return make_client(any_db_url)


def ctx_of(client: TestClient) -> AppContext:
    ctx: AppContext = client.app.state.ctx  # type: ignore[attr-defined]
    return ctx


def notify(client: TestClient, player: Player, kind: str = "challenge", **data: Any) -> int:
    """A line stored and announced as a producer does it."""
    made: int = client.portal.call(  # type: ignore[union-attr]
        ctx_of(client).notices.notify, player["player_id"], kind, data
    )
    return made


def listed(client: TestClient, player: Player, query: str = "") -> dict[str, Any]:
    response = client.get(f"/api/notifications{query}", headers=as_player(player))
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def read(client: TestClient, player: Player, body: dict[str, Any]) -> Any:
    return client.post("/api/notifications/read", json=body, headers=as_player(player))


def authed(ws: Any, player: Player) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": AUTH, "player_token": player["player_token"]}))
    return receive(ws)


# ---- the list ---------------------------------------------------------------------------------


def test_the_bell_lists_a_players_lines_newest_first_with_the_unread_count(
    client: TestClient,
) -> None:
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    assert listed(client, ana) == {"unread": 0, "items": [], "next_before": None}
    first = notify(client, ana, "challenge", name="Bea")
    second = notify(client, ana, "rematch", name="Bea", match_id="abc123", game="nations")
    notify(client, bea, "challenge", name="Ana")
    found = listed(client, ana)
    assert found["unread"] == 2
    assert [i["id"] for i in found["items"]] == [second, first]
    newest = found["items"][0]
    assert newest["kind"] == "rematch" and newest["read"] is False
    assert newest["data"] == {"name": "Bea", "match_id": "abc123", "game": "nations"}
    assert newest["url"] == "/nations/match/abc123"  # where clicking it leads
    assert found["items"][1]["url"] == "/people"
    assert listed(client, bea)["unread"] == 1  # each player sees only their own
    assert newest["name"] == "Bea"


def test_a_line_names_the_person_it_is_about_however_its_producer_put_it(
    client: TestClient,
) -> None:
    ana = new_player(client)
    notify(client, ana, "challenge", **{"from": {"player_id": "p1", "name": "Cy"}})
    notify(client, ana, "challenge_declined", by={"player_id": "p2", "name": "Di"}, match_id="m")
    notify(client, ana, "moderation")
    notify(client, ana, "tournament_paired", url="//evil.example/x")
    items = listed(client, ana)["items"]
    assert [(i["name"], i["url"]) for i in items] == [
        (None, "/"),  # another site's address is never a line's link
        (None, "/account"),
        ("Di", "/people"),
        ("Cy", "/people"),
    ]


def test_the_list_is_paged_by_before(client: TestClient) -> None:
    ana = new_player(client)
    ids = [notify(client, ana, "your_turn", match_id=f"m{i}") for i in range(25)]
    pages, query = [], "?limit=10"
    while True:
        found = listed(client, ana, query)
        pages.append([i["id"] for i in found["items"]])
        if found["next_before"] is None:
            break
        query = f"?limit=10&before={found['next_before']}"
    assert pages == [ids[::-1][:10], ids[::-1][10:20], ids[::-1][20:]]
    too_many = client.get("/api/notifications?limit=99", headers=as_player(ana))
    assert (too_many.status_code, too_many.json()["code"]) == (422, "invalid_request")
    huge = client.get(f"/api/notifications?before={2**64}", headers=as_player(ana))
    assert (huge.status_code, huge.json()["code"]) == (422, "invalid_request")


def test_unread_only_and_marking_read_by_ids_or_all(client: TestClient) -> None:
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    a1, a2, a3 = (notify(client, ana) for _ in range(3))
    theirs = notify(client, bea)
    answer = read(client, ana, {"ids": [a1, theirs]})  # another's id changes nothing, says nothing
    assert answer.status_code == 200 and answer.json() == {"unread": 2}
    assert listed(client, bea)["unread"] == 1
    assert [i["id"] for i in listed(client, ana, "?unread=1")["items"]] == [a3, a2]
    assert read(client, ana, {"all": True}).json() == {"unread": 0}
    assert listed(client, ana, "?unread=1")["items"] == []
    assert [i["read"] for i in listed(client, ana)["items"]] == [True, True, True]


BAD_READS = [
    {}, {"ids": [1], "all": True}, {"ids": "1"}, {"all": True, "x": 1}, {"ids": [0] * 201},
    {"ids": [2**64]}, {"ids": [-1]}, {"ids": [1.5]},
]  # fmt: skip


@pytest.mark.parametrize("body", BAD_READS)
def test_a_bad_read_body_is_refused_with_a_stable_code(client: TestClient, body: Any) -> None:
    ana = new_player(client)
    answer = read(client, ana, body)
    assert answer.status_code == 422, answer.text
    assert answer.json()["code"] in ("invalid_request", "validation_error")


def test_the_bell_needs_a_player(client: TestClient) -> None:
    for method, path, body in (
        ("GET", "/api/notifications", None),
        ("POST", "/api/notifications/read", {"all": True}),
        ("GET", "/api/notifications/push", None),
    ):
        for headers, code in (
            ({}, "player_required"),
            ({"X-Player-Token": "x" * 43}, "unknown_player"),
        ):
            answer = client.request(method, path, json=body, headers=headers)
            assert (answer.status_code, answer.json()["code"]) == (401, code)


# ---- bounds -----------------------------------------------------------------------------------


def test_a_player_keeps_at_most_200_lines_and_read_ones_go_after_30_days(
    client: TestClient,
) -> None:
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    ctx, now = ctx_of(client), utcnow()
    with ctx.db.write() as db:
        old = repo.add(db, ana["player_id"], "challenge", {}, now - timedelta(days=31))
        kept = repo.add(db, ana["player_id"], "challenge", {}, now - timedelta(days=31))
        repo.mark_read(db, ana["player_id"], [old], now - timedelta(days=31))
        repo.add(db, ana["player_id"], "challenge", {}, now)  # prunes the old read line
        assert db.get(Notification, old) is None
        assert db.get(Notification, kept) is not None  # unread: kept until the cap
        ids = [repo.add(db, ana["player_id"], "rematch", {}, now) for _ in range(205)]
        repo.add(db, bea["player_id"], "rematch", {}, now)
    found, query = [], ""
    while True:
        page = listed(client, ana, f"?limit=50{query}")
        found += [i["id"] for i in page["items"]]
        if page["next_before"] is None:
            break
        query = f"&before={page['next_before']}"
    assert len(found) == 200 and found == ids[::-1][:200]
    assert listed(client, bea)["unread"] == 1  # another player's lines are not counted


# ---- Web Push kinds ---------------------------------------------------------------------------


def test_a_player_chooses_the_kinds_that_also_come_by_web_push(client: TestClient) -> None:
    ana = new_player(client)
    url, head = "/api/notifications/push", as_player(ana)
    assert "challenge" in client.get(url, headers=head).json()["push"]  # by default every kind
    chosen = client.put(url, json={"push": ["rematch", "challenge"]}, headers=head)
    assert chosen.json() == {"push": ["challenge", "rematch"]}
    assert client.get(url, headers=head).json() == {"push": ["challenge", "rematch"]}
    assert client.put(url, json={"push": []}, headers=head).json() == {"push": []}
    refused = client.put(url, json={"push": ["spam"]}, headers=head)
    assert (refused.status_code, refused.json()["code"]) == (422, "invalid_kind")


# ---- the socket -------------------------------------------------------------------------------


def test_the_bell_socket_pushes_new_lines_and_counts(client: TestClient) -> None:
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    notify(client, ana)
    with (
        client.websocket_connect("/ws/notifications") as ws,
        client.websocket_connect("/ws/notifications") as other,
    ):
        assert authed(ws, ana) == {"type": "unread", "unread": 1}
        assert authed(other, bea) == {"type": "unread", "unread": 0}
        made = notify(client, ana, "rematch", name="Bea", match_id="m1")
        frame = receive(ws)
        assert frame["type"] == "notification" and frame["unread"] == 2
        assert frame["notification"]["id"] == made
        assert frame["notification"]["url"] == "/match/m1"
        assert read(client, ana, {"all": True}).json() == {"unread": 0}
        assert receive(ws) == {"type": "unread", "unread": 0}  # other tabs follow
        ws.send_text('{"type": "ping"}')
        assert receive(ws) == {"type": "pong"}
        other.send_text('{"type": "ping"}')  # Bea was told nothing of Ana's lines
        assert receive(other) == {"type": "pong"}


@pytest.mark.parametrize(
    ("first", "code", "closed"),
    [
        ('{"type": "ping"}', "unauthorized", 4401),
        ('{"type": "auth", "player_token": "' + "x" * 43 + '"}', "unknown_player", 4401),
        ("not json", "unauthorized", 4401),
    ],
)
def test_a_bell_socket_without_a_player_is_refused(
    client: TestClient, first: str, code: str, closed: int
) -> None:
    with client.websocket_connect("/ws/notifications") as ws:
        ws.send_text(first)
        frame = receive(ws)
        assert (frame["type"], frame["code"]) == ("error", code)
        with pytest.raises(WebSocketDisconnect) as gone:
            receive(ws)
        assert gone.value.code == closed


def test_the_bell_socket_answers_unknown_messages(client: TestClient) -> None:
    ana = new_player(client)
    with client.websocket_connect("/ws/notifications") as ws:
        authed(ws, ana)
        ws.send_text('{"type": "auth"}')
        assert receive(ws)["code"] == "unknown_message"


# ---- producers --------------------------------------------------------------------------------


def finished(client: TestClient, ana: Player, bea: Player, clock: str = "none") -> tuple[str, str]:
    """A match between Ana (editor) and Bea that Bea resigned: (match id, Ana's seat token)."""
    made = create(client, ana, clock=clock)
    bea_seat = claim(client, made, bea).json()["seat_token"]
    gone = client.post(
        f"/api/matches/{made['match_id']}/resign", headers={"Authorization": f"Bearer {bea_seat}"}
    )
    assert gone.status_code in (200, 204), gone.text
    return made["match_id"], made["seat_token"]


def test_a_rematch_offer_reaches_the_other_players_bell(client: TestClient) -> None:
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    match_id, ana_seat = finished(client, ana, bea)
    with client.websocket_connect("/ws/notifications") as ws:
        authed(ws, bea)
        offered = client.post(
            f"/api/matches/{match_id}/rematch", headers={"Authorization": f"Bearer {ana_seat}"}
        )
        assert offered.status_code in (200, 201, 204), offered.text
        while (frame := receive(ws))["type"] != "notification":
            pass
    line = frame["notification"]
    assert (line["kind"], line["data"]["name"], line["url"]) == (
        "rematch", "Ana", f"/match/{match_id}",
    )  # fmt: skip
    mine = [i["kind"] for i in listed(client, ana)["items"]]
    assert "rematch" not in mine  # not to the one who offered it


def test_a_correspondence_turn_is_one_unread_line_per_match(client: TestClient) -> None:
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    with (
        client.websocket_connect("/ws/notifications") as a,
        client.websocket_connect("/ws/notifications") as b,
    ):
        authed(a, ana), authed(b, bea)
        made = create(client, ana, clock="turn-1")
        claim(client, made, bea)  # the match starts: someone is to decide, at no table
        ws, frame = next(
            (ws, f) for ws in (a, b) if (f := receive(ws))["type"] == "notification"
        )  # the first decider's bell, within the deadline
    line = frame["notification"]
    assert line["kind"] == "your_turn" and line["data"]["match_id"] == made["match_id"]
    who = ana if ws is a else bea
    ctx = ctx_of(client)
    info = ctx.cache.info(made["match_id"])
    assert info is not None
    again = ctx.turn_lines._add(who["player_id"], info, "x")
    assert again is None  # still unread: no second line for the same match
    read(client, who, {"all": True})
    assert ctx.turn_lines._add(who["player_id"], info, "x") is not None


def test_a_player_deleting_itself_takes_its_bell_along(client: TestClient) -> None:
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    notify(client, ana, "rematch", name="Bea")
    notify(client, bea, "rematch", name="Ana")
    gone = client.request("DELETE", "/api/players/me", json={}, headers=as_player(ana))
    assert gone.status_code == 200, gone.text
    with ctx_of(client).db.reader() as db:
        assert repo.unread_count(db, ana["player_id"]) == 0
        assert repo.unread_count(db, bea["player_id"]) == 1


def test_a_your_turn_line_is_done_once_its_player_has_moved(client: TestClient) -> None:
    """The line of a turn that is over (its player moved, from any device) is marked read, so
    the bell does not keep counting a turn that was played; the next seat gets its own."""
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    made = create(client, ana, clock="turn-3")
    bea_seat = claim(client, made, bea).json()["seat_token"]
    tokens = {"editor": made["seat_token"], "nixon": bea_seat}
    who = {"editor": ana, "nixon": bea}
    first, _ = decider(client, made["match_id"], tokens)
    second = "nixon" if first == "editor" else "editor"
    with (
        client.websocket_connect("/ws/notifications") as on_first,
        client.websocket_connect("/ws/notifications") as on_second,
    ):
        assert authed(on_first, who[first])["type"] == "unread"
        authed(on_second, who[second])
        while listed(client, who[first])["unread"] == 0:  # the start's line, once written
            receive(on_first)
        play_until(client, made["match_id"], tokens, second, RandomBot(3))
        while (frame := receive(on_second))["type"] != "notification":
            pass
        assert frame["notification"]["kind"] == "your_turn"
        while receive(on_first) != {"type": "unread", "unread": 0}:
            pass  # the first seat's line is done: it moved
    assert [i["read"] for i in listed(client, who[first])["items"]] == [True]


def test_the_bell_s_calls_are_rate_limited(
    sqlite_url: str, make_client: Callable[..., TestClient]
) -> None:
    limited = make_client(sqlite_url, rate_limits="on", rate_limit_notifications="3/minute")
    ana = new_player(limited)
    head = as_player(ana)
    assert limited.get("/api/notifications", headers=head).status_code == 200
    assert limited.get("/api/notifications/push", headers=head).status_code == 200
    assert (
        limited.post("/api/notifications/read", json={"all": True}, headers=head).status_code == 200
    )
    over = limited.get("/api/notifications", headers=head)
    assert (over.status_code, over.json()["code"]) == (429, "rate_limited")
    assert int(over.headers["Retry-After"]) >= 1
    put = limited.put("/api/notifications/push", json={"push": []}, headers=head)
    assert put.status_code == 429
