"""Tables of N seats at their edges (contract v1.2, issue 39): a table's rematch offer that not
everyone answers in time lapses; a finished table's public replay, export and verify name every
seat and replay to the same end; quick pairing seats a table only with players who asked for the
same clock and the same rated choice."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.persistence.records import REMATCH_SECONDS
from tests.app.accounts_helpers import sign_up
from tests.app.nations_play import bearer, view
from tests.app.test_clocks import FakeClock
from tests.app.test_lifecycle import serve
from tests.app.test_players import as_player, new_player
from tests.app.test_tables import claim_link, create, end_now, play_out


@pytest.fixture
def timed(sqlite_url: str) -> Iterator[tuple[TestClient, FakeClock]]:
    """The app on a clock the test moves."""
    clock = FakeClock()
    with serve(sqlite_url, clock) as client:
        yield client, clock


def test_a_tables_rematch_offer_lapses_when_not_everyone_answers_in_time(
    timed: tuple[TestClient, FakeClock],
) -> None:
    client, fake = timed
    made = create(client, role="p1", players=3)
    match_id, tokens = made["match_id"], {"p1": made["seat_token"]}
    for seat, url in made["invites"].items():
        tokens[seat] = claim_link(client, url)["seat_token"]
    end_now(client, match_id)
    offered = client.post(f"/api/matches/{match_id}/rematch", headers=bearer(tokens["p1"]))
    assert offered.json() == {"status": "offered"}
    accepted = client.post(f"/api/matches/{match_id}/rematch/accept", headers=bearer(tokens["p2"]))
    assert accepted.status_code == 200, accepted.text  # p3 has not answered

    fake.advance(REMATCH_SECONDS + 1)
    rematch = view(client, match_id, tokens["p1"])["rematch"]
    assert rematch["expired"] is True and rematch["match_id"] is None
    late = client.post(f"/api/matches/{match_id}/rematch/accept", headers=bearer(tokens["p3"]))
    assert late.status_code == 409 and late.json()["code"] == "rematch_expired"


def test_a_finished_tables_replay_export_and_verify_name_every_seat(client: TestClient) -> None:
    made = create(client, role="p1", players=3, seats={"p2": "bot", "p3": "bot"})
    match_id, tokens = made["match_id"], {"p1": made["seat_token"]}
    with client.websocket_connect(f"/ws/matches/{match_id}?token={tokens['p1']}") as ws:
        final = play_out(client, match_id, tokens, ws, seed=3)
    assert final["status"] == "finished"

    replay = client.get(f"/api/replays/{match_id}")
    assert replay.status_code == 200, replay.text
    shown: dict[str, Any] = replay.json()
    assert len(shown["steps"][-1]["state"]["nations"]) == 3  # every nation, to the last step
    assert shown["winner"] == final["winner"]
    exported = client.get(f"/api/replays/{match_id}/export").json()
    assert exported["options"].get("players") == 3
    assert {a["seat"] if "seat" in a else a["role"] for a in exported["actions"]} == {
        "p1",
        "p2",
        "p3",
    }
    verified = client.get(f"/api/replays/{match_id}/verify").json()
    assert verified["ok"] is True, verified


def quick(client: TestClient, player: dict[str, str], **body: Any) -> dict[str, Any]:
    answer = client.post(
        "/api/lobby/quick",
        json={"game": "nations", "players": 3, **body},
        headers=as_player(player),
    )
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_quick_pairing_seats_a_table_only_with_the_same_clock(client: TestClient) -> None:
    ana, bob, cy = (new_player(client, n) for n in ("Ana", "Bob", "Cy"))
    opened = quick(client, ana, clock="realtime-15")
    assert opened["created"] is True
    other_clock = quick(client, bob, clock="none")
    assert other_clock["created"] is True and other_clock["match_id"] != opened["match_id"]
    same = quick(client, cy, clock="realtime-15")
    assert (same["created"], same["match_id"]) == (False, opened["match_id"])


def test_quick_pairing_seats_a_table_only_with_the_same_rated_choice(client: TestClient) -> None:
    ana, bob, cy = (sign_up(client, n) for n in ("ana_quick", "bob_quick", "cy_quick"))
    opened = quick(client, ana, rated=True)
    assert opened["created"] is True
    casual = quick(client, bob, rated=False)
    assert casual["created"] is True and casual["match_id"] != opened["match_id"]
    rated = quick(client, cy, rated=True)
    assert (rated["created"], rated["match_id"]) == (False, opened["match_id"])
