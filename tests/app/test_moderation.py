"""Reports and moderation (issue 43, contract v1.2 "People"): a player reports another (abuse also
blocks; bad input and a per-day cap refused with stable codes) and sees only their reports'
status; moderators (flagged by the admin token) and the admin read the queue (the most reported
first, with the chat around a reported line and the player's history) and act: every action
recorded with who, when and why, mutes and bans imposed as sanctions and lifted, reporters told
`report_outcome`, the player `moderation`, and a ban or a mute that begins a `sanction` line on
the player's bell (what it closes, until when; nobody named); a warning waits for the player's
acknowledgement. On SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.persistence.notifications import Line
from app.services import reports as reports_service
from app.services.notices import push_text
from app.services.sanctions import SCOPES

from .accounts_helpers import rows, sign_up
from .conftest import ADMIN_TOKEN, make_settings
from .test_chat import duel, next_chat, say
from .test_clocks import START, FakeClock
from .test_lifecycle import seat_socket
from .test_players import as_player, new_player

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def client(any_db_url: str, fake: FakeClock) -> Iterator[TestClient]:
    settings = make_settings(any_db_url, sweep_seconds=1e6)
    with TestClient(create_app(settings, clock=fake)) as c:
        yield c


def report(client: TestClient, who: dict[str, str], **body: Any) -> Any:
    return client.post("/api/reports", json=body, headers=as_player(who))


def moderator(client: TestClient, username: str = "modmary") -> dict[str, str]:
    made = sign_up(client, username)
    granted = client.put(f"/api/mod/moderators/{made['player_id']}", headers=ADMIN)
    assert granted.status_code == 204, granted.text
    return made


def test_reports_are_checked_capped_and_abuse_blocks(
    client: TestClient, any_db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    bea_id = bea["player_id"]
    made = report(client, ana, player_id=bea_id, reason="abuse", text="  rude  ")
    assert made.status_code == 201 and made.json()["report_id"] >= 1
    blocked = rows(any_db_url, "SELECT blocker, blocked FROM blocks")
    assert blocked == [(ana["player_id"], bea_id)]
    assert report(client, ana, player_id=bea_id, reason="name").status_code == 201
    assert rows(any_db_url, "SELECT count(*) FROM blocks") == [(1,)]  # only abuse blocks
    refused = {
        "bad reason": (report(client, ana, player_id=bea_id, reason="ugly"), 422),
        "long text": (report(client, ana, player_id=bea_id, reason="other", text="x" * 501), 422),
        "oneself": (report(client, ana, player_id=ana["player_id"], reason="other"), 422),
        "nobody": (report(client, ana, player_id="nobody", reason="other"), 404),
        "no token": (client.post("/api/reports", json={"player_id": bea_id}), 422),
        "bad match": (report(client, ana, player_id=bea_id, reason="other", match_id="x"), 404),
        "bad line": (report(client, ana, player_id=bea_id, reason="other", chat_id=99), 422),
    }  # fmt: skip
    for what, (answer, status) in refused.items():
        assert answer.status_code == status, (what, answer.text)
        assert answer.json()["code"], what
    anonymous = client.post("/api/reports", json={"player_id": bea_id, "reason": "name"})
    assert (anonymous.status_code, anonymous.json()["code"]) == (401, "unknown_player")
    monkeypatch.setattr(reports_service, "REPORTS_A_DAY", 3)
    assert report(client, ana, player_id=bea_id, reason="other").status_code == 201
    over = report(client, ana, player_id=bea_id, reason="other")
    assert (over.status_code, over.json()["code"]) == (429, "too_many_reports")
    mine = client.get("/api/reports/mine", headers=as_player(ana)).json()["reports"]
    assert [r["reason"] for r in mine] == ["other", "name", "abuse"]
    assert set(mine[0]) == {
        "report_id", "player_id", "reason", "status", "outcome", "at", "resolved_at",
    }  # fmt: skip
    assert client.get("/api/reports/mine", headers=as_player(bea)).json() == {"reports": []}


def test_only_moderators_and_the_admin_moderate(client: TestClient) -> None:
    ana = new_player(client, "Ana")
    assert client.get("/api/mod/reports", headers=as_player(ana)).json()["code"] == "not_moderator"
    assert client.get("/api/mod/reports").status_code == 401
    assert client.get("/api/mod/reports", headers=ADMIN).json() == {"items": []}
    guest_flag = client.put(f"/api/mod/moderators/{ana['player_id']}", headers=ADMIN)
    assert (guest_flag.status_code, guest_flag.json()["code"]) == (422, "not_an_account")
    mary = moderator(client)
    assert (
        client.put(f"/api/mod/moderators/{mary['player_id']}", headers=as_player(mary)).status_code
        == 401
    )
    assert client.get("/api/mod/reports", headers=as_player(mary)).status_code == 200
    assert client.get("/api/players/me/moderation", headers=as_player(mary)).json()["moderator"]
    assert (
        client.delete(f"/api/mod/moderators/{mary['player_id']}", headers=ADMIN).status_code == 204
    )
    assert client.get("/api/mod/reports", headers=as_player(mary)).status_code == 403


def test_the_queue_shows_the_most_reported_with_chat_context_and_history(
    client: TestClient, fake: FakeClock
) -> None:
    ana, bea, cid = new_player(client, "Ana"), new_player(client, "Bea"), new_player(client, "Cid")
    match_id, tokens = duel(client, ana, bea)
    with seat_socket(client, match_id, tokens["nixon"]) as nx:
        for text in ("hi", "you are bad at this", "bye"):
            say(nx, text)
            line = next_chat(nx)
            fake.advance(3)
            if text.startswith("you"):
                rude = line["id"]
    # a stranger naming a line of a table they never sat at learns nothing of it (whose it is)
    stranger = report(client, cid, player_id=bea["player_id"], reason="abuse", chat_id=rude)
    assert (stranger.status_code, stranger.json()["code"]) == (422, "invalid_report")
    assert (
        report(client, ana, player_id=bea["player_id"], reason="abuse", chat_id=rude).status_code
        == 201
    )
    assert report(client, cid, player_id=bea["player_id"], reason="name").status_code == 201
    fake.advance(60)
    assert report(client, bea, player_id=cid["player_id"], reason="stalling").status_code == 201
    items = client.get("/api/mod/reports", headers=ADMIN).json()["items"]
    assert [(i["name"], i["open_reports"]) for i in items] == [("Bea", 2), ("Cid", 1)]
    newest = client.get("/api/mod/reports?sort=newest", headers=ADMIN).json()["items"]
    assert [i["name"] for i in newest] == ["Cid", "Bea"]
    chat = next(r for r in items[0]["reports"] if r["chat_id"] == rude)["chat"]
    assert [(c["text"], c["reported"]) for c in chat] == [
        ("hi", False), ("you are bad at this", True), ("bye", False),
    ]  # fmt: skip
    assert items[0]["history"]["actions"] == [] and len(items[0]["history"]["reports"]) == 2
    assert client.get("/api/mod/reports?limit=0", headers=ADMIN).status_code == 422


def test_actions_are_recorded_notified_and_mute_until_lifted(
    client: TestClient, fake: FakeClock, any_db_url: str
) -> None:
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    mary = moderator(client)
    match_id, tokens = duel(client, ana, bea)
    filed = report(client, ana, player_id=bea["player_id"], reason="name").json()["report_id"]
    act = {"player_id": bea["player_id"], "reason": "Rude in chat", "report_ids": [filed]}
    muted = client.post(
        "/api/mod/actions", json={**act, "action": "mute", "minutes": 30}, headers=as_player(mary)
    )
    assert muted.status_code == 201, muted.text
    with seat_socket(client, match_id, tokens["nixon"]) as nx:
        say(nx, "let me talk")
        refused = next_chat(nx)
        assert (refused["code"], refused["reason"], refused["scope"]) == (
            "muted",
            "Rude in chat",
            "chat",
        )
    standing = client.get("/api/players/me/moderation", headers=as_player(bea)).json()
    assert [(s["scope"], s["reason"]) for s in standing["sanctions"]] == [("chat", "Rude in chat")]
    mine = client.get("/api/reports/mine", headers=as_player(ana)).json()["reports"]
    assert (mine[0]["status"], mine[0]["outcome"]) == ("closed", "actioned")
    told = rows(
        any_db_url, "SELECT player, kind FROM notifications WHERE kind != 'your_turn' ORDER BY id"
    )
    assert told == [
        (ana["player_id"], "report_outcome"),
        (bea["player_id"], "moderation"),
        (bea["player_id"], "sanction"),  # the bell's own line: chat closed until then
    ]
    lifted = client.post(
        "/api/mod/actions", json={**act, "action": "lift", "scope": "chat", "report_ids": []},
        headers=ADMIN,
    )  # fmt: skip
    assert lifted.status_code == 201
    with seat_socket(client, match_id, tokens["nixon"]) as nx:
        say(nx, "thanks")
        assert next_chat(nx)["text"] == "thanks"
    history = client.get(f"/api/mod/players/{bea['player_id']}", headers=ADMIN).json()
    assert [(a["action"], a["by"]) for a in history["actions"]] == [
        ("lift", "admin"), ("mute", mary["player_id"]),
    ]  # fmt: skip
    assert history["actions"][1]["report_ids"] == [filed] and history["sanctions"] == []
    bad = {
        "no minutes": {**act, "action": "mute"},
        "bad scope": {**act, "action": "ban", "minutes": 5, "scope": "moon"},
        "no reason": {**act, "action": "warn", "reason": ""},
        "unknown": {**act, "action": "explode"},
    }
    for what, body in bad.items():
        answer = client.post("/api/mod/actions", json=body, headers=ADMIN)
        assert answer.status_code == 422, what
    gone = client.post(
        "/api/mod/actions", json={**act, "action": "warn", "player_id": "x"}, headers=ADMIN
    )
    assert gone.status_code == 404


def test_a_warning_waits_for_its_acknowledgement_and_bans_and_names(
    client: TestClient, any_db_url: str
) -> None:
    bea = new_player(client, "Bea")
    base = {"player_id": bea["player_id"], "reason": "Be kind"}
    warned = client.post("/api/mod/actions", json={**base, "action": "warn"}, headers=ADMIN)
    action_id = warned.json()["action_id"]
    standing = client.get("/api/players/me/moderation", headers=as_player(bea)).json()
    assert [(w["action_id"], w["reason"]) for w in standing["warnings"]] == [(action_id, "Be kind")]
    assert "by" not in standing["warnings"][0]  # which moderator it was stays theirs
    ack = f"/api/players/me/moderation/{action_id}/ack"
    assert client.post(ack, headers=as_player(bea)).status_code == 204
    assert client.post(ack, headers=as_player(bea)).status_code == 404
    assert client.get("/api/players/me/moderation", headers=as_player(bea)).json()["warnings"] == []
    banned = client.post(
        "/api/mod/actions", json={**base, "action": "ban", "scope": "lobby", "minutes": 60},
        headers=ADMIN,
    )  # fmt: skip
    assert banned.status_code == 201
    scopes = client.get("/api/players/me/moderation", headers=as_player(bea)).json()["sanctions"]
    assert [s["scope"] for s in scopes] == ["lobby"]
    reset = client.post("/api/mod/actions", json={**base, "action": "reset_name"}, headers=ADMIN)
    assert reset.status_code == 201
    name = client.get(f"/api/players/{bea['player_id']}").json()["name"]
    assert name.startswith("Player ") and name != "Bea"


def bell(client: TestClient, who: dict[str, str]) -> list[dict[str, Any]]:
    found = client.get("/api/notifications", headers=as_player(who))
    assert found.status_code == 200, found.text
    items: list[dict[str, Any]] = found.json()["items"]
    return items


def test_a_ban_that_begins_tells_the_player_what_it_closes_and_until_when_and_nobody_else(
    client: TestClient,
) -> None:
    ana, bea, cid = new_player(client, "Ana"), new_player(client, "Bea"), new_player(client, "Cid")
    mary = moderator(client)
    filed = report(client, ana, player_id=bea["player_id"], reason="stalling").json()["report_id"]
    act = {
        "player_id": bea["player_id"], "action": "ban", "scope": "tournaments", "minutes": 90,
        "reason": "Ana says Bea stalls every game", "report_ids": [filed],
    }  # fmt: skip
    banned = client.post("/api/mod/actions", json=act, headers=as_player(mary))
    assert banned.status_code == 201, banned.text
    start = datetime.fromtimestamp(START, UTC)  # the fake clock has not moved
    until = (start + timedelta(minutes=90)).isoformat()
    lines = [line for line in bell(client, bea) if line["kind"] == "sanction"]
    assert len(lines) == 1
    line = lines[0]
    assert line["data"] == {"scopes": ["tournaments"], "until": until}
    assert line["name"] is None and line["url"] == "/account" and line["read"] is False
    said = json.dumps(line)  # neither who reported nor who banned, nor the words naming them
    for secret in (ana["player_id"], "Ana", mary["player_id"], "modmary", "stalls"):
        assert secret not in said, secret
    # the reporter hears only that the report was reviewed; nobody else hears anything
    assert [n["kind"] for n in bell(client, ana)] == ["report_outcome"]
    assert bell(client, cid) == [] and bell(client, mary) == []

    # every scope at once is one line; a mute is a line too, its scope chat
    everything = {**act, "scope": "all", "minutes": 10, "report_ids": []}
    assert client.post("/api/mod/actions", json=everything, headers=ADMIN).status_code == 201
    muted = {**act, "action": "mute", "minutes": 5, "report_ids": []}
    del muted["scope"]
    assert client.post("/api/mod/actions", json=muted, headers=ADMIN).status_code == 201
    newest = [line["data"] for line in bell(client, bea) if line["kind"] == "sanction"]
    assert newest[:2] == [
        {"scopes": ["chat"], "until": (start + timedelta(minutes=5)).isoformat()},
        {"scopes": [*SCOPES], "until": (start + timedelta(minutes=10)).isoformat()},
    ]
    # a warning, a lift or a dismissal begins nothing
    for quiet in ({"action": "warn"}, {"action": "lift", "scope": "all"}, {"action": "dismiss"}):
        body = {"player_id": bea["player_id"], "reason": "noted", **quiet}
        assert client.post("/api/mod/actions", json=body, headers=ADMIN).status_code == 201
    assert sum(line["kind"] == "sanction" for line in bell(client, bea)) == 3


def test_a_sanctions_push_notice_says_what_and_until_when_in_each_language() -> None:
    line = Line(
        7, "sanction", {"scopes": ["lobby", "rated"], "until": "2026-12-07T20:30:00+00:00"},
        datetime.fromtimestamp(START, UTC), False,
    )  # fmt: skip
    assert (
        push_text("en", line) == "Closed to you until 2026-12-07 20:30 UTC: the lobby, rated games"
    )
    assert push_text("de", line).startswith("Bis 2026-12-07 20:30 UTC für dich gesperrt: die Lobby")
    assert "o lobby" in push_text("pt-BR", line)
