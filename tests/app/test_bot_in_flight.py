"""One request in flight per bot API token (contract v1.2 "Bots", issue 45, as lichess does): a
token's second request while its first is still being answered is `429
too_many_requests_in_flight` with Retry-After, and the token is paused for a minute — on the
app's injected clock, so the test moves time instead of waiting; the token's streams do not
count, another token is not held up; across two apps sharing Redis (two processes) it is one
flight; with Redis down it is counted in memory, never a 500.

A request is held in flight by a bot service call that waits for the test to let it go."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.http.inflight import PAUSE_S, Flights
from app.main import create_app
from app.metrics import Metrics

from .accounts_helpers import as_player, sign_up
from .conftest import make_settings
from .test_api import assert_error, bearer, invite_code
from .test_bot_api import token, upgrade
from .test_clocks import FakeClock

HELD_S = 10.0  # a held request is let go within this, or the test fails
# every other limit out of the way: these requests all come from one test client's address
ROOMY = {
    f"rate_limit_{bucket}": "1000/minute"
    for bucket in ("account", "create", "join", "bot", "social", "player")
}


@contextmanager
def serve(url: str, clock: FakeClock, **more: Any) -> Iterator[TestClient]:
    settings = make_settings(url, rate_limits="on", **ROOMY, **more)
    with TestClient(create_app(settings, clock=clock)) as client:
        yield client


class Holder:
    """Holds the next bot action of the app in flight until `release`; the request runs on a
    thread of its own, its answer kept."""

    def __init__(self, client: TestClient) -> None:
        self.entered, self.released = threading.Event(), threading.Event()
        self.answer: Any = None
        play = client.app.state.ctx.bot_play  # type: ignore[attr-defined]
        real = play.act

        async def held(*args: Any) -> str:
            self.entered.set()
            await asyncio.to_thread(self.released.wait, HELD_S)
            return str(await real(*args))

        play.act = held
        self.play, self.real = play, real

    def send(self, client: TestClient, match_id: str, api: str, view: dict[str, Any]) -> None:
        body = {"action": view["legal_actions"][0], "expected_version": view["version"]}

        def run() -> None:
            self.answer = client.post(
                f"/api/bot/matches/{match_id}/actions", json=body, headers=bearer(api)
            )

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        assert self.entered.wait(HELD_S), "the action never reached the service"

    def release(self) -> Any:
        self.released.set()
        self.thread.join(HELD_S)
        self.play.act = self.real
        return self.answer


def bot_seated(client: TestClient, names: tuple[str, str]) -> tuple[str, str, dict[str, Any]]:
    """A bot account (its token) holding Nixon's seat of a person's match, where the person has
    moved so that the bot decides: (match id, token, the bot's view)."""
    ana, robo = sign_up(client, names[0]), sign_up(client, names[1])
    api = token(client, robo, "bot:play", "match:read", "challenge:write")["token"]
    assert upgrade(client, api).status_code == 200
    made = client.post(
        "/api/matches", json={"role": "editor", "opponent": "human"}, headers=as_player(ana)
    ).json()
    claimed = client.post(f"/api/invites/{invite_code(made)}/claim", headers=as_player(robo))
    assert claimed.status_code == 200, claimed.text
    match_id, seat = made["match_id"], bearer(claimed.json()["seat_token"])
    person = bearer(made["seat_token"])
    while not (mine := client.get(f"/api/matches/{match_id}", headers=seat).json())[
        "legal_actions"
    ]:
        hers = client.get(f"/api/matches/{match_id}", headers=person).json()
        body = {"action": hers["legal_actions"][0], "expected_version": hers["version"]}
        moved = client.post(f"/api/matches/{match_id}/actions", json=body, headers=person)
        assert moved.status_code == 200, moved.text
    return match_id, api, mine


def refused(answer: Any, wait: int) -> None:
    assert_error(answer, 429, "too_many_requests_in_flight")
    assert answer.headers["retry-after"] == str(wait)


def test_a_second_request_in_flight_pauses_the_token_for_a_minute(sqlite_url: str) -> None:
    fake = FakeClock()
    with serve(sqlite_url, fake) as client:
        match_id, api, view = bot_seated(client, ("ana_flight", "robo_flight"))
        _, other_api, _ = bot_seated(client, ("bo_flight", "robo_other_flight"))
        chat = f"/api/bot/matches/{match_id}/chat"
        holder = Holder(client)
        holder.send(client, match_id, api, view)  # in flight until released

        refused(client.post(chat, json={"phrase": "thinking"}, headers=bearer(api)), 60)
        # its streams are not requests in flight: they have caps of their own
        with client.stream(
            "GET", f"/api/bot/matches/{match_id}/stream", headers=bearer(api)
        ) as stream:
            assert stream.status_code == 200
        # another token is not held up by this one's flight
        assert upgrade(client, other_api).status_code == 200

        assert holder.release().status_code == 200  # the first one was answered
        fake.advance(20)
        refused(client.post(chat, json={"phrase": "thinking"}, headers=bearer(api)), 40)
        fake.advance(39.5)
        refused(client.post(chat, json={"phrase": "thinking"}, headers=bearer(api)), 1)
        fake.advance(0.5)  # the minute is over
        assert (
            client.post(chat, json={"phrase": "thinking"}, headers=bearer(api)).status_code == 204
        )
        # one at a time is never refused, however many
        for _ in range(5):
            assert upgrade(client, api).status_code == 200


def test_two_processes_sharing_redis_see_one_flight(sqlite_url: str, redis_url: str) -> None:
    fake = FakeClock()
    with serve(sqlite_url, fake, redis_url=redis_url) as first:
        match_id, api, view = bot_seated(first, ("ana_redis", "robo_redis"))
        with serve(sqlite_url, fake, redis_url=redis_url) as second:
            holder = Holder(first)
            holder.send(first, match_id, api, view)  # in flight in the first process
            refused(upgrade(second, api), 60)  # ... seen by the second
            assert holder.release().status_code == 200
            fake.advance(30)
            refused(upgrade(first, api), 30)  # the pause the second set holds in the first
            fake.advance(30)
            assert upgrade(second, api).status_code == 200
            assert upgrade(first, api).status_code == 200


def test_with_redis_down_the_flight_is_counted_in_memory() -> None:
    async def run() -> None:
        fake = FakeClock()
        flights = Flights(Metrics(), fake.now, "redis://127.0.0.1:1/0")  # nobody listens there
        try:
            assert await flights.enter("k") == (None, False)
            assert await flights.enter("k") == (int(PAUSE_S), False)
            await flights.leave("k", False)
            fake.advance(PAUSE_S)
            assert await flights.enter("k") == (None, False)
        finally:
            await flights.close()

    asyncio.run(run())


@pytest.mark.parametrize(
    ("method", "path", "counted"),
    [
        ("POST", "/api/bot/matches/m/actions", True),
        ("POST", "/api/challenges", True),
        ("GET", "/api/bot/matches/m/stream", False),
        ("GET", "/api/stream/events", False),
        ("GET", "/api/matches/m", False),  # a seat token's call, not the bot API
    ],
)
def test_which_requests_count(method: str, path: str, counted: bool) -> None:
    from app.http.inflight import token_key

    scope = {
        "type": "http", "method": method, "path": path,
        "headers": [(b"authorization", b"Bearer abc")],
    }  # fmt: skip
    assert (token_key(scope) is not None) is counted
    assert token_key({**scope, "headers": []}) is None  # no token: nothing to key it by
