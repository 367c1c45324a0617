"""Abandonment records and the bans they bring (issue 43, contract v1.2 "Sanctions"), on SQLite
and PostgreSQL, with a clock the test moves: a person who lets the clock run out in a live game
(not a correspondence one, not against the computer) gets a record in the transaction that ends
the match; the second within 24 hours bans the lobby, quick pairing and rated play for 10
minutes (`403 banned` with until, reason and scope; a `sanction` line on the player's bell at
once), each further one for twice as long, never more than 3 days; the reliability figure is
the finished share of the last 50 games."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.persistence.models import ChatMessage
from app.persistence.people_tables import Block, Follow, Report
from app.services.reliability import ban_length

from .accounts_helpers import rated_match, rows, sign_up
from .conftest import make_settings
from .test_clocks import FakeClock
from .test_lifecycle import act, age, post, serve, sweep, view
from .test_ws import receive

QUICK = {"game": "watergate", "clock": "none", "rated": False, "role": "random"}
PUBLIC = {"role": "editor", "opponent": "human", "visibility": "public", "clock": "none"}
LIVE_OUT = 16 * 60.0  # past a 15-minute bank


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock()


@pytest.fixture
def url(any_db_url: str) -> str:
    return any_db_url


@pytest.fixture
def client(url: str, fake: FakeClock) -> Iterator[TestClient]:
    with serve(url, fake) as c:
        yield c


def guest(c: TestClient, name: str) -> dict[str, str]:
    response = c.post("/api/players", json={"name": name})
    assert response.status_code == 201, response.text
    made: dict[str, str] = response.json()
    return made


def me(player: dict[str, str]) -> dict[str, str]:
    return {"X-Player-Token": player["player_token"]}


def match(
    c: TestClient, editor: dict[str, str], nixon: dict[str, str], clock: str = "realtime-15"
) -> tuple[str, dict[str, str]]:
    """An active match: `editor` made it (the Editor decides first, so its clock runs)."""
    body = {"role": "editor", "opponent": "human", "clock": clock}
    made = c.post("/api/matches", json=body, headers=me(editor))
    assert made.status_code == 201, made.text
    seat = made.json()
    code = seat["invite_url"].rsplit("/invite/", 1)[1]
    claimed = c.post(f"/api/invites/{code}/claim", headers=me(nixon))
    assert claimed.status_code == 200, claimed.text
    return seat["match_id"], {"editor": seat["seat_token"], "nixon": claimed.json()["seat_token"]}


def time_out(c: TestClient, fake: FakeClock, editor: dict[str, str], nixon: dict[str, str]) -> str:
    """`editor` lets a live 15-minute clock run out; the sweep ends the match."""
    match_id, _ = match(c, editor, nixon)
    fake.advance(LIVE_OUT)
    assert match_id in sweep(c)
    return match_id


def bell(c: TestClient, player: dict[str, str]) -> list[dict[str, Any]]:
    found = c.get("/api/notifications", headers=me(player))
    assert found.status_code == 200, found.text
    items: list[dict[str, Any]] = found.json()["items"]
    return items


def bell_socket(ws: Any, player: dict[str, str]) -> dict[str, Any]:
    """The bell socket authenticated as `player`: its first frame (the unread count)."""
    ws.send_text(json.dumps({"type": "auth", "player_token": player["player_token"]}))
    return receive(ws)


def records(url: str, player: dict[str, str]) -> list[Any]:
    sql = "select match_id, reason from abandonments where player = :p order by id"
    return rows(url, sql, p=player["player_id"])


def refused_banned(response: Any, scope: str) -> dict[str, Any]:
    assert response.status_code == 403, response.text
    body: dict[str, Any] = response.json()
    assert body["code"] == "banned" and body["scope"] == scope, body
    assert body["reason"] and body["until"]
    return body


def ends_at(body: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(body["until"]).astimezone(UTC)


def now(fake: FakeClock) -> datetime:
    return datetime.fromtimestamp(fake.now(), UTC)


def test_a_live_time_out_is_recorded_and_a_correspondence_one_is_not(
    client: TestClient, fake: FakeClock, url: str
) -> None:
    ana, bea = guest(client, "Ana"), guest(client, "Bea")
    live = time_out(client, fake, ana, bea)
    assert records(url, ana) == [(live, "clock")]
    assert records(url, bea) == []  # the one who waited is not on record
    slow, _ = match(client, ana, bea, "turn-1")  # correspondence: a missed day is no abandonment
    fake.advance(2 * 86_400.0)
    assert slow in sweep(client)
    assert records(url, ana) == [(live, "clock")]


def test_a_time_out_against_the_computer_or_in_a_guest_seat_is_not_recorded(
    client: TestClient, fake: FakeClock, url: str
) -> None:
    ana = guest(client, "Ana")
    body = {"role": "editor", "opponent": "bot", "clock": "realtime-15"}
    made = client.post("/api/matches", json=body, headers=me(ana))
    assert made.status_code == 201, made.text
    anonymous = client.post("/api/matches", json={**body, "opponent": "human"})  # no player
    code = anonymous.json()["invite_url"].rsplit("/invite/", 1)[1]
    assert client.post(f"/api/invites/{code}/claim", headers=me(ana)).status_code == 200
    fake.advance(LIVE_OUT)
    ended = sweep(client)
    assert made.json()["match_id"] in ended and anonymous.json()["match_id"] in ended
    assert rows(url, "select count(*) from abandonments") == [(0,)]


def test_the_second_record_within_a_day_bans_lobby_pairing_and_rated_for_ten_minutes(
    client: TestClient, fake: FakeClock, url: str
) -> None:
    ana, bea = guest(client, "Ana"), guest(client, "Bea")
    time_out(client, fake, ana, bea)
    time_out(client, fake, ana, bea)
    banned_at = now(fake)
    body = refused_banned(client.post("/api/lobby/quick", json=QUICK, headers=me(ana)), "pairing")
    assert ends_at(body) == banned_at + timedelta(minutes=10)
    assert "24 hours" in body["reason"]
    refused_banned(client.post("/api/matches", json=PUBLIC, headers=me(ana)), "lobby")
    opened = client.post("/api/matches", json=PUBLIC, headers=me(bea))
    join = client.post(f"/api/lobby/{opened.json()['match_id']}/join", headers=me(ana))
    refused_banned(join, "lobby")
    # a friend's invite, unrated, is still open to the banned player
    match(client, ana, bea, "none")
    mine = client.get("/api/players/me/sanctions", headers=me(ana))
    assert mine.status_code == 200, mine.text
    running = mine.json()["sanctions"]
    assert {s["scope"] for s in running} == {"lobby", "pairing", "rated"}
    assert {s["source"] for s in running} == {"abandonment"}
    fake.advance(10 * 60.0)  # the ban is over
    assert client.get("/api/players/me/sanctions", headers=me(ana)).json()["sanctions"] == []
    assert client.post("/api/lobby/quick", json=QUICK, headers=me(ana)).status_code == 200


def test_a_ban_from_leaving_games_is_on_the_players_bell_at_once_and_on_nobody_elses(
    client: TestClient, fake: FakeClock
) -> None:
    ana, bea = guest(client, "Ana"), guest(client, "Bea")
    time_out(client, fake, ana, bea)
    assert bell(client, ana) == []  # one record: no ban, nothing to say
    with (
        client.websocket_connect("/ws/notifications") as mine,
        client.websocket_connect("/ws/notifications") as theirs,
    ):
        assert bell_socket(mine, ana) == {"type": "unread", "unread": 0}
        assert bell_socket(theirs, bea) == {"type": "unread", "unread": 0}
        time_out(client, fake, ana, bea)  # the second record bans, in the sweep's transaction
        until = (now(fake) + timedelta(minutes=10)).isoformat()
        frame = receive(mine)  # published once committed: the open bell shows it at once
        assert frame["type"] == "notification" and frame["unread"] == 1
        line = frame["notification"]
        assert line["kind"] == "sanction" and line["url"] == "/account"
        assert line["data"] == {"scopes": ["lobby", "pairing", "rated"], "until": until}
        assert line["name"] is None  # whoever waited at those tables is not named
        theirs.send_text('{"type": "ping"}')  # the other player was told nothing
        assert receive(theirs) == {"type": "pong"}
    assert [n["data"] for n in bell(client, ana)] == [line["data"]]
    assert bell(client, bea) == []


def test_a_ban_found_by_the_late_players_own_move_is_on_their_bell_at_once(
    client: TestClient, fake: FakeClock
) -> None:
    ana, bea = guest(client, "Ana"), guest(client, "Bea")
    time_out(client, fake, ana, bea)
    match_id, tokens = match(client, ana, bea)
    fake.advance(LIVE_OUT)  # no sweep: Ana's own move finds her time gone
    late = view(client, match_id, tokens["editor"])["legal_actions"][0]
    with client.websocket_connect("/ws/notifications") as mine:
        assert bell_socket(mine, ana) == {"type": "unread", "unread": 0}
        refused = act(client, match_id, tokens["editor"], late)
        assert refused.status_code == 422 and refused.json()["code"] == "match_over"
        frame = receive(mine)
        assert frame["type"] == "notification" and frame["notification"]["kind"] == "sanction"
        assert frame["notification"]["data"]["scopes"] == ["lobby", "pairing", "rated"]


def test_records_further_apart_than_a_day_bring_no_ban(
    client: TestClient, fake: FakeClock, url: str
) -> None:
    ana, bea = guest(client, "Ana"), guest(client, "Bea")
    time_out(client, fake, ana, bea)
    fake.advance(24 * 3600.0)
    time_out(client, fake, ana, bea)
    assert len(records(url, ana)) == 2
    assert client.post("/api/lobby/quick", json=QUICK, headers=me(ana)).status_code == 200


def test_each_further_record_within_the_day_doubles_the_ban(
    client: TestClient, fake: FakeClock, url: str
) -> None:
    ana, bea = guest(client, "Ana"), guest(client, "Bea")
    for _ in range(3):
        time_out(client, fake, ana, bea)
    body = refused_banned(client.post("/api/lobby/quick", json=QUICK, headers=me(ana)), "pairing")
    assert ends_at(body) == now(fake) + timedelta(minutes=20)
    time_out(client, fake, ana, bea)
    body = refused_banned(client.post("/api/lobby/quick", json=QUICK, headers=me(ana)), "pairing")
    assert ends_at(body) == now(fake) + timedelta(minutes=40)


def test_ban_lengths_double_from_ten_minutes_and_stop_at_three_days() -> None:
    assert ban_length(0) is None and ban_length(1) is None
    assert [ban_length(n) for n in (2, 3, 4, 5)] == [timedelta(minutes=m) for m in (10, 20, 40, 80)]
    assert ban_length(10) == timedelta(minutes=10 * 256)  # under three days (4,320 minutes)
    assert ban_length(11) == timedelta(days=3) and ban_length(500) == timedelta(days=3)


def test_a_ban_refuses_rated_play_but_not_an_unrated_friend_match(
    client: TestClient, fake: FakeClock
) -> None:
    ana, bea = sign_up(client, "ana_rel"), sign_up(client, "bea_rel")
    earlier, tokens = rated_match(client, ana, bea)
    assert post(client, earlier, "resign", tokens["nixon"]).status_code == 200
    time_out(client, fake, ana, bea)
    time_out(client, fake, ana, bea)
    refused_banned(post(client, earlier, "rematch", tokens["editor"]), "rated")
    assert post(client, earlier, "rematch", tokens["nixon"]).status_code == 200
    refused_banned(post(client, earlier, "rematch/accept", tokens["editor"]), "rated")
    rated = {"role": "editor", "opponent": "human", "rated": True}
    refused_banned(client.post("/api/matches", json=rated, headers=me(ana)), "rated")
    offered = client.post("/api/matches", json=rated, headers=me(bea))
    assert offered.status_code == 201, offered.text
    code = offered.json()["invite_url"].rsplit("/invite/", 1)[1]
    refused_banned(client.post(f"/api/invites/{code}/claim", headers=me(ana)), "rated")
    quick = client.post("/api/lobby/quick", json={**QUICK, "rated": True}, headers=me(ana))
    refused_banned(quick, "pairing")
    match(client, ana, bea, "none")  # unrated, by invite: fine


def test_a_rated_rematch_offered_before_a_ban_is_played_unrated(
    client: TestClient, fake: FakeClock
) -> None:
    """The offer was made before the ban and accepted after it: the rematch starts (the other
    player did nothing wrong) but rates nobody, as every rated seat refuses a banned player."""
    ana, bea = sign_up(client, "ana_offer"), sign_up(client, "bea_offer")
    earlier, tokens = rated_match(client, ana, bea)
    assert post(client, earlier, "resign", tokens["nixon"]).status_code == 200
    assert post(client, earlier, "rematch", tokens["editor"]).status_code == 200  # ana offers
    time_out(client, fake, ana, bea)
    time_out(client, fake, ana, bea)  # ana is banned from rated play now
    accepted = post(client, earlier, "rematch/accept", tokens["nixon"])
    assert accepted.status_code == 200, accepted.text
    new = accepted.json()
    assert new["status"] == "started"
    seen = view(client, new["match_id"], new["seat_token"])
    assert seen["rated"] is False


def test_a_ban_refuses_rated_direct_challenges_both_ways(
    client: TestClient, fake: FakeClock
) -> None:
    ana, bea = sign_up(client, "ana_direct"), sign_up(client, "bea_direct")
    time_out(client, fake, ana, bea)
    time_out(client, fake, ana, bea)  # ana is banned from rated play
    rated = {"to": bea["player_id"], "game": "watergate", "rated": True}
    refused_banned(client.post("/api/challenges", json=rated, headers=me(ana)), "rated")
    theirs = {"to": ana["player_id"], "game": "watergate", "rated": True}
    made = client.post("/api/challenges", json=theirs, headers=me(bea))
    assert made.status_code == 201, made.text
    accept = f"/api/challenges/{made.json()['challenge_id']}/accept"
    refused_banned(client.post(accept, headers=me(ana)), "rated")
    casual = {**rated, "rated": False}
    assert client.post("/api/challenges", json=casual, headers=me(ana)).status_code == 201


def test_an_abandoned_duel_puts_the_seat_that_was_to_decide_on_record(
    url: str, make_client: Any
) -> None:
    with serve(url) as c:  # the wall clock: the 30-day rule reads the stored last activity
        ana, bea = guest(c, "Ana"), guest(c, "Bea")
        match_id, _ = match(c, ana, bea, "none")
        age(c, match_id, 31)
        assert sweep(c) == [match_id]
        assert records(url, ana) == [(match_id, "abandoned")]  # the Editor was to decide
        assert records(url, bea) == []


def test_the_reliability_figure_is_the_finished_share_of_the_last_games(
    client: TestClient, fake: FakeClock, url: str
) -> None:
    ana, bea = guest(client, "Ana"), guest(client, "Bea")
    for _ in range(3):
        match_id, tokens = match(client, ana, bea, "none")
        assert post(client, match_id, "resign", tokens["nixon"]).status_code == 200
    time_out(client, fake, ana, bea)
    profile = client.get(f"/api/players/{ana['player_id']}").json()
    assert "reliability" not in profile  # four games: too few for a figure
    match_id, tokens = match(client, ana, bea, "none")
    assert post(client, match_id, "resign", tokens["editor"]).status_code == 200  # resigning
    assert client.get(f"/api/players/{ana['player_id']}").json()["reliability"] == 80
    assert client.get(f"/api/players/{bea['player_id']}").json()["reliability"] == 100
    opened = client.post("/api/matches", json=PUBLIC, headers=me(ana))
    assert opened.status_code == 201, opened.text
    listed = client.get("/api/lobby").json()["challenges"]
    assert [c["creator"]["reliability"] for c in listed] == [80]
    newcomer = guest(client, "Cid")
    client.post("/api/matches", json=PUBLIC, headers=me(newcomer))
    figures = {c["creator"]["name"]: c["creator"]["reliability"] for c in client.get(
        "/api/lobby").json()["challenges"]}  # fmt: skip
    assert figures == {"Ana": 80, "Cid": None}


def test_the_sanctions_of_an_unknown_player_are_refused(client: TestClient) -> None:
    for headers in ({}, {"X-Player-Token": "nobody-" + "x" * 30}):
        response = client.get("/api/players/me/sanctions", headers=headers)
        assert response.status_code == 401 and response.json()["code"] == "unknown_player"


# ---- the privacy export -------------------------------------------------------------------------


def seed_people(c: TestClient, ana: dict[str, str], bea: dict[str, str], match_id: str) -> None:
    """Rows other lanes' endpoints make, written as they store them: both ways, so the export
    can be seen to hold only Ana's side."""
    when = datetime(2030, 1, 1, tzinfo=UTC)
    a, b = ana["player_id"], bea["player_id"]
    with c.app.state.ctx.db.write() as db:  # type: ignore[attr-defined]
        db.add_all(
            [
                Follow(follower=a, followee=b, created_at=when),
                Follow(follower=b, followee=a, created_at=when),
                Block(blocker=a, blocked=b, created_at=when),
                Report(reporter=a, player=b, reason="abuse", text="rude", created_at=when),
                Report(reporter=b, player=a, reason="name", text="ABOUT-ANA", created_at=when),
                Report(reporter=None, player=a, reason="abuse", created_at=when),
                ChatMessage(match_id=match_id, role="editor", name="Ana", text="good luck",
                            player=a, created_at=when),
                ChatMessage(match_id=match_id, role="nixon", name="Bea", text="BEA-LINE",
                            player=b, created_at=when),
            ]
        )  # fmt: skip


def test_the_export_holds_the_players_own_data_and_nothing_filed_about_them(
    client: TestClient, fake: FakeClock
) -> None:
    ana, bea = guest(client, "Ana"), guest(client, "Bea")
    live = time_out(client, fake, ana, bea)
    calm, _ = match(client, ana, bea, "none")
    seed_people(client, ana, bea, calm)
    response = client.get("/api/players/me/export", headers=me(ana))
    assert response.status_code == 200, response.text
    assert response.headers["content-disposition"].startswith("attachment;")
    assert response.headers["cache-control"] == "no-store"
    data = response.json()
    assert data["profile"]["player_id"] == ana["player_id"] and data["profile"]["name"] == "Ana"
    assert {g["match_id"] for g in data["games"]} == {live, calm}
    assert [line["text"] for line in data["chat"]] == ["good luck"]
    assert [f["player_id"] for f in data["following"]] == [bea["player_id"]]
    assert [b["player_id"] for b in data["blocks"]] == [bea["player_id"]]
    assert [(r["player_id"], r["text"]) for r in data["reports_filed"]] == [
        (bea["player_id"], "rude")
    ]
    assert [(r["match_id"], r["reason"]) for r in data["abandonments"]] == [(live, "clock")]
    assert data["truncated"] == []
    text = response.text
    assert "ABOUT-ANA" not in text and "BEA-LINE" not in text  # nothing about Ana by others
    theirs = client.get("/api/players/me/export", headers=me(bea)).json()
    assert theirs["blocks"] == [] and [f["player_id"] for f in theirs["following"]] == [
        ana["player_id"]
    ]  # Bea's export does not say Ana blocked her
    assert "rude" not in client.get("/api/players/me/export", headers=me(bea)).text


def test_the_export_needs_a_known_player_and_is_rate_limited(url: str, fake: FakeClock) -> None:
    with serve(url, fake) as c:
        for headers in ({}, {"X-Player-Token": "nobody-" + "x" * 30}):
            response = c.get("/api/players/me/export", headers=headers)
            assert response.status_code == 401 and response.json()["code"] == "unknown_player"
    settings = make_settings(url, rate_limits="on", rate_limit_replay="2/minute")
    with TestClient(create_app(settings, clock=fake)) as limited:
        ana = guest(limited, "Ana")
        codes = [limited.get("/api/players/me/export", headers=me(ana)).status_code for _ in "abc"]
        assert codes == [200, 200, 429]


def test_a_table_seat_out_of_time_is_recorded_and_the_others_play_on(
    client: TestClient, fake: FakeClock, url: str
) -> None:
    people = [guest(client, n) for n in ("Ana", "Bea", "Cid")]
    body = {"game": "nations", "role": "p1", "players": 3, "clock": "realtime-15"}
    made = client.post("/api/matches", json=body, headers=me(people[0])).json()
    tokens, owner = {"p1": made["seat_token"]}, {"p1": people[0]}
    for person, (seat, link) in zip(people[1:], made["invites"].items(), strict=True):
        code = link.rsplit("/invite/", 1)[1]
        tokens[seat] = client.post(f"/api/invites/{code}/claim", headers=me(person)).json()[
            "seat_token"
        ]
        owner[seat] = person
    late = view(client, made["match_id"], tokens["p1"])["state"]["decision"]["seat"]
    fake.advance(LIVE_OUT)
    assert made["match_id"] in sweep(client)
    assert records(url, owner[late]) == [(made["match_id"], "clock")]
    assert all(records(url, owner[s]) == [] for s in owner if s != late)
