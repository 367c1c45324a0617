"""The bot API (contract v1.2 "Bots", issue 45): personal API tokens (made with scopes, shown
once, listed without their secret, revoked), the upgrade of an account with no games to a bot
account, and a bot playing its seat with its token: its seat's pushes as JSON lines — exactly the
seat's own view, nothing of the other seat's — its actions, and its resignation ending the
stream. On SQLite and PostgreSQL."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .accounts_helpers import as_player, invite_code, sign_up
from .test_api import assert_error, bearer

MakeClient = Callable[..., TestClient]


@pytest.fixture
def db_client(any_db_url: str, make_client: MakeClient) -> TestClient:
    return make_client(any_db_url)


def token(client: TestClient, account: dict[str, str], *scopes: str) -> dict[str, Any]:
    made = client.post(
        "/api/account/tokens",
        json={"scopes": list(scopes), "label": "my bot"},
        headers=as_player(account),
    )
    assert made.status_code == 201, made.text
    found: dict[str, Any] = made.json()
    return found


def upgrade(client: TestClient, api_token: str) -> Any:
    return client.post("/api/bot/account/upgrade", headers=bearer(api_token))


def test_a_token_is_shown_once_listed_without_its_secret_and_revoked(db_client: TestClient) -> None:
    ana = sign_up(db_client, "ana_tokens")
    made = token(db_client, ana, "bot:play", "match:read")
    assert made["scopes"] == ["bot:play", "match:read"] and len(made["token"]) >= 40
    listed = db_client.get("/api/account/tokens", headers=as_player(ana)).json()["tokens"]
    assert [t["token_id"] for t in listed] == [made["token_id"]]
    assert made["token"] not in json.dumps(listed) and listed[0]["last_used_at"] is None

    assert upgrade(db_client, made["token"]).status_code == 200
    listed = db_client.get("/api/account/tokens", headers=as_player(ana)).json()["tokens"]
    assert listed[0]["last_used_at"] is not None

    gone = db_client.delete(f"/api/account/tokens/{made['token_id']}", headers=as_player(ana))
    assert gone.status_code == 204
    assert_error(upgrade(db_client, made["token"]), 401, "unauthorized")
    again = db_client.delete(f"/api/account/tokens/{made['token_id']}", headers=as_player(ana))
    assert_error(again, 404, "not_found")
    assert db_client.get("/api/account/tokens", headers=as_player(ana)).json()["tokens"] == []


def test_only_an_account_makes_tokens_and_only_its_own_are_listed(db_client: TestClient) -> None:
    guest = db_client.post("/api/players", json={"name": "Visitor"}).json()
    assert "player_token" in guest, guest
    refused = db_client.post(
        "/api/account/tokens", json={"scopes": ["bot:play"]}, headers=as_player(guest)
    )
    assert_error(refused, 403, "account_required")
    ana, bo = sign_up(db_client, "ana_own"), sign_up(db_client, "bo_own")
    mine = token(db_client, ana, "match:read")
    assert db_client.get("/api/account/tokens", headers=as_player(bo)).json()["tokens"] == []
    theirs = db_client.delete(f"/api/account/tokens/{mine['token_id']}", headers=as_player(bo))
    assert_error(theirs, 404, "not_found")
    bad = db_client.post("/api/account/tokens", json={"scopes": ["admin"]}, headers=as_player(ana))
    assert bad.status_code == 422


def test_a_scope_the_token_lacks_is_refused(db_client: TestClient) -> None:
    ana = sign_up(db_client, "ana_scope")
    reader = token(db_client, ana, "match:read")
    assert_error(upgrade(db_client, reader["token"]), 403, "missing_scope")
    assert_error(upgrade(db_client, "not-a-token"), 401, "unauthorized")


def test_an_account_that_has_played_stays_a_person(db_client: TestClient) -> None:
    ana = sign_up(db_client, "ana_played")
    made = db_client.post(
        "/api/matches", json={"role": "editor", "opponent": "bot"}, headers=as_player(ana)
    )
    assert made.status_code == 201
    assert_error(upgrade(db_client, token(db_client, ana, "bot:play")["token"]), 409, "has_games")


def person_and_bot(
    client: TestClient, names: tuple[str, str], opponent: str
) -> tuple[dict[str, str], dict[str, str], str, dict[str, Any]]:
    """A person, a bot account with its API token, and a match the person made as the Editor."""
    ana, robo = sign_up(client, names[0]), sign_up(client, names[1])
    api = token(client, robo, "bot:play", "match:read")["token"]
    assert upgrade(client, api).status_code == 200
    body = {"role": "editor", "opponent": opponent}
    made = client.post("/api/matches", json=body, headers=as_player(ana))
    assert made.status_code == 201, made.text
    return ana, robo, api, made.json()


def lines(stream: Any) -> Iterator[dict[str, Any]]:
    """The stream's messages, blank keep-alive lines skipped."""
    for line in stream.iter_lines():
        if line.strip():
            yield json.loads(line)


def test_a_bot_plays_its_seat_from_the_stream_and_its_resignation_ends_it(
    db_client: TestClient,
) -> None:
    _, robo, api, made = person_and_bot(db_client, ("ana_vs_bot", "robo_bot"), "human")
    match_id = made["match_id"]
    claimed = db_client.post(f"/api/invites/{invite_code(made)}/claim", headers=as_player(robo))
    assert claimed.status_code == 200 and claimed.json()["role"] == "nixon"
    seat_token = claimed.json()["seat_token"]
    person = made["seat_token"]

    url = f"/api/bot/matches/{match_id}/stream"
    with db_client.stream("GET", url, headers=bearer(api)) as stream:
        assert stream.status_code == 200
        assert stream.headers["content-type"].startswith("application/x-ndjson")
        messages = lines(stream)
        first = next(messages)
        seat_view = db_client.get(f"/api/matches/{match_id}", headers=bearer(seat_token)).json()
        assert first["type"] == "view" and first["role"] == "nixon"
        assert first["state"] == seat_view["state"]  # the seat's own projection, no more
        editor_view = db_client.get(f"/api/matches/{match_id}", headers=bearer(person)).json()
        assert first["state"] != editor_view["state"]  # and not the Editor's (her hand)
        seen, acted = first, 0
        while acted < 3:
            if seen["legal_actions"]:
                body = {"action": seen["legal_actions"][0], "expected_version": seen["version"]}
                moved = db_client.post(
                    f"/api/bot/matches/{match_id}/actions", json=body, headers=bearer(api)
                )
                assert moved.status_code == 200, moved.text
                acted += 1
            else:
                mine = db_client.get(f"/api/matches/{match_id}", headers=bearer(person)).json()
                if mine["legal_actions"]:
                    body = {"action": mine["legal_actions"][0], "expected_version": mine["version"]}
                    sent = db_client.post(
                        f"/api/matches/{match_id}/actions", json=body, headers=bearer(person)
                    )
                    assert sent.status_code == 200, sent.text
            seen = next(m for m in messages if m.get("type") == "view")
        resigned = db_client.post(f"/api/bot/matches/{match_id}/resign", headers=bearer(api))
        assert resigned.status_code == 200, resigned.text
        last = [m for m in messages if m.get("type") == "view"][-1]  # the stream ends by itself
    assert last["status"] == "finished" and last["winner"] == "editor"


def test_a_bot_acts_only_in_its_own_seats_and_a_person_not_through_the_bot_api(
    db_client: TestClient,
) -> None:
    ana, _, api, made = person_and_bot(db_client, ("ana_other", "robo_other"), "bot")
    body = {"action": {"type": "pass"}}
    elsewhere = db_client.post(
        f"/api/bot/matches/{made['match_id']}/actions", json=body, headers=bearer(api)
    )
    assert_error(elsewhere, 403, "not_your_seat")
    assert_error(
        db_client.get(f"/api/bot/matches/{made['match_id']}/stream", headers=bearer(api)),
        403,
        "not_your_seat",
    )
    person = token(db_client, ana, "bot:play")["token"]
    mine = db_client.post(
        f"/api/bot/matches/{made['match_id']}/actions", json=body, headers=bearer(person)
    )
    assert_error(mine, 403, "not_a_bot")


def test_a_stream_the_bot_leaves_is_let_go_and_the_seat_goes_offline(db_client: TestClient) -> None:
    """A dropped stream must not stay in the hub: the seat would count as online for ever, and
    its sockets' cap would fill with the dead."""
    _, robo, api, made = person_and_bot(db_client, ("ana_drop", "robo_drop"), "human")
    match_id = made["match_id"]
    claimed = db_client.post(f"/api/invites/{invite_code(made)}/claim", headers=as_player(robo))
    assert claimed.status_code == 200
    hub = db_client.app.state.ctx.hub  # type: ignore[attr-defined]
    url = f"/api/bot/matches/{match_id}/stream"
    for _ in range(6):  # more than a seat's socket cap (4): each one let go before the next
        with db_client.stream("GET", url, headers=bearer(api)) as stream:
            assert stream.status_code == 200
            assert next(lines(stream))["role"] == "nixon"
            assert hub.local_seats(match_id) == {"nixon"}
        deadline = time.monotonic() + 5
        while hub.local_seats(match_id) and time.monotonic() < deadline:
            time.sleep(0.02)  # the response's cleanup runs on the server's loop
        assert hub.local_seats(match_id) == set()


@pytest.mark.parametrize("label", ["a\u0000b", "evil\u202etxt", "\u200b"])
def test_a_label_is_plain_text(db_client: TestClient, label: str) -> None:
    """A NUL byte failed PostgreSQL's insert (a 500); a bidi override would scramble the list."""
    ana = sign_up(db_client, "ana_label")
    made = db_client.post(
        "/api/account/tokens",
        json={"scopes": ["match:read"], "label": label},
        headers=as_player(ana),
    )
    assert made.status_code == 422, made.text


def test_the_event_stream_announces_what_is_open_then_challenges_and_matches(
    db_client: TestClient,
) -> None:
    """`GET /api/stream/events`: on opening, the open challenge to the bot and its match under
    way; then a new challenge and its cancelling as they happen; the match's end; and one
    stream per token."""
    ana, robo, api, made = person_and_bot(db_client, ("ana_events", "robo_events"), "human")
    claimed = db_client.post(f"/api/invites/{invite_code(made)}/claim", headers=as_player(robo))
    assert claimed.status_code == 200
    first = db_client.post(
        "/api/challenges", json={"to": robo["player_id"], "game": "watergate"},
        headers=as_player(ana),
    )  # fmt: skip
    assert first.status_code == 201, first.text
    with db_client.stream("GET", "/api/stream/events", headers=bearer(api)) as stream:
        assert stream.status_code == 200
        events = lines(stream)
        opening = [next(events), next(events)]
        assert {e["type"] for e in opening} == {"challenge", "match_start"}
        told = next(e for e in opening if e["type"] == "challenge")["challenge"]
        assert told["challenge_id"] == first.json()["challenge_id"]
        assert told["from"]["player_id"] == ana["player_id"]
        started = next(e for e in opening if e["type"] == "match_start")["match"]
        assert started["match_id"] == made["match_id"]

        again = db_client.get("/api/stream/events", headers=bearer(api))
        assert_error(again, 429, "too_many_streams")

        cancel = f"/api/challenges/{first.json()['challenge_id']}/cancel"
        assert db_client.post(cancel, headers=as_player(ana)).status_code in (200, 204)
        canceled = next(events)
        assert canceled["type"] == "challenge_canceled"
        assert canceled["challenge"]["challenge_id"] == first.json()["challenge_id"]

        resign = db_client.post(f"/api/bot/matches/{made['match_id']}/resign", headers=bearer(api))
        assert resign.status_code == 200
        finished = next(events)
        assert finished == {
            "type": "match_finish",
            "match": {"match_id": made["match_id"], "status": "finished", "winner": "editor"},
        }


def test_a_bot_answers_challenges_with_its_token(db_client: TestClient) -> None:
    """Contract v1.2: `POST /api/challenges/{id}/accept|decline` with a bot's API token (scope
    challenge:write): a decline with its reason, an accept that seats the bot in the match."""
    ana, robo = sign_up(db_client, "ana_asks"), sign_up(db_client, "robo_answers")
    player_scopes = token(db_client, robo, "bot:play", "match:read")["token"]
    assert upgrade(db_client, player_scopes).status_code == 200
    answers = token(db_client, robo, "challenge:write")["token"]

    def challenge() -> str:
        made = db_client.post(
            "/api/challenges", json={"to": robo["player_id"], "game": "watergate"},
            headers=as_player(ana),
        )  # fmt: skip
        assert made.status_code == 201, made.text
        return str(made.json()["challenge_id"])

    first = challenge()
    lacking = db_client.post(f"/api/challenges/{first}/decline", headers=bearer(player_scopes))
    assert_error(lacking, 403, "missing_scope")
    declined = db_client.post(
        f"/api/challenges/{first}/decline", json={"reason": "too_fast"}, headers=bearer(answers)
    )
    assert declined.status_code == 204, declined.text
    mine = db_client.get("/api/challenges", headers=as_player(ana)).json()["outgoing"]
    assert [(c["status"], c["reason"]) for c in mine] == [("declined", "too_fast")]

    second = challenge()
    accepted = db_client.post(f"/api/challenges/{second}/accept", headers=bearer(answers))
    assert accepted.status_code == 200, accepted.text
    match_id = accepted.json()["match_id"]
    stream = f"/api/bot/matches/{match_id}/stream"
    with db_client.stream("GET", stream, headers=bearer(player_scopes)) as seat:
        assert seat.status_code == 200  # the bot holds the seat it accepted
        assert next(lines(seat))["status"] == "active"


def test_a_match_begun_and_ended_between_two_looks_is_still_announced(
    db_client: TestClient,
) -> None:
    """The event stream compares the matches under way at each look: one that started and
    ended between two looks (a busy server, a quick resignation) was never announced at all.
    Told once, as a start and a finish; an end from before the stream opened is not news."""
    from app.services.bot_events import BotEvents

    _, robo, api, made = person_and_bot(db_client, ("ana_quick", "robo_quick"), "human")
    events: BotEvents = db_client.app.state.ctx.bot_events  # type: ignore[attr-defined]
    _, seen = events._opening(robo["player_id"])  # the stream opens: nothing under way
    assert seen.playing == set()
    claimed = db_client.post(f"/api/invites/{invite_code(made)}/claim", headers=as_player(robo))
    assert claimed.status_code == 200
    resign = db_client.post(f"/api/bot/matches/{made['match_id']}/resign", headers=bearer(api))
    assert resign.status_code == 200  # started and over before the stream's next look
    told, seen = events._since(robo["player_id"], seen)
    finish = {"match_id": made["match_id"], "status": "finished", "winner": "editor"}
    assert told == [
        {"type": "match_start", "match": {"match_id": made["match_id"]}},
        {"type": "match_finish", "match": finish},
    ]
    assert events._since(robo["player_id"], seen)[0] == []  # and only once
    assert events._opening(robo["player_id"])[0] == []  # a new stream: old news, untold
    _, reopened = events._opening(robo["player_id"])
    assert events._since(robo["player_id"], reopened)[0] == []
