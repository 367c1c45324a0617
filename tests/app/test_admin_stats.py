"""What the admin console computes over the stored matches, and the actions that change them
(issue 6): the match list's filters, sorting and paging; the statistics, compared with a hand-built
set of rows on SQLite and PostgreSQL; abort and delete, each with its audit row.

Helpers come from test_admin_console.py (imported as a module, so its tests are not collected
twice)."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, insert, select, text
from sqlalchemy.orm import Session
from starlette.testclient import WebSocketTestSession

import app.services.matches
import engine.watergate as engine
from app.persistence.db import driver_url
from app.persistence.models import Invite, Match, MatchAction, Seat
from engine.watergate.bots import RandomBot

from . import test_admin_console as console

ADMIN = console.ADMIN
ROLES = console.ROLES
create, started, play, view, finished = (
    console.create,
    console.started,
    console.play,
    console.view,
    console.finished,
)
DEADLINE = 10.0  # seconds: a guard against a push that never comes, never a way to wait


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    seeds = itertools.count(9001)
    monkeypatch.setattr(app.services.matches, "new_seed", lambda: next(seeds))


def receive(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next websocket message, or fail after DEADLINE seconds."""

    async def next_message() -> dict[str, Any]:
        with anyio.fail_after(DEADLINE):
            return dict(await ws._send_rx.receive())

    message = ws.portal.call(next_message)
    assert message["type"] == "websocket.send", message
    return dict(json.loads(message["text"]))


def bot_match(client: TestClient) -> tuple[str, str]:
    """A match against the (random) computer played to its end over the websocket: the person
    answers each view that offers it actions. Returns the id and the winner the seat was shown."""
    made, bot, acted = create(client, "editor", "bot"), RandomBot(11), -1
    with client.websocket_connect(
        f"/ws/matches/{made['match_id']}?token={made['seat_token']}"
    ) as ws:
        while (message := receive(ws)).get("status") != "finished":
            if message.get("legal_actions") and message["version"] > acted:
                action = bot.choose(message["state"], message["legal_actions"])
                ws.send_text(json.dumps({"type": "action", "action": action}))
                acted = message["version"]
    return str(made["match_id"]), str(message["winner"])


# ---- the match list ----------------------------------------------------------------------------


@pytest.fixture
def stocked(sqlite_url: str, make_client: Callable[..., TestClient]) -> Iterator[Any]:
    """Five matches, created a, w, b, f1, f2 and last active w, b, f1, f2, a: a active between two
    people, w waiting, b finished against the computer, f1 and f2 finished between people."""
    client = make_client(sqlite_url, bot_kind="random")
    a, a_tokens = started(client)
    w = create(client, "nixon")["match_id"]
    b, b_won = bot_match(client)
    f1, _, f1_played, f1_won = finished(client, seed=1)
    f2, _, _, f2_won = finished(client, seed=2)
    play(client, a, a_tokens, 2)
    winners = {b: b_won, f1: f1_won, f2: f2_won}  # as the players were shown
    yield client, {"a": a, "w": w, "b": b, "f1": f1, "f2": f2}, winners, len(f1_played)


def listed(client: TestClient, **params: Any) -> tuple[list[str], int]:
    response = client.get("/api/admin/matches-page", params=params, headers=ADMIN)
    assert response.status_code == 200, response.text
    page = response.json()
    plain = client.get("/api/admin/matches", params=params, headers=ADMIN).json()
    assert plain == page["rows"], "the list and the pager agree"
    return [row["match_id"] for row in page["rows"]], page["total"]


def test_the_list_sorts_filters_searches_and_pages(stocked: Any) -> None:
    client, ids, winners, _ = stocked
    created = [ids[k] for k in ("a", "w", "b", "f1", "f2")]
    active = [ids[k] for k in ("w", "b", "f1", "f2", "a")]
    assert listed(client, sort="created", order="asc") == (created, 5)
    assert listed(client, sort="created", order="desc") == (created[::-1], 5)
    assert listed(client, sort="activity", order="asc") == (active, 5)
    assert listed(client, sort="activity", order="desc") == (active[::-1], 5)
    assert listed(client) == (active[::-1], 5), "newest activity first by default"
    pages = [listed(client, sort="created", order="asc", limit=2, offset=o) for o in (0, 2, 4)]
    assert pages == [(created[0:2], 5), (created[2:4], 5), (created[4:], 5)]
    assert listed(client, limit=2, offset=10) == ([], 5)

    def only(**params: Any) -> set[str]:
        rows, total = listed(client, **params)
        assert total == len(rows)
        return set(rows)

    assert only(status="waiting") == {ids["w"]}
    assert only(status="active") == {ids["a"]}
    assert only(status="finished") == {ids["b"], ids["f1"], ids["f2"]}
    assert only(status="abandoned") == set()
    assert only(opponent="bot") == {ids["b"]}
    assert only(opponent="human") == set(created) - {ids["b"]}
    assert only(status="finished", opponent="human") == {ids["f1"], ids["f2"]}
    for side in ROLES:
        assert only(winner=side) == {m for m, w in winners.items() if w == side}
    assert only(winner="editor") | only(winner="nixon") == {ids["b"], ids["f1"], ids["f2"]}
    assert only(opponent="bot", winner=winners[ids["b"]]) == {ids["b"]}
    for match_id in created:
        expected = {m for m in created if m.startswith(match_id[:4])}
        assert only(q=match_id[:4]) == expected
        assert only(q=match_id[:6].upper()) == {m for m in created if m.startswith(match_id[:6])}
        assert only(q=match_id) == {match_id}
    assert only(q="zzzz") == set()


def test_the_list_shows_roles_round_version_and_winner(stocked: Any) -> None:
    client, ids, winners, moves = stocked
    rows = {r["match_id"]: r for r in client.get("/api/admin/matches", headers=ADMIN).json()}
    f1 = rows[ids["f1"]]
    detail = client.get(f"/api/admin/matches/{ids['f1']}", headers=ADMIN).json()
    assert (f1["status"], f1["version"], f1["winner"]) == ("finished", moves, winners[ids["f1"]])
    assert f1["round"] == detail["state"]["round"] and f1["win_reason"]
    assert (rows[ids["b"]]["editor_kind"], rows[ids["b"]]["nixon_kind"]) == ("human", "bot")
    assert (rows[ids["w"]]["status"], rows[ids["w"]]["version"]) == ("waiting", 0)
    assert (rows[ids["a"]]["status"], rows[ids["a"]]["version"]) == ("active", 2)


# ---- statistics ----------------------------------------------------------------------------------


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2024, 3, day, hour, minute, tzinfo=UTC)


# status, winner, win reason, round, created, seconds to the last activity (None: active now)
HAND_BUILT: list[tuple[str, str | None, str | None, int, datetime, float | None]] = [
    ("finished", "editor", "connection", 7, at(1, 10), 1800),
    ("finished", "nixon", "fifth_momentum", 9, at(1, 23, 30), 2700),  # ends the next day
    ("abandoned", None, None, 3, at(1, 12), 400),
    ("finished", "nixon", "empty_supply", 10, at(2, 0, 10), 3600),
    ("finished", None, None, 4, at(2, 8), 300),  # aborted by the host: not decided
    ("active", None, None, 2, at(2, 9), None),
    ("waiting", None, None, 1, at(2, 23, 59), None),
    ("finished", "editor", "connection", 5, at(5, 2), 600.5),
    ("abandoned", None, None, 1, at(5, 3), 60),
    ("finished", "nixon", "fifth_momentum", 6, at(5, 9), 120),
]
# Worked out by hand from the rows above.
EXPECTED: dict[str, Any] = {
    "matches_per_day": [
        {"day": "2024-03-01", "count": 3},
        {"day": "2024-03-02", "count": 4},
        {"day": "2024-03-05", "count": 3},
    ],
    "by_status": {"waiting": 1, "active": 1, "finished": 6, "abandoned": 2},
    "decided": 5,
    "editor_wins": 2,
    "nixon_wins": 3,
    "editor_win_rate": 0.4,
    "avg_rounds": 7.4,  # (7 + 9 + 10 + 5 + 6) / 5
    "avg_duration_seconds": 1764.1,  # (1800 + 2700 + 3600 + 600.5 + 120) / 5
    "end_reasons": {"connection": 2, "fifth_momentum": 2, "empty_supply": 1},
}


def insert_rows(url: str, rows: list[dict[str, Any]]) -> None:
    db = create_engine(driver_url(url))
    with Session(db) as session, session.begin():
        session.execute(insert(Match), rows)
        seats = [
            {"match_id": row["id"], "name": name, "kind": "human", "created_at": row["created_at"]}
            for row in rows
            for name in SEATS_OF[row["game"]]
        ]
        session.execute(insert(Seat), seats)
    db.dispose()


SEATS_OF = {"watergate": ("editor", "nixon"), "nations": ("p1", "p2")}


def match_row(i: int, status: str, winner: str | None, reason: str | None, rounds: int,
              created: datetime, seconds: float | None,
              game: str = "watergate") -> dict[str, Any]:  # fmt: skip
    return {
        "id": f"hand{i:04d}",
        "seed": 1000 + i,
        "rules_version": engine.RULES_VERSION,
        "options": {},
        "status": status,
        "version": rounds * 10,
        "round": rounds,
        "winner": winner,
        "win_reason": reason,
        "ended_by": "host" if status == "finished" and winner is None else None,
        "game": game,
        "created_at": created,
        # a waiting or active match was touched just now (an old one would be marked abandoned)
        "updated_at": datetime.now(UTC)
        if seconds is None
        else created + timedelta(seconds=seconds),
    }


def stats(client: TestClient) -> dict[str, Any]:
    response = client.get("/api/admin/stats", headers=ADMIN)
    assert response.status_code == 200, response.text
    return dict(response.json())


def assert_figures(got: dict[str, Any], expected: dict[str, Any]) -> None:
    for key, value in expected.items():
        if isinstance(value, float):
            assert got[key] == pytest.approx(value, abs=1e-3), key
        else:
            assert got[key] == value, key


def test_stats_match_a_hand_built_set_of_matches(
    any_db_url: str, make_client: Callable[..., TestClient]
) -> None:
    insert_rows(any_db_url, [match_row(i, *row) for i, row in enumerate(HAND_BUILT)])
    assert_figures(stats(make_client(any_db_url)), EXPECTED)


# Nations matches beside them (seats p1, p2), worked out by hand below
NATIONS_ROWS: list[tuple[str, str | None, str | None, int, datetime, float | None]] = [
    ("finished", "p1", "score", 8, at(1, 11), 3000),
    ("finished", "p2", "score", 8, at(5, 10), 2400),
    ("finished", "p2", "resigned", 3, at(5, 11), 900),
    ("active", None, None, 4, at(5, 12), None),
]


def test_stats_keep_each_game_to_itself(
    any_db_url: str, make_client: Callable[..., TestClient]
) -> None:
    """v1's outcome figures stay Watergate's (a Nations winner is no side of Watergate's); every
    game has its own under "games"; days and statuses count every game's matches."""
    rows = [match_row(i, *row) for i, row in enumerate(HAND_BUILT)]
    rows += [match_row(100 + i, *row, game="nations") for i, row in enumerate(NATIONS_ROWS)]
    insert_rows(any_db_url, rows)
    got = stats(make_client(any_db_url))
    outcomes = ("decided", "editor_wins", "nixon_wins", "editor_win_rate", "avg_rounds",
                "avg_duration_seconds", "end_reasons")  # fmt: skip
    assert_figures(got, {key: EXPECTED[key] for key in outcomes})
    assert got["matches_per_day"] == [
        {"day": "2024-03-01", "count": 4},
        {"day": "2024-03-02", "count": 4},
        {"day": "2024-03-05", "count": 6},
    ]
    assert got["by_status"] == {"waiting": 1, "active": 2, "finished": 9, "abandoned": 2}
    watergate = {k: v for k, v in EXPECTED.items() if k in outcomes and not k.endswith("_wins")}
    assert_figures(got["games"]["watergate"], {**watergate, "wins": {"editor": 2, "nixon": 3}})
    assert_figures(
        got["games"]["nations"],
        {
            "decided": 3,
            "wins": {"p1": 1, "p2": 2},
            "p1_win_rate": 1 / 3,
            "avg_rounds": 19 / 3,
            "avg_duration_seconds": 2100.0,  # (3000 + 2400 + 900) / 3
            "end_reasons": {"score": 2, "resigned": 1},
            "by_status": {"waiting": 0, "active": 1, "finished": 3, "abandoned": 0},
        },
    )


NO_OUTCOMES: dict[str, Any] = {
    "matches_per_day": [],
    "by_status": {"waiting": 0, "active": 0, "finished": 0, "abandoned": 0},
    "decided": 0,
    "avg_rounds": None,
    "avg_duration_seconds": None,
    "end_reasons": {},
}


def test_stats_of_no_matches(any_db_url: str, make_client: Callable[..., TestClient]) -> None:
    assert stats(make_client(any_db_url)) == {
        **NO_OUTCOMES,
        "editor_wins": 0,
        "nixon_wins": 0,
        "editor_win_rate": None,
        "games": {
            "watergate": {
                **NO_OUTCOMES,
                "wins": {"editor": 0, "nixon": 0},
                "editor_win_rate": None,
            },
            "nations": {**NO_OUTCOMES, "wins": {"p1": 0, "p2": 0}, "p1_win_rate": None},
        },
    }


def test_days_are_utc_days_whatever_the_database_server_s_time_zone(
    postgres_url: str, make_client: Callable[..., TestClient]
) -> None:
    """A PostgreSQL server set to local time (here UTC−3) must count the same days as SQLite."""
    name = postgres_url.rsplit("/", 1)[1]
    admin = create_engine(driver_url(postgres_url), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"ALTER DATABASE \"{name}\" SET timezone TO 'America/Sao_Paulo'"))
    admin.dispose()
    insert_rows(postgres_url, [match_row(i, *row) for i, row in enumerate(HAND_BUILT)])
    assert_figures(stats(make_client(postgres_url)), EXPECTED)


def test_stats_over_thousands_of_matches_are_right_and_quick(
    sqlite_url: str, make_client: Callable[..., TestClient]
) -> None:
    start, rows = datetime(2024, 1, 1, 6, tzinfo=UTC), []
    for i in range(3000):  # three a day; every third finished, won by each side in turn
        done = i % 3 == 0
        winner = ("editor", "nixon")[(i // 3) % 2] if done else None
        created = start + timedelta(days=i // 3, minutes=i % 3)
        rows.append(match_row(i, "finished" if done else "abandoned", winner,
                              "connection" if done else None, 4, created, 90))  # fmt: skip
    insert_rows(sqlite_url, rows)
    client = make_client(sqlite_url)
    began = time.perf_counter()
    got = stats(client)
    assert time.perf_counter() - began < 3.0, "computed in SQL, not row by row"
    assert len(got["matches_per_day"]) == 1000
    assert {d["count"] for d in got["matches_per_day"]} == {3}
    assert got["by_status"] == {"waiting": 0, "active": 0, "finished": 1000, "abandoned": 2000}
    assert (got["decided"], got["editor_wins"], got["nixon_wins"]) == (1000, 500, 500)
    assert got["avg_duration_seconds"] == pytest.approx(90, abs=1e-3)


# ---- abort and delete --------------------------------------------------------------------------


def audit(client: TestClient) -> list[dict[str, Any]]:
    response = client.get("/api/admin/audit", headers=ADMIN)
    assert response.status_code == 200, response.text
    return list(response.json())


def assert_audited(row: dict[str, Any], action: str, match_id: str) -> None:
    assert (row["action"], row["match_id"], row["actor"]) == (action, match_id, "admin")
    when = datetime.fromisoformat(row["created_at"])
    assert abs((datetime.now(UTC) - when).total_seconds()) < 60


def next_view(ws: WebSocketTestSession, finished_only: bool) -> dict[str, Any]:
    for _ in range(20):
        message = receive(ws)
        if message["type"] == "view" and (message["status"] == "finished" or not finished_only):
            return message
    raise AssertionError("no finished view pushed")


def test_abort_ends_an_active_match_for_both_seats(
    any_db_url: str, make_client: Callable[..., TestClient]
) -> None:
    client = make_client(any_db_url)
    match_id, tokens = started(client)
    play(client, match_id, tokens, 4)
    before = view(client, match_id, tokens["editor"])
    to_move = before["state"]["decision"]["role"]
    offered = view(client, match_id, tokens[to_move])["legal_actions"][0]
    with (
        client.websocket_connect(f"/ws/matches/{match_id}?token={tokens['editor']}") as ed,
        client.websocket_connect(f"/ws/matches/{match_id}?token={tokens['nixon']}") as nx,
    ):
        for ws in (ed, nx):
            assert next_view(ws, False)["status"] == "active"
        response = client.post(f"/api/admin/matches/{match_id}/abort", headers=ADMIN)
        assert response.status_code == 200, response.text
        for ws in (ed, nx):
            pushed = next_view(ws, True)
            assert (pushed["ended_by"], pushed["legal_actions"]) == ("host", [])
    for role in ROLES:
        seen = view(client, match_id, tokens[role])
        assert (seen["status"], seen["ended_by"], seen["legal_actions"]) == ("finished", "host", [])
        assert seen["winner"] is None
    late = client.post(
        f"/api/matches/{match_id}/actions", headers=console.seat(tokens[to_move]),
        json={"action": offered},
    )  # fmt: skip
    assert (late.status_code, late.json()["code"]) == (422, "match_over")
    again = client.post(f"/api/admin/matches/{match_id}/abort", headers=ADMIN)
    assert again.status_code == 409 and again.json()["code"]
    [row] = audit(client)
    assert_audited(row, "abort", match_id)
    detail = client.get(f"/api/admin/matches/{match_id}", headers=ADMIN).json()
    assert (detail["match"]["status"], detail["ended_by"]) == ("finished", "host")
    assert detail["match"]["version"] == before["version"] == len(detail["actions"])
    replay = client.get(f"/api/matches/{match_id}/replay/0", headers=console.seat(tokens["nixon"]))
    assert replay.status_code == 200, "an aborted match can be replayed"


def test_only_a_waiting_or_active_match_can_be_aborted(client: TestClient) -> None:
    done, _, _, _ = finished(client)
    waiting = create(client, "nixon")
    refused = client.post(f"/api/admin/matches/{done}/abort", headers=ADMIN)
    assert refused.status_code == 409
    unknown = client.post("/api/admin/matches/nosuchmatch/abort", headers=ADMIN)
    assert unknown.status_code == 404
    assert client.post(f"/api/admin/matches/{waiting['match_id']}/abort", headers=ADMIN).is_success
    seen = view(client, waiting["match_id"], waiting["seat_token"])
    assert (seen["status"], seen["ended_by"]) == ("finished", "host")
    assert [(r["action"], r["match_id"]) for r in audit(client)] == [("abort", waiting["match_id"])]


def stored(url: str, match_id: str) -> dict[str, int]:
    db = create_engine(driver_url(url))
    with Session(db) as session:
        counts = {
            model.__name__: session.scalar(
                select(func.count()).select_from(model).where(model.match_id == match_id)
            )
            or 0
            for model in (MatchAction, Seat, Invite)
        }
        counts["Match"] = session.scalar(select(func.count()).where(Match.id == match_id)) or 0
    db.dispose()
    return counts


def test_delete_removes_a_match_and_everything_stored_about_it(
    any_db_url: str, make_client: Callable[..., TestClient]
) -> None:
    client = make_client(any_db_url)
    done, tokens, moves, _ = finished(client)
    waiting = create(client, "nixon")
    code = waiting["invite_url"].rsplit("/invite/", 1)[1]
    kept, _ = started(client)
    for match_id in (done, waiting["match_id"]):
        response = client.delete(f"/api/admin/matches/{match_id}", headers=ADMIN)
        assert response.status_code == 200, response.text
        assert set(stored(any_db_url, match_id).values()) == {0}, "no row is left behind"
        for path in ("", "/steps/0", "/export"):
            gone = client.get(f"/api/admin/matches/{match_id}{path}", headers=ADMIN)
            assert gone.status_code == 404
        again = client.delete(f"/api/admin/matches/{match_id}", headers=ADMIN)
        assert again.status_code == 404
    assert client.post(f"/api/invites/{code}/claim").status_code == 404
    fresh = make_client(any_db_url)  # a process that never saw the seats
    for app_client in (client, fresh):
        for token in (*tokens.values(), waiting["seat_token"]):
            for path in ("", "/replay/0"):
                where = done if token in tokens.values() else waiting["match_id"]
                got = app_client.get(f"/api/matches/{where}{path}", headers=console.seat(token))
                assert got.status_code in (401, 404), got.text
    assert [r["match_id"] for r in client.get("/api/admin/matches", headers=ADMIN).json()] == [kept]
    newest, older = audit(client)
    assert_audited(newest, "delete", waiting["match_id"])
    assert_audited(older, "delete", done)
    assert older["detail"] == {"status": "finished", "version": len(moves)}
    assert newest["detail"] == {"status": "waiting", "version": 0}
