"""Issue 42, the pages around the tables: what a replay step, "my games", a profile and the admin
list say about the computer (its true level: an easy match used to read "normal" everywhere but
the live table), what "my games" says about each match (its game and date), and what a shared
match address tells a browser that holds no seat in it."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from .accounts_helpers import as_player, profile, resign, sign_up
from .conftest import ADMIN_TOKEN

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def easy_match(client: TestClient, headers: dict[str, str] | None = None) -> dict[str, Any]:
    body = {"role": "editor", "opponent": "bot", "level": "easy"}
    made = client.post("/api/matches", json=body, headers=headers or {})
    assert made.status_code == 201, made.text
    seat: dict[str, Any] = made.json()
    return seat


def test_a_replay_step_names_the_level_the_computer_played(client: TestClient) -> None:
    made = easy_match(client)
    assert resign(client, made["match_id"], made["seat_token"]).status_code == 200
    step = client.get(
        f"/api/matches/{made['match_id']}/replay/0",
        headers={"Authorization": f"Bearer {made['seat_token']}"},
    )
    assert step.status_code == 200, step.text
    assert step.json()["players"]["nixon"]["level"] == "easy"


def test_my_games_and_the_profile_name_the_level_the_game_and_the_date(client: TestClient) -> None:
    me = sign_up(client, "levelled")
    ongoing = easy_match(client, as_player(me))
    finished = easy_match(client, as_player(me))
    assert resign(client, finished["match_id"], finished["seat_token"]).status_code == 200
    mine = client.get("/api/players/me/matches", headers=as_player(me)).json()
    (live,) = mine["ongoing"]
    assert live["match_id"] == ongoing["match_id"]
    assert live["opponent"]["level"] == "easy" and live["game"] == "watergate"
    assert live["updated_at"].startswith("20")
    (done,) = mine["recent"]
    assert done["opponent"]["level"] == "easy" and done["game"] == "watergate"
    assert done["ended_at"].startswith("20")
    (shown,) = profile(client, me["player_id"])["recent"]
    assert shown["opponent"]["level"] == "easy"


def test_the_admin_list_and_step_name_the_level(client: TestClient) -> None:
    made = easy_match(client)
    listed = client.get("/api/admin/matches", headers=ADMIN)
    assert listed.status_code == 200, listed.text
    (row,) = [m for m in listed.json() if m["match_id"] == made["match_id"]]
    assert row["players"]["nixon"]["level"] == "easy"
    paged = client.get("/api/admin/matches-page", headers=ADMIN).json()["rows"]
    (row,) = [m for m in paged if m["match_id"] == made["match_id"]]
    assert row["players"]["nixon"]["level"] == "easy"
    step = client.get(f"/api/admin/matches/{made['match_id']}/steps/0", headers=ADMIN).json()
    assert step["players"]["nixon"]["level"] == "easy"


def test_a_match_tells_a_browser_without_a_seat_whether_it_may_watch(client: TestClient) -> None:
    """A shared address of a public match offers its spectator view; a private one's never hands
    out its spectator link; an unknown one is not found."""
    host = sign_up(client, "publichost")
    public = client.post(
        "/api/matches", json={"role": "editor", "visibility": "public"}, headers=as_player(host)
    ).json()
    found = client.get(f"/api/matches/{public['match_id']}/access").json()
    assert found["game"] == "watergate" and found["status"] == "waiting"
    watch = client.get(found["watch_path"])  # the spectator page, and its view with that key
    assert watch.status_code == 200
    key = found["watch_path"].split("key=")[1]
    assert client.get(f"/api/matches/{public['match_id']}/spectate?key={key}").status_code == 200

    private = easy_match(client)
    assert client.get(f"/api/matches/{private['match_id']}/access").json()["watch_path"] is None
    assert client.get("/api/matches/nosuchmatch/access").status_code == 404


def test_the_invite_landing_says_who_invites_to_which_seat_and_clock(client: TestClient) -> None:
    host = sign_up(client, "inviter42")
    body = {"role": "editor", "opponent": "human", "clock": "turn-3"}
    made = client.post("/api/matches", json=body, headers=as_player(host)).json()
    code = made["invite_url"].rsplit("/", 1)[1]
    page = client.get(f"/invite/{code}?lang=de").text
    facts = page[page.index('id="invite-facts"') : page.index("</dl>")]
    assert "inviter42 lädt dich ein" in facts
    assert "Nixon" in facts and "3 Tage pro Zug" in facts
    assert 'id="invite-facts"' not in client.get("/invite/nosuchcode").text
