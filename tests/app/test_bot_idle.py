"""An inactive bot forfeits (contract v1.2 "Bots", issue 45): in a match without a clock, a bot
account's seat that has had the decision for BOT_IDLE_HOURS (24 by default) without acting
loses as if its time ran out, at the next sweep; a person's idleness is not judged so (the
30-day abandonment is theirs), and a bot that acts in time plays on. Time is the app's injected
clock, moved by the test; sweeps are run by hand."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app

from .accounts_helpers import rated_match, sign_up
from .conftest import make_settings
from .test_api import bearer
from .test_bot_challenges import bot
from .test_clocks import START, FakeClock
from .test_lifecycle import sweep

HOUR = 3600.0


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def client(any_db_url: str, fake: FakeClock) -> Iterator[TestClient]:
    settings = make_settings(any_db_url, sweep_seconds=1e6)  # sweeps only when the test says
    with TestClient(create_app(settings, clock=fake)) as c:
        yield c


def view(c: TestClient, match_id: str, token: str) -> dict[str, Any]:
    found = c.get(f"/api/matches/{match_id}", headers=bearer(token))
    assert found.status_code == 200, found.text
    return dict(found.json())


def play_until(c: TestClient, match_id: str, seats: dict[str, str], waiting: str) -> None:
    """Both seats act (first legal action) until the match waits on `waiting` alone."""
    for _ in range(200):
        views = {seat: view(c, match_id, token) for seat, token in seats.items()}
        movers = [s for s, v in views.items() if v["legal_actions"]]
        if movers == [waiting]:
            return
        mover = next(s for s in movers if s != waiting)
        seen = views[mover]
        body = {"action": seen["legal_actions"][0], "expected_version": seen["version"]}
        sent = c.post(f"/api/matches/{match_id}/actions", json=body, headers=bearer(seats[mover]))
        assert sent.status_code == 200, sent.text
    pytest.fail(f"the match never waited on {waiting} alone")


def test_a_bot_that_sits_on_its_turn_forfeits_after_the_stated_time(
    client: TestClient, fake: FakeClock
) -> None:
    ana = sign_up(client, "ana_waits")
    robo, _ = bot(client, "robo_sleeps")
    match_id, seats = rated_match(client, ana, robo, rated=False)  # no clock
    play_until(client, match_id, seats, "nixon")  # the bot's turn
    fake.advance(23 * HOUR)
    assert sweep(client) == []  # within its time
    fake.advance(2 * HOUR)
    assert sweep(client) == [match_id]
    ended = view(client, match_id, seats["editor"])
    assert (ended["status"], ended["winner"]) == ("finished", "editor")
    assert sweep(client) == []  # once


def test_a_person_sitting_on_their_turn_is_not_judged_by_the_bot_rule(
    client: TestClient, fake: FakeClock
) -> None:
    ana = sign_up(client, "ana_sleeps")
    robo, _ = bot(client, "robo_waits")
    match_id, seats = rated_match(client, ana, robo, rated=False)
    play_until(client, match_id, seats, "editor")  # the person's turn
    fake.advance(48 * HOUR)
    assert sweep(client) == []
    assert view(client, match_id, seats["nixon"])["status"] == "active"
    play_until(client, match_id, seats, "nixon")  # the bot's turn starts now
    fake.advance(23 * HOUR)
    assert sweep(client) == []  # its 24 hours count from the move that gave it the turn
    assert view(client, match_id, seats["nixon"])["status"] == "active"
