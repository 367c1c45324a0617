"""Arenas through the API and their sockets (issue 46): eight accounts join, open the page's
socket, are paired into ordinary matches, play them out (here by resigning), are paired again
without an immediate rematch, and the arena ends with standings that the export's games
recompute; and each bad request is a stable 4xx that stores nothing."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from tests.app.accounts_helpers import Account, as_player, resign, sign_up
from tests.app.conftest import ADMIN_TOKEN
from tests.app.test_api import bearer
from tests.app.test_challenges import client, fake
from tests.app.test_clocks import FakeClock

__all__ = ["client", "fake"]  # the fixtures, used by name below
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def at(fake: FakeClock, minutes: float = 0) -> str:
    return datetime.fromtimestamp(fake.now() + 60 * minutes, UTC).isoformat()


def create(c: TestClient, fake: FakeClock, headers: dict[str, str] = ADMIN, **extra: Any) -> Any:
    body = {"name": "Friday arena", "starts_at": at(fake, 5), "minutes": 60, **extra}
    return c.post("/api/tournaments", json=body, headers=headers)


def tick(c: TestClient) -> Any:
    assert c.portal is not None
    return c.portal.call(c.app.state.ctx.director.tick)  # type: ignore[attr-defined]


def page(c: TestClient, tid: str, who: Account | None = None) -> dict[str, Any]:
    got = c.get(f"/api/tournaments/{tid}", headers=as_player(who) if who else {})
    assert got.status_code == 200, got.text
    found: dict[str, Any] = got.json()
    return found


def receive_until(ws: WebSocketTestSession, wanted: Any) -> dict[str, Any]:
    """The socket's frames until one satisfies `wanted` (each push is the whole page)."""
    for _ in range(20):
        frame: dict[str, Any] = ws.receive_json()
        if wanted(frame):
            return frame
    raise AssertionError("no such frame")


@contextlib.contextmanager
def on_the_page(c: TestClient, tid: str, players: list[Account]) -> Iterator[list[Any]]:
    """Every player's socket open on the tournament (present: they may be paired)."""
    with contextlib.ExitStack() as stack:
        sockets = []
        for p in players:
            ws = stack.enter_context(c.websocket_connect(f"/ws/tournaments/{tid}"))
            ws.send_json({"type": "auth", "player_token": p["player_token"]})
            # (a pairing's own line may come first: the director runs in the background too)
            first = receive_until(ws, lambda f: f["type"] == "tournament")
            assert first["you"]["player_id"] == p["player_id"]
            sockets.append(ws)
        yield sockets


def seat_token(c: TestClient, match_id: str, who: Account) -> tuple[str, str]:
    got = c.post(f"/api/matches/{match_id}/seat", headers=as_player(who))
    assert got.status_code == 200, got.text
    return got.json()["role"], got.json()["seat_token"]


def test_an_arena_of_eight_pairs_scores_repairs_without_rematch_and_ends(
    client: TestClient, fake: FakeClock
) -> None:
    c = client
    made = create(c, fake)
    assert made.status_code == 201, made.text
    tid = made.json()["tournament_id"]
    players = [sign_up(c, f"arena{i}") for i in range(8)]
    by_id = {p["player_id"]: p for p in players}
    for p in players:
        assert c.post(f"/api/tournaments/{tid}/join", headers=as_player(p)).status_code == 204
    listed = c.get("/api/tournaments").json()
    assert [t["tournament_id"] for t in listed["upcoming"]] == [tid]
    assert listed["upcoming"][0]["players"] == 8

    with on_the_page(c, tid, players) as sockets:
        tick(c)
        assert page(c, tid)["status"] == "upcoming"  # not before its start
        fake.advance(5 * 60)
        tick(c)  # starts
        assert page(c, tid)["status"] == "running"
        tick(c)  # pairs
        games = page(c, tid)["games"]
        assert len(games) == 4
        first_round = {frozenset(s["player_id"] for s in g["seats"]) for g in games}
        # each player's own socket is told its game
        for ws in sockets:
            frame = receive_until(ws, lambda f: f["you"] and f["you"]["playing"])
            assert any(frame["you"]["playing"] == g["match_id"] for g in games)
        # the first seat of each game resigns: the second seat wins 2 points
        winners = set()
        for g in games:
            first = by_id[g["seats"][0]["player_id"]]
            _, token = seat_token(c, g["match_id"], first)
            assert resign(c, g["match_id"], token).status_code == 200
            winners.add(
                next(s["player_id"] for s in g["seats"] if s["player_id"] != first["player_id"])
            )
        standings = page(c, tid)["standings"]
        assert {s["player_id"] for s in standings if s["score"] == 2} == winners
        assert all(s["games"] == 1 for s in standings)
        tick(c)  # pairs again
        second = page(c, tid)["games"]
        assert len(second) == 4
        for g in second:
            pair_ids = frozenset(s["player_id"] for s in g["seats"])
            assert pair_ids not in first_round  # never the previous opponent
            # winners meet winners: the closest scores
            assert len(pair_ids & winners) in (0, 2)
        # the page lists the leaders' games first
        assert {s["player_id"] for s in second[0]["seats"]} <= winners
        # the clock passes the end: games under way still count, no new pairing
        fake.advance(60 * 60)
        for g in second:
            first = by_id[g["seats"][0]["player_id"]]
            _, token = seat_token(c, g["match_id"], first)
            assert resign(c, g["match_id"], token).status_code == 200
        tick(c)
        final = page(c, tid)
        assert final["status"] == "finished"
        assert final["games"] == []
        assert [p["rank"] for p in final["podium"]] == [1, 2, 3]

    export = c.get(f"/api/tournaments/{tid}/export").json()
    assert len(export["games"]) == 8
    recomputed: dict[str, int] = {}
    for g in export["games"]:
        for s in g["seats"]:
            recomputed[s["player_id"]] = recomputed.get(s["player_id"], 0) + s["points"]
    assert {s["player_id"]: s["score"] for s in export["standings"]} == recomputed
    assert max(recomputed.values()) == 4  # two wins: 2 + 2 (the flame lights after them)


def test_only_players_with_the_page_open_are_paired_and_a_withdrawn_player_is_not_again(
    client: TestClient, fake: FakeClock
) -> None:
    c = client
    tid = create(c, fake, starts_at=at(fake)).json()["tournament_id"]
    players = [sign_up(c, f"pres{i}") for i in range(3)]
    for p in players:
        c.post(f"/api/tournaments/{tid}/join", headers=as_player(p))
    with on_the_page(c, tid, players[:2]):
        tick(c)
        tick(c)
        games = page(c, tid)["games"]
        assert len(games) == 1  # the third is not on the page
        seated = {s["player_id"] for s in games[0]["seats"]}
        assert seated == {players[0]["player_id"], players[1]["player_id"]}
        # withdrawing during a game: the game goes on, no new pairing comes
        assert (
            c.post(f"/api/tournaments/{tid}/withdraw", headers=as_player(players[0])).status_code
            == 204
        )
        mine = page(c, tid, players[0])["me"]
        assert mine["withdrawn"] and mine["playing"] == games[0]["match_id"]
        _, token = seat_token(c, games[0]["match_id"], players[0])
        assert resign(c, games[0]["match_id"], token).status_code == 200
        tick(c)
        assert page(c, tid)["games"] == []  # player 1 waits: nobody else is free


def test_bad_requests_are_stable_4xx_and_store_nothing(client: TestClient, fake: FakeClock) -> None:
    c = client
    newcomer = sign_up(c, "newcomer")
    assert create(c, fake, headers=as_player(newcomer)).json()["code"] == "not_enough_games"
    assert create(c, fake, format="swiss").json()["code"] == "invalid_rounds"
    too_many = create(c, fake, format="swiss", rounds=5, max_players=5)
    assert too_many.json()["code"] == "too_many_rounds"  # 5 players meet in 4 rounds at most
    assert create(c, fake, format="tables", rounds=3).json()["code"] == "invalid_format"
    nations = {"format": "tables", "rounds": 3, "game": "nations"}
    assert create(c, fake, **nations).json()["code"] == "invalid_table_size"
    assert create(c, fake, minutes=45).json()["code"] == "invalid_minutes"
    assert create(c, fake, clock="turn-1").json()["code"] == "invalid_clock"
    assert create(c, fake, max_players=1).json()["code"] == "invalid_max_players"
    assert create(c, fake, starts_at=at(fake, 60 * 24 * 40)).json()["code"] == "invalid_start"
    assert c.get("/api/tournaments").json() == {"running": [], "upcoming": [], "finished": []}

    tid = create(c, fake, max_players=2).json()["tournament_id"]
    join = f"/api/tournaments/{tid}/join"
    assert c.post(join).json()["code"] == "player_required"
    guest = c.post("/api/players", json={"name": "Cris"}).json()
    assert c.post(join, headers={"X-Player-Token": guest["player_token"]}).json()["code"] == (
        "account_required"
    )
    a, b, d = (sign_up(c, n) for n in ("joina", "joinb", "joind"))
    assert c.post(join, headers=as_player(a)).status_code == 204
    assert c.post(join, headers=as_player(a)).json()["code"] == "already_joined"
    assert c.post(join, headers=as_player(b)).status_code == 204
    assert c.post(join, headers=as_player(d)).json()["code"] == "tournament_full"
    assert c.post("/api/tournaments/nope/join", headers=as_player(d)).status_code == 404
    # a private tournament is joined by its link's code only
    private = create(c, fake, private=True).json()
    path = f"/api/tournaments/{private['tournament_id']}/join"
    assert c.post(path, headers=as_player(d)).json()["code"] == "invite_required"
    assert c.post(path, json={"code": "wrong"}, headers=as_player(d)).status_code == 403
    assert (
        c.post(path, json={"code": private["join_code"]}, headers=as_player(d)).status_code == 204
    )
    assert private["tournament_id"] not in str(c.get("/api/tournaments").json())  # not listed
    # a removed player may not join again; the removal is recorded
    act = {"action": "remove", "player_id": a["player_id"], "reason": "abuse in chat"}
    assert c.post(f"/api/tournaments/{tid}/admin", json=act).status_code == 403  # not a moderator
    assert c.post(f"/api/tournaments/{tid}/admin", json=act, headers=ADMIN).status_code == 204
    assert c.post(join, headers=as_player(a)).json()["code"] == "removed"
    history = c.get(f"/api/tournaments/{tid}/history", headers=ADMIN).json()
    assert [e["action"] for e in history["events"]] == ["remove"]
    cancel = {"action": "cancel", "reason": "test"}
    assert c.post(f"/api/tournaments/{tid}/admin", json=cancel, headers=ADMIN).status_code == 204
    assert c.post(join, headers=as_player(d)).json()["code"] == "tournament_closed"


def test_a_tournament_socket_refuses_a_silent_or_junk_client(
    client: TestClient, fake: FakeClock
) -> None:
    tid = create(client, fake).json()["tournament_id"]
    with client.websocket_connect(f"/ws/tournaments/{tid}") as ws:
        ws.send_text("nonsense")
        assert ws.receive_json()["code"] == "unauthorized"
    with client.websocket_connect(f"/ws/tournaments/{tid}") as ws:
        ws.send_json({"type": "watch"})
        first = ws.receive_json()
        assert first["type"] == "tournament" and first["you"] is None
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


def test_berserk_halves_your_own_clock_before_your_first_move_and_adds_a_point_to_a_win(
    client: TestClient, fake: FakeClock
) -> None:
    c = client
    tid = create(c, fake, starts_at=at(fake)).json()["tournament_id"]
    players = [sign_up(c, f"bers{i}") for i in range(2)]
    for p in players:
        c.post(f"/api/tournaments/{tid}/join", headers=as_player(p))
    with on_the_page(c, tid, players):
        tick(c)
        tick(c)
        (game,) = page(c, tid)["games"]
        by_id = {p["player_id"]: p for p in players}
        first, second = (by_id[s["player_id"]] for s in game["seats"])
        path = f"/api/tournaments/{tid}/berserk"
        body = {"match_id": game["match_id"]}
        stranger = sign_up(c, "stranger")
        assert c.post(path, json=body, headers=as_player(stranger)).status_code == 404
        assert c.post(path, json=body, headers=as_player(second)).status_code == 204
        assert c.post(path, json=body, headers=as_player(second)).json()["code"] == (
            "berserk_unavailable"
        )
        role, token = seat_token(c, game["match_id"], second)
        clocks = c.get(f"/api/matches/{game['match_id']}", headers=bearer(token)).json()["clocks"]
        assert clocks[role]["remaining_ms"] == 15 * 60 * 1000 // 2  # half of 15 minutes
        other = next(r for r in clocks if r not in (role, "kind"))
        assert clocks[other]["remaining_ms"] == 15 * 60 * 1000
        _, first_token = seat_token(c, game["match_id"], first)
        assert resign(c, game["match_id"], first_token).status_code == 200
        standings = {s["player_id"]: s["score"] for s in page(c, tid)["standings"]}
        assert standings[second["player_id"]] == 3  # a win, 2, and a point for berserk


def test_a_player_banned_from_tournaments_after_joining_is_not_paired(
    client: TestClient, fake: FakeClock
) -> None:
    c = client
    tid = create(c, fake, starts_at=at(fake)).json()["tournament_id"]
    players = [sign_up(c, f"ban{i}") for i in range(2)]
    for p in players:
        c.post(f"/api/tournaments/{tid}/join", headers=as_player(p))
    ban = {
        "player_id": players[0]["player_id"], "action": "ban", "scope": "tournaments",
        "minutes": 20, "reason": "sandbagging",
    }  # fmt: skip
    assert c.post("/api/mod/actions", json=ban, headers=ADMIN).status_code == 201
    with on_the_page(c, tid, players):
        tick(c)
        tick(c)
        assert page(c, tid)["games"] == []
        fake.advance(61 * 60)  # the ban is over (and so is the arena's last minute… not yet)
        assert (
            c.post(f"/api/tournaments/{tid}/join", headers=as_player(players[0])).status_code == 409
        )


def test_standings_sort_by_name_games_or_rating_and_a_players_games_are_listed(
    client: TestClient, fake: FakeClock
) -> None:
    c = client
    tid = create(c, fake, starts_at=at(fake)).json()["tournament_id"]
    players = [sign_up(c, name) for name in ("zoe_s", "abe_s", "mia_s")]
    for p in players:
        c.post(f"/api/tournaments/{tid}/join", headers=as_player(p))
    with on_the_page(c, tid, players[:2]):
        tick(c)
        tick(c)
        (game,) = page(c, tid)["games"]
        by_name = c.get(f"/api/tournaments/{tid}?sort=name").json()["standings"]
        assert [s["name"] for s in by_name] == ["abe_s", "mia_s", "zoe_s"]
        _, token = seat_token(c, game["match_id"], players[0])
        assert resign(c, game["match_id"], token).status_code == 200
        by_games = c.get(f"/api/tournaments/{tid}?sort=games").json()["standings"]
        assert [s["games"] for s in by_games] == [1, 1, 0] and by_games[2]["name"] == "mia_s"
        assert c.get(f"/api/tournaments/{tid}?sort=secret").status_code == 422
        zoe = c.get(f"/api/tournaments/{tid}/players/{players[0]['player_id']}").json()
        assert [g["match_id"] for g in zoe["games"]] == [game["match_id"]]
        mia = c.get(f"/api/tournaments/{tid}/players/{players[2]['player_id']}").json()
        assert mia["games"] == []
        stranger = sign_up(c, "nobody_s")
        assert c.get(f"/api/tournaments/{tid}/players/{stranger['player_id']}").status_code == 404
