"""Nations over HTTP (contract v1.1 "Games"): creating a Nations match with its own seats, invites,
a whole match to its score, the finished view's outcome, refusals, resigning, rematches, spectators,
public replays with their deal check, the admin console, and the table's own address."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .conftest import ADMIN_TOKEN
from .nations_play import SEATS, act, bearer, claim, create, play_to_the_end, started, view

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def refused(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["code"] == code, response.text


# ---- creating and joining ---------------------------------------------------------------------


def test_a_nations_match_against_a_friend_seats_p1_and_p2(client: TestClient) -> None:
    made = create(client, "p2")
    assert made["role"] == "p2" and made["invite_url"].startswith("http://testserver/invite/")
    waiting = view(client, made["match_id"], made["seat_token"])
    assert (waiting["status"], waiting["legal_actions"]) == ("waiting", [])
    claimed = claim(client, made)
    assert (claimed["match_id"], claimed["role"]) == (made["match_id"], "p1")
    tokens = {"p2": made["seat_token"], "p1": claimed["seat_token"]}
    seen = {seat: view(client, made["match_id"], tokens[seat]) for seat in SEATS}
    decider = seen["p1"]["state"]["decision"]["seat"]
    for seat, v in seen.items():
        assert (v["role"], v["status"], v["version"]) == (seat, "active", 0)
        assert v["state"]["game"] == "nations"
        assert set(v["state"]["nations"]) == set(SEATS)
        assert set(v["players"]) == set(SEATS) and v["opponent"] == "human"
        assert bool(v["legal_actions"]) == (seat == decider)  # only the decider has choices
        assert "outcome" not in v
    refused(
        client.post(made["invite_url"].replace("http://testserver", "") + "/claim"),
        404,
        "not_found",
    )


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "nations", "role": "editor"}, "invalid_role"),
        ({"game": "nations", "role": "p3"}, "invalid_role"),
        ({"game": "watergate", "role": "p1"}, "invalid_role"),
        ({"role": "p2"}, "invalid_role"),  # the default game is Watergate
        ({"game": "chess", "role": "random"}, "invalid_request"),
        ({"game": "nations", "role": "p" * 40}, "invalid_request"),
    ],
)
def test_a_role_is_checked_against_the_chosen_game(
    client: TestClient, body: dict[str, Any], code: str
) -> None:
    refused(client.post("/api/matches", json=body), 422, code)
    assert client.get("/api/admin/matches", headers=ADMIN).json() == []  # nothing was made


def test_without_a_game_the_match_is_watergate(client: TestClient) -> None:
    made = client.post("/api/matches", json={"role": "nixon"}).json()
    assert made["role"] == "nixon"
    row = client.get("/api/admin/matches", headers=ADMIN).json()[0]
    assert row["game"] == "watergate"


def test_a_random_nations_role_is_either_seat_and_both_occur(client: TestClient) -> None:
    roles = {create(client, "random")["role"] for _ in range(24)}
    assert roles == set(SEATS)


def test_creating_a_nations_match_is_logged_with_its_game(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="watergate.matches"):
        made = create(client, "p1", "bot")
    lines = [r for r in caplog.records if r.getMessage() == "match created"]
    said = [getattr(r, "fields", {}) for r in lines]
    assert [(f.get("match_id"), f.get("game")) for f in said] == [(made["match_id"], "nations")]
    assert made["seat_token"] not in caplog.text


# ---- playing ----------------------------------------------------------------------------------


def test_a_whole_nations_match_over_http_ends_with_scores_for_both_seats(
    any_db_url: str, make_client: Callable[..., TestClient]
) -> None:
    client = make_client(any_db_url)
    match_id, tokens = started(client)
    final = {seat: view(client, match_id, tokens[seat]) for seat in SEATS}
    play_to_the_end(client, match_id, tokens, seed=3)
    final = {seat: view(client, match_id, tokens[seat]) for seat in SEATS}
    for v in final.values():
        assert (v["status"], v["legal_actions"]) == ("finished", [])
        assert v["state"]["round"] == 8 and v["state"]["phase"] == "over"
        outcome = v["outcome"]
        assert outcome["winner"] == v["winner"] and v["winner"] in SEATS
        assert set(outcome["scores"]) == set(SEATS)
        assert outcome["scores"] == v["state"]["scores"]  # the engine's own final score
        loser = next(s for s in SEATS if s != v["winner"])
        assert outcome["scores"][v["winner"]] >= outcome["scores"][loser]
    assert final["p1"]["outcome"] == final["p2"]["outcome"]
    over = act(client, match_id, tokens["p1"], {"type": "pass"}, final["p1"]["version"])
    refused(over, 422, "match_over")


def test_refusals_in_a_nations_match_have_their_codes(client: TestClient) -> None:
    match_id, tokens = started(client)
    seen = view(client, match_id, tokens["p1"])
    decider = seen["state"]["decision"]["seat"]
    waiting = next(s for s in SEATS if s != decider)
    offered = view(client, match_id, tokens[decider])["legal_actions"]
    refused(act(client, match_id, tokens[waiting], offered[0], 0), 422, "not_your_decision")
    refused(act(client, match_id, tokens[decider], {"type": "hire"}, 0), 422, "illegal_action")
    refused(act(client, match_id, tokens[decider], {"type": "conquer"}, 0), 422, "malformed_action")
    refused(act(client, match_id, tokens[decider], offered[0], 5), 409, "stale_version")
    assert act(client, match_id, tokens[decider], offered[0], 0).status_code == 200


def test_resigning_a_nations_match_gives_the_other_seat_the_win_without_scores(
    client: TestClient,
) -> None:
    match_id, tokens = started(client)
    assert (
        client.post(f"/api/matches/{match_id}/resign", headers=bearer(tokens["p2"])).status_code
        == 200
    )
    v = view(client, match_id, tokens["p1"])
    assert (v["status"], v["winner"], v["ended_by"]) == ("finished", "p1", "p2")
    assert v["outcome"] == {"winner": "p1", "reason": "resigned", "ranking": [["p1"], ["p2"]]}


def test_a_nations_rematch_is_nations_with_the_seats_swapped(client: TestClient) -> None:
    made = create(client, "p1", "bot")
    old, token = made["match_id"], made["seat_token"]
    assert client.post(f"/api/matches/{old}/resign", headers=bearer(token)).status_code == 200
    response = client.post(f"/api/matches/{old}/rematch", headers=bearer(token))
    assert response.status_code == 200, response.text
    seat = response.json()
    assert (seat["status"], seat["role"]) == ("started", "p2")
    v = view(client, seat["match_id"], seat["seat_token"])
    assert (v["role"], v["status"], v["opponent"], v["state"]["game"]) == (
        "p2",
        "active",
        "bot",
        "nations",
    )


def test_a_spectator_of_a_nations_match_reads_the_same_table_without_choices(
    client: TestClient,
) -> None:
    match_id, tokens = started(client)
    seat_view = view(client, match_id, tokens["p1"])
    path = seat_view["spectate_path"]
    assert path.startswith(f"/nations/watch/{match_id}?key="), path
    key = path.rsplit("key=", 1)[1]
    seen = client.get(f"/api/matches/{match_id}/spectate?key={key}").json()
    assert (seen["role"], seen["legal_actions"]) == (None, [])
    # NR1: every seat and a spectator read the same table, bar who is looking
    assert {**seen["state"], "viewer": "p1"} == seat_view["state"]
    refused(client.get(f"/api/matches/{match_id}/spectate?key=wrong"), 403, "wrong_key")


# ---- after the end: replays, the deal's check, the admin --------------------------------------


def test_a_finished_nations_match_replays_publicly_and_its_deal_checks_out(
    client: TestClient,
) -> None:
    match_id, tokens = started(client)
    refused(client.get(f"/api/replays/{match_id}"), 404, "not_found")  # live: as if missing
    final = play_to_the_end(client, match_id, tokens, seed=5)
    replay = client.get(f"/api/replays/{match_id}").json()
    assert len(replay["steps"]) == final["version"] + 1
    assert replay["steps"][-1]["state"]["scores"] == final["outcome"]["scores"]
    assert replay["winner"] == final["winner"] and replay["fairness"]["seed"]
    assert replay["fairness"]["algorithm"] == final["fairness"]["algorithm"]
    verdict = client.get(f"/api/replays/{match_id}/verify").json()
    assert verdict["ok"] is True, verdict
    assert {c["ok"] for c in verdict["checks"].values()} == {True}
    export = client.get(f"/api/replays/{match_id}/export").json()
    assert export["game"] == "nations" and export["length"] == final["version"]


def test_the_admin_console_shows_steps_and_verifies_a_nations_match(client: TestClient) -> None:
    match_id, tokens = started(client)
    final = play_to_the_end(client, match_id, tokens, seed=7)
    row = next(
        r
        for r in client.get("/api/admin/matches", headers=ADMIN).json()
        if r["match_id"] == match_id
    )
    assert (row["game"], row["kinds"], row["winner"]) == (
        "nations",
        {"p1": "human", "p2": "human"},
        final["winner"],
    )
    detail = client.get(f"/api/admin/matches/{match_id}", headers=ADMIN).json()
    assert len(detail["actions"]) == final["version"]
    assert {a["role"] for a in detail["actions"]} == set(SEATS)
    assert detail["view"]["deck_cards"]["progress"] is not None  # the admin sees the decks
    first = client.get(f"/api/admin/matches/{match_id}/steps/0", headers=ADMIN).json()
    assert first["view"]["round"] == 1 and first["action"] is None
    middle = client.get(f"/api/admin/matches/{match_id}/steps/10", headers=ADMIN).json()
    assert middle["action"] == {k: detail["actions"][9][k] for k in ("seq", "role", "action")}
    last = client.get(
        f"/api/admin/matches/{match_id}/steps/{final['version']}", headers=ADMIN
    ).json()
    assert (
        last["winner"] == final["winner"] and last["view"]["scores"] == final["outcome"]["scores"]
    )
    export = client.get(f"/api/admin/matches/{match_id}/export", headers=ADMIN).json()
    checked = client.post("/api/admin/verify", headers=ADMIN, json=export).json()
    assert (checked["ok"], checked["winner"]) == (True, final["winner"]), checked
    tampered = {**export, "actions": export["actions"][:5] + export["actions"][6:]}
    assert client.post("/api/admin/verify", headers=ADMIN, json=tampered).json()["ok"] is False
    as_watergate = {**export, "game": "watergate"}  # the same record read as the other game
    assert client.post("/api/admin/verify", headers=ADMIN, json=as_watergate).json()["ok"] is False
    refused(
        client.post("/api/admin/verify", headers=ADMIN, json={**export, "game": "go"}),
        422,
        "invalid_export",
    )


# ---- the table's address ----------------------------------------------------------------------


def test_a_nations_table_has_its_own_address_and_title(client: TestClient) -> None:
    match_id, tokens = started(client)
    for kind, query in (("match", ""), ("watch", "?key=abc")):
        moved = client.get(f"/{kind}/{match_id}{query}", follow_redirects=False)
        assert moved.status_code == 307
        assert moved.headers["location"] == f"/nations/{kind}/{match_id}{query}"
    # a replay's address tells a live match from no match by nothing (issue 40, finding 21)
    missing = client.get("/replay/000000000000000000000000", follow_redirects=False)
    live = client.get(f"/replay/{match_id}", follow_redirects=False)
    assert (live.status_code, missing.status_code) == (200, 200)
    assert "<title>Nations" not in live.text
    assert client.post(f"/api/matches/{match_id}/resign", headers=bearer(tokens["p1"])).is_success
    moved = client.get(f"/replay/{match_id}", follow_redirects=False)  # ended: its replay is public
    assert (moved.status_code, moved.headers["location"]) == (307, f"/nations/replay/{match_id}")
    page = client.get(f"/nations/match/{match_id}?lang=de")
    assert page.status_code == 200
    assert "<title>Nations" in page.text and "/static/js/nations/table.js" in page.text
    watergate = client.post("/api/matches", json={"role": "editor"}).json()["match_id"]
    back = client.get(f"/nations/match/{watergate}", follow_redirects=False)
    assert (back.status_code, back.headers["location"]) == (307, f"/match/{watergate}")
    assert client.get(f"/match/{watergate}", follow_redirects=False).status_code == 200
