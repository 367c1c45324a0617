"""Table chat (contract v1.1, "Chat"): a seat's line reaches both seats and the spectators as a
chat frame, is stored with the match (views carry the last 100), at most 5 lines per 10 s per
seat (else an error frame rate_limited; time is the app's injected clock), 1-500 characters
without control characters, never against the computer (no_chat), and spectators only read.
Preset phrases travel as their key with their English text."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from app.main import create_app
from app.persistence import chat as chat_store
from app.persistence.chat import ChatHistory, ChatLine
from app.persistence.models import ChatMessage
from app.push.changes import Chatted, LobbyChanged, decode, encode
from app.services import chat as chat_service

from .conftest import ADMIN_TOKEN, make_settings
from .test_clocks import START, FakeClock
from .test_lifecycle import bearer, receive, seat_socket, spectate_key, wait_for
from .test_players import Player, as_player, new_player

View = dict[str, Any]


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def client(sqlite_url: str, fake: FakeClock) -> Iterator[TestClient]:
    with TestClient(create_app(make_settings(sqlite_url, sweep_seconds=1e6), clock=fake)) as c:
        yield c


def duel(c: TestClient, ana: Player | None, bea: Player | None) -> tuple[str, dict[str, str]]:
    """An active friend match: Ana holds the Editor, Bea Nixon (guests when None)."""
    made = c.post(
        "/api/matches", json={"role": "editor"}, headers=as_player(ana) if ana else {}
    ).json()
    code = made["invite_url"].rsplit("/invite/", 1)[1]
    claimed = c.post(f"/api/invites/{code}/claim", headers=as_player(bea) if bea else {}).json()
    return made["match_id"], {"editor": made["seat_token"], "nixon": claimed["seat_token"]}


def next_chat(ws: WebSocketTestSession) -> View:
    """The next chat (or error) frame; views pushed meanwhile are skipped (at most 12)."""
    for _ in range(12):
        message = receive(ws)
        if message["type"] != "view":
            return message
    pytest.fail("no chat frame came")


def say(ws: WebSocketTestSession, text: str) -> None:
    ws.send_json({"type": "chat", "text": text})


def view_of(c: TestClient, match_id: str, token: str) -> View:
    return dict(c.get(f"/api/matches/{match_id}", headers=bearer(token)).json())


def test_a_line_reaches_both_seats_and_spectators_and_is_kept_with_the_match(
    client: TestClient, fake: FakeClock
) -> None:
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    match_id, tokens = duel(client, ana, bea)
    key = spectate_key(client, match_id, tokens["editor"])
    with (
        seat_socket(client, match_id, tokens["editor"]) as ed,
        seat_socket(client, match_id, tokens["nixon"]) as nx,
        client.websocket_connect(f"/ws/watch/{match_id}?key={key}") as spec,
    ):
        for ws in (ed, nx, spec):
            wait_for(ws, lambda v: v["status"] == "active", "the match is on")
        hostile = "  <img src=x onerror=alert(1)> gl & hf  "
        say(ed, hostile)
        for ws in (ed, nx, spec):
            line = next_chat(ws)
            assert line == {
                "type": "chat", "id": line["id"], "role": "editor", "name": "Ana",
                "text": "<img src=x onerror=alert(1)> gl & hf", "at": START,
            }  # fmt: skip
        first_id = line["id"]
        fake.advance(3)
        nx.send_json({"type": "chat", "phrase": "good_luck"})
        for ws in (ed, nx, spec):
            assert next_chat(ws) == {
                "type": "chat", "id": first_id + 1, "role": "nixon", "name": "Bea",
                "text": "Good luck", "at": START + 3, "phrase": "good_luck",
            }  # fmt: skip
        spec.send_json({"type": "chat", "text": "let me in"})
        assert next_chat(spec)["code"] == "spectator"
    kept = view_of(client, match_id, tokens["nixon"])["chat"]
    assert [(c["role"], c["text"]) for c in kept] == [
        ("editor", "<img src=x onerror=alert(1)> gl & hf"),
        ("nixon", "Good luck"),
    ]
    watched = client.get(f"/api/matches/{match_id}/spectate", params={"key": key}).json()
    assert watched["chat"] == kept  # spectators read it too
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    detail = client.get(f"/api/admin/matches/{match_id}", headers=admin).json()
    assert detail["chat"] == kept  # and the admin, in the match detail
    page = client.get(f"/admin/matches/{match_id}", headers=admin)
    assert 'id="admin-chat"' in page.text and "/static/js/admin-chat.js" in page.text


def test_five_lines_per_ten_seconds_per_seat(client: TestClient, fake: FakeClock) -> None:
    match_id, tokens = duel(client, None, None)
    with seat_socket(client, match_id, tokens["editor"]) as ed:
        for n in range(5):
            say(ed, f"line {n}")
            assert next_chat(ed)["text"] == f"line {n}"
            fake.advance(1)
        say(ed, "one too many")
        refused = next_chat(ed)
        assert (refused["type"], refused["code"]) == ("error", "rate_limited")
        with seat_socket(client, match_id, tokens["nixon"]) as nx:  # the limit is per seat
            say(nx, "my turn to talk")
            assert next_chat(nx)["name"] == "Guest"
        assert next_chat(ed)["text"] == "my turn to talk"
        fake.advance(5)  # the first line is now 10 s old
        say(ed, "again")
        assert next_chat(ed)["text"] == "again"
    texts = [c["text"] for c in view_of(client, match_id, tokens["editor"])["chat"]]
    assert "one too many" not in texts and texts[-1] == "again"


@pytest.mark.parametrize(
    "text",
    ["", "   ", "x" * 501, "bell\x07", "line\nbreak", "\u202eevil", 42, None],
)
def test_bad_lines_are_refused_with_invalid_chat(client: TestClient, text: object) -> None:
    match_id, tokens = duel(client, None, None)
    with seat_socket(client, match_id, tokens["editor"]) as ed:
        ed.send_json({"type": "chat", "text": text})
        refused = next_chat(ed)
        assert (refused["type"], refused["code"]) == ("error", "invalid_chat")
        ed.send_json({"type": "chat", "phrase": "<b>hi</b>"})
        assert next_chat(ed)["code"] == "invalid_chat"
        say(ed, "x" * 500)  # the longest line, and an emoji sequence with a joiner, are fine
        assert len(next_chat(ed)["text"]) == 500
        say(ed, "👩‍👩‍👧")
        assert next_chat(ed)["text"] == "👩‍👩‍👧"
    assert len(view_of(client, match_id, tokens["editor"])["chat"]) == 2


def test_no_chat_against_the_computer(client: TestClient) -> None:
    made = client.post("/api/matches", json={"role": "editor", "opponent": "bot"}).json()
    with seat_socket(client, made["match_id"], made["seat_token"]) as ws:
        say(ws, "hello computer")
        refused = next_chat(ws)
        assert (refused["type"], refused["code"]) == ("error", "no_chat")
    assert view_of(client, made["match_id"], made["seat_token"])["chat"] == []


def test_views_carry_the_last_hundred_lines(client: TestClient, fake: FakeClock) -> None:
    match_id, tokens = duel(client, None, None)
    with seat_socket(client, match_id, tokens["editor"]) as ed:
        for n in range(105):
            say(ed, f"line {n}")
            assert next_chat(ed)["text"] == f"line {n}"
            fake.advance(2)  # within the limit: 5 lines per 10 s
        ed.send_json({"type": "ping"})
    kept = view_of(client, match_id, tokens["nixon"])["chat"]
    assert [c["text"] for c in kept] == [f"line {n}" for n in range(5, 105)]
    assert [c["at"] for c in kept] == [START + 2 * n for n in range(5, 105)]


def test_the_chat_kept_in_memory_is_bounded_least_recently_used_first() -> None:
    kept = ChatHistory(chars=3 * (5 + 3 + 32))  # three lines of "hello" by "Ana"
    line = ChatLine("editor", "Ana", "hello", START, id=1)
    kept.put("m1", (line,))
    kept.put("m2", (line,))
    assert kept.get("m1") == (line,)  # m1 read again: m2 is now the oldest
    kept.put("m3", (line, line))  # over the bound: the least recently used goes
    assert kept.get("m2") is None
    assert kept.get("m1") == (line,) and kept.get("m3") == (line, line)
    newer = ChatLine("nixon", "Bea", "hello", START + 1, id=2)
    kept.said("m3", newer)  # a kept match's new line is appended; m1 makes room for it
    assert kept.get("m3") == (line, line, newer) and kept.get("m1") is None
    kept.said("m3", newer)  # read back from the database before its own news came: kept once
    assert kept.get("m3") == (line, line, newer)
    kept.said("m2", line)  # a match not kept stays unkept: read from the database when needed
    assert kept.get("m2") is None


def test_a_read_older_than_a_line_said_meanwhile_is_not_kept() -> None:
    """A view's database read began before the first line was stored and ended after it was
    said: keeping that read would hide the line from every later view (seen once in CI)."""
    kept = ChatHistory()
    first = ChatLine("editor", "Ana", "x" * 500, START, id=1)
    kept.said("m", first)  # not kept yet: nothing to append to
    kept.put("m", ())  # the read that missed it
    assert kept.get("m") is None  # read again next time, with the line
    kept.put("m", (first,))
    assert kept.get("m") == (first,)
    second = ChatLine("editor", "Ana", "hi", START + 1, id=2)
    kept.said("m", second)
    kept.put("m", (first,))  # a late read without the second line changes nothing
    assert kept.get("m") == (first, second)


@pytest.mark.parametrize("phrase", [None, "thanks"])
def test_a_chat_line_crosses_redis_whole(phrase: str | None) -> None:
    """Other processes push the line from the message alone (they never read it back)."""
    said = Chatted("m1", "nixon", "Bea", "<i>gl</i> ✓", START + 0.25, phrase, 41)
    got = decode(encode(said, "process-a"))
    assert (got.change, got.origin) == (said, "process-a")
    assert decode(encode(LobbyChanged("m1"), "b")).change == LobbyChanged("m1")


def test_a_table_with_two_people_and_the_computer_chats_but_not_its_leaver(
    client: TestClient,
) -> None:
    """Contract v1.2: chat is open whenever two or more people sit at a table."""
    made = client.post(
        "/api/matches", json={"game": "nations", "players": 3, "role": "p1", "seats": {"p3": "bot"}}
    ).json()
    code = made["invites"]["p2"].rsplit("/", 1)[1]
    p2 = client.post(f"/api/invites/{code}/claim").json()["seat_token"]
    with seat_socket(client, made["match_id"], made["seat_token"]) as ws:
        say(ws, "good luck")
        assert next_chat(ws)["text"] == "good luck"
    client.post(
        f"/api/matches/{made['match_id']}/resign", headers={"Authorization": f"Bearer {p2}"}
    )
    with seat_socket(client, made["match_id"], p2) as gone:
        say(gone, "bye")
        assert next_chat(gone)["code"] == "seat_left"


def test_lines_said_on_two_processes_are_all_kept_in_order_whatever_order_they_arrive() -> None:
    """Two processes store lines 5 and 6 at once; PostgreSQL numbers them at insert, so 6 may
    commit, and reach this process, before 5. Every view must still show both, in order (two
    processes showed 6-9 of 10 lines: issue 40, finding 12)."""
    lines = [ChatLine("editor", "Ana", f"line {n}", START + n, id=n) for n in range(1, 8)]
    kept = ChatHistory()
    kept.put("m", tuple(lines[:4]))
    kept.said("m", lines[5])  # 6 first
    kept.said("m", lines[4])  # then 5
    assert kept.get("m") == tuple(lines[:6])

    late = ChatHistory()  # a read made after 6 committed and before 5 did
    late.said("m", lines[4])
    late.said("m", lines[5])
    late.put("m", (*lines[:4], lines[5]))
    assert late.get("m") is None  # it lacks 5: read again when next needed, not kept
    late.put("m", tuple(lines[:6]))
    assert late.get("m") == tuple(lines[:6])


def chat_rows(c: TestClient, match_id: str) -> list[str]:
    """The texts the database holds for the match, oldest first."""
    with c.app.state.ctx.db.writer.begin() as db:  # type: ignore[attr-defined]
        rows = db.execute(
            sa.select(ChatMessage.text)
            .where(ChatMessage.match_id == match_id)
            .order_by(ChatMessage.id)
        )
        return [str(text) for (text,) in rows]


def test_a_match_stores_its_last_lines_only(
    any_db_url: str, fake: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chat storage is bounded per match (issue 40, finding 11): beyond LINES_KEPT the oldest
    lines go as new ones come, on both databases."""
    assert chat_store.LINES_KEPT >= chat_store.HISTORY  # what views carry is always stored
    monkeypatch.setattr(chat_store, "LINES_KEPT", 4)
    settings = make_settings(any_db_url, sweep_seconds=1e6)
    with TestClient(create_app(settings, clock=fake)) as client:
        match_id, tokens = duel(client, new_player(client, "Ana"), None)
        with seat_socket(client, match_id, tokens["editor"]) as ed:
            for n in range(7):
                say(ed, f"line {n}")
                assert next_chat(ed)["text"] == f"line {n}"
                fake.advance(3)  # within the 5-lines-in-10-s limit
        assert chat_rows(client, match_id) == [f"line {n}" for n in range(3, 7)]


def test_a_day_of_chat_has_a_ceiling_per_player_per_guest_seat_and_per_address(
    client: TestClient, fake: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One person cannot store chat without end (13 GB a day from one address: issue 40,
    finding 11): a player's lines at all tables, a guest seat's, and an address's are counted
    over a day, then refused with chat_quota until the day has passed."""
    monkeypatch.setattr(chat_service, "PLAYER_LINES_A_DAY", 3)
    monkeypatch.setattr(chat_service, "GUEST_SEAT_LINES_A_DAY", 2)
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    first, mine = duel(client, ana, bea)
    second, again = duel(client, ana, bea)

    def said(match_id: str, token: str, text: str) -> View:
        with seat_socket(client, match_id, token) as ws:
            say(ws, text)
            answer = next_chat(ws)
        fake.advance(3)
        return answer

    assert said(first, mine["editor"], "one")["text"] == "one"
    assert said(second, again["editor"], "two")["text"] == "two"  # Ana, at another table
    assert said(first, mine["editor"], "three")["text"] == "three"
    assert said(second, again["editor"], "four")["code"] == "chat_quota"  # Ana's day is full
    assert said(first, mine["nixon"], "Bea speaks")["text"] == "Bea speaks"  # Bea's is not
    guests, tokens = duel(client, None, None)
    assert said(guests, tokens["editor"], "a")["text"] == "a"
    assert said(guests, tokens["editor"], "b")["text"] == "b"
    assert said(guests, tokens["editor"], "c")["code"] == "chat_quota"
    assert said(guests, tokens["nixon"], "other seat")["text"] == "other seat"
    fake.advance(86_400)  # a day later
    assert said(second, again["editor"], "next day")["text"] == "next day"
    assert said(guests, tokens["editor"], "d")["text"] == "d"

    monkeypatch.setattr(chat_service, "ADDRESS_LINES_A_DAY", 2)
    fake.advance(86_400)  # a new day: this address (the test client's) may say two lines
    assert said(guests, tokens["editor"], "e")["text"] == "e"
    assert said(guests, tokens["nixon"], "f")["text"] == "f"
    assert said(first, mine["nixon"], "g")["code"] == "chat_quota"  # whoever says it
