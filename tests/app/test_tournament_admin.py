"""The admins' and moderators' side of tournaments (issue 46): the list of every tournament
(private ones too, every status, newest first, paged and bounded), who may read it and act
(the admin token, a moderator's X-Player-Token; a player is refused `not_moderator`), the record
naming who acted and whom, every pairing in the history, and the console's two pages behind its
sign-in."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.app.accounts_helpers import as_player, sign_up
from tests.app.conftest import ADMIN_TOKEN
from tests.app.test_challenges import client, fake
from tests.app.test_clocks import FakeClock
from tests.app.test_moderation import moderator
from tests.app.test_tournaments import ADMIN, at, create, on_the_page, tick

__all__ = ["client", "fake"]  # the fixtures, used by name below
LIST = "/api/admin/tournaments"


def ids(answer: Any) -> list[str]:
    assert answer.status_code == 200, answer.text
    return [row["tournament_id"] for row in answer.json()["rows"]]


def test_admins_and_moderators_list_every_tournament_and_players_are_refused(
    client: TestClient, fake: FakeClock
) -> None:
    c = client
    mary = moderator(c)
    made = []
    for extra in ({}, {"private": True}, {"headers": as_player(mary)}):
        got = create(c, fake, **extra)
        assert got.status_code == 201, got.text
        made.append(got.json()["tournament_id"])
        fake.advance(1)  # one created after the other: the order is theirs, not the ids'
    public, private, marys = made
    cancel = {"action": "cancel", "reason": "wrong clock"}
    assert c.post(f"/api/tournaments/{public}/admin", json=cancel, headers=ADMIN).status_code == 204

    every = c.get(LIST, headers=ADMIN)
    assert ids(every) == [marys, private, public]  # the newest first, the private one too
    assert every.json()["total"] == 3
    rows = {r["tournament_id"]: r for r in every.json()["rows"]}
    assert rows[private]["private"] and not rows[public]["private"]
    assert rows[public]["status"] == "canceled"
    assert (rows[marys]["creator"], rows[marys]["creator_name"]) == (mary["player_id"], "modmary")
    assert rows[public]["creator"] is None  # made with the admin token
    assert private not in str(c.get("/api/tournaments").json())  # the public list still hides it
    assert ids(c.get(LIST, params={"status": "canceled"}, headers=ADMIN)) == [public]
    assert ids(c.get(LIST, params={"status": "finished"}, headers=ADMIN)) == []
    second = c.get(LIST, params={"limit": 1, "offset": 1}, headers=ADMIN)
    assert ids(second) == [private] and second.json()["total"] == 3
    assert ids(c.get(LIST, params={"offset": 3}, headers=ADMIN)) == []
    # a moderator reads the same list with their player token
    assert ids(c.get(LIST, headers=as_player(mary))) == [marys, private, public]

    # a player, a guest and nobody are refused, and no row is read for them
    ana = sign_up(c, "anaplayer")
    guest = c.post("/api/players", json={"name": "Cris"}).json()
    for headers in (as_player(ana), {"X-Player-Token": guest["player_token"]}, {}):
        refused = c.get(LIST, headers=headers)
        assert (refused.status_code, refused.json()["code"]) == (403, "not_moderator")
        assert "rows" not in refused.json()
    wrong = c.get(LIST, headers={"Authorization": "Bearer not-the-token"})
    assert wrong.status_code == 403


def test_the_list_is_bounded(client: TestClient, fake: FakeClock) -> None:
    for params in (
        {"limit": 0}, {"limit": 101}, {"offset": -1}, {"offset": 1_000_001},
        {"status": "paused"}, {"limit": "many"},
    ):  # fmt: skip
        got = client.get(LIST, params=params, headers=ADMIN)
        assert (got.status_code, got.json()["code"]) == (422, "invalid_request"), params
    assert client.get(LIST, params={"limit": 100}, headers=ADMIN).status_code == 200


def test_a_moderator_pauses_and_removes_and_the_record_names_them(
    client: TestClient, fake: FakeClock
) -> None:
    c = client
    mary = moderator(c)
    tid = create(c, fake, starts_at=at(fake)).json()["tournament_id"]
    ana, bea, cid = (sign_up(c, n) for n in ("anaa", "beab", "cidc"))
    for p in (ana, bea, cid):
        assert c.post(f"/api/tournaments/{tid}/join", headers=as_player(p)).status_code == 204
    admin = f"/api/tournaments/{tid}/admin"
    pause = {"action": "pause", "reason": "server maintenance"}
    refused = c.post(admin, json=pause, headers=as_player(ana))
    assert (refused.status_code, refused.json()["code"]) == (403, "not_moderator")
    refused = c.get(f"/api/tournaments/{tid}/history", headers=as_player(ana))
    assert (refused.status_code, refused.json()["code"]) == (403, "not_moderator")

    with on_the_page(c, tid, [ana, bea]):
        tick(c)  # starts
        tick(c)  # pairs Ana and Bea
        assert c.post(admin, json=pause, headers=as_player(mary)).status_code == 204
    remove = {"action": "remove", "player_id": cid["player_id"], "reason": "smurf account"}
    assert c.post(admin, json=remove, headers=as_player(mary)).status_code == 204
    unknown = c.post(admin, json={**remove, "player_id": "nobody"}, headers=as_player(mary))
    assert unknown.status_code == 404

    history = c.get(f"/api/tournaments/{tid}/history", headers=as_player(mary))
    assert history.status_code == 200, history.text
    events = history.json()["events"]
    assert [(e["action"], e["by"], e["by_name"]) for e in events] == [
        ("remove", mary["player_id"], "modmary"),
        ("pause", mary["player_id"], "modmary"),
    ]
    assert events[0]["detail"] == {"reason": "smurf account", "player_id": cid["player_id"]}
    assert events[0]["player_name"] == "cidc" and events[1]["player_name"] is None
    (game,) = history.json()["pairings"]
    assert {s["player_id"] for s in game["seats"]} == {ana["player_id"], bea["player_id"]}
    assert game["match_id"] and game["ended_at"] is None
    # the admin's own actions are recorded as the admin's
    resume = {"action": "resume", "reason": "back up"}
    assert c.post(admin, json=resume, headers=ADMIN).status_code == 204
    first = c.get(f"/api/tournaments/{tid}/history", headers=ADMIN).json()["events"][0]
    assert (first["action"], first["by"], first["by_name"]) == ("resume", "admin", None)
    row = c.get(LIST, headers=ADMIN).json()["rows"][0]
    assert (row["tournament_id"], row["paused"], row["players"]) == (tid, False, 2)


def test_the_console_pages_need_its_sign_in(client: TestClient, fake: FakeClock) -> None:
    c = client
    tid = create(c, fake).json()["tournament_id"]
    for path in ("/admin/tournaments", f"/admin/tournaments/{tid}"):
        assert c.get(path, follow_redirects=False).headers["location"] == "/admin/login"
    signed = c.post("/admin/login", data={"token": ADMIN_TOKEN}, follow_redirects=False)
    assert signed.status_code == 303
    assert "admin-tournaments.js" in c.get("/admin/tournaments").text
    one = c.get(f"/admin/tournaments/{tid}")
    assert one.status_code == 200 and tid in one.text and "admin-tournament.js" in one.text
    # the session cookie is the admin on the API too
    assert ids(c.get(LIST)) == [tid]
