"""Rating farming (issue 40, finding 22), on SQLite and PostgreSQL: a rated match between two
accounts made from one address within a day plays unrated — its view says so from the start and
its end moves no rating — and the site files a report about the newer account for the
moderators. Accounts made from different addresses, or a day apart, rate each other as before;
an address that tells nothing (a loopback peer: a proxy the server does not trust) is not kept.
Each of these fails without the check: the match stayed rated and nobody was told."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from app.main import create_app

from .accounts_helpers import (
    Account,
    as_player,
    execute,
    profile,
    rated_match,
    resign,
    rows,
    sign_up,
)
from .conftest import make_settings
from .test_lifecycle import view
from .test_tournaments import ADMIN, on_the_page, page, seat_token, tick

PROXY = ("127.0.0.1", 50000)  # a trusted proxy: X-Forwarded-For names the client behind it
HOME, CAFE = "198.51.100.1", "198.51.100.2"


@pytest.fixture
def url(any_db_url: str) -> str:
    return any_db_url


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    with TestClient(create_app(make_settings(url)), client=PROXY) as c:
        yield c


def account(c: TestClient, username: str, address: str | None) -> Account:
    headers = {"X-Forwarded-For": address} if address else {}
    return sign_up(c, username, headers=headers)


def games_rated(c: TestClient, who: Account) -> int:
    return int(profile(c, who["player_id"])["rating"]["watergate"]["games"])


def play_out(c: TestClient, editor: Account, nixon: Account) -> tuple[str, bool]:
    """A rated match `editor` loses by resigning: (its id, whether its view said rated)."""
    match_id, tokens = rated_match(c, editor, nixon)
    shown = bool(view(c, match_id, tokens["nixon"])["rated"])
    assert resign(c, match_id, tokens["editor"]).status_code == 200
    return match_id, shown


def test_two_accounts_made_from_one_address_within_a_day_do_not_rate_each_other(
    client: TestClient, url: str
) -> None:
    ana, alt = account(client, "ana_farm", HOME), account(client, "alt_farm", HOME)
    match_id, shown = play_out(client, alt, ana)
    assert shown is False  # unrated from the start, as its view says
    assert games_rated(client, ana) == 0 and games_rated(client, alt) == 0
    reports = rows(url, "select reporter, player, reason, match_id, status from reports")
    assert reports == [(None, alt["player_id"], "cheating", match_id, "open")]


def test_accounts_from_different_addresses_rate_each_other(client: TestClient, url: str) -> None:
    ana, bea = account(client, "ana_farm", HOME), account(client, "bea_farm", CAFE)
    _, shown = play_out(client, bea, ana)
    assert shown is True
    assert games_rated(client, ana) == 1 and games_rated(client, bea) == 1
    assert rows(url, "select count(*) from reports") == [(0,)]


def test_accounts_made_a_day_apart_from_one_address_rate_each_other(
    client: TestClient, url: str
) -> None:
    old, new = account(client, "old_farm", HOME), account(client, "new_farm", HOME)
    made = rows(url, "select created_at from players where id = :p", p=old["player_id"])[0][0]
    earlier = datetime.fromisoformat(made) if isinstance(made, str) else made
    execute(url, "update players set created_at = :at where id = :p",
            at=earlier - timedelta(hours=25), p=old["player_id"])  # fmt: skip
    _, shown = play_out(client, new, old)
    assert shown is True and games_rated(client, old) == 1
    assert rows(url, "select count(*) from reports") == [(0,)]


def test_an_address_that_tells_nothing_is_not_kept(client: TestClient, url: str) -> None:
    ana, bea = account(client, "ana_farm", None), account(client, "bea_farm", None)  # loopback
    assert rows(url, "select created_from from players") == [(None,), (None,)]
    _, shown = play_out(client, bea, ana)
    assert shown is True and games_rated(client, ana) == 1
    guest = client.post("/api/players", json={"name": "Gil"}, headers={"X-Forwarded-For": CAFE})
    kept = rows(url, "select created_from from players where id = :p", p=guest.json()["player_id"])
    assert kept[0][0] and CAFE not in kept[0][0]  # a keyed hash, not the address


def test_twin_accounts_paired_in_a_rated_tournament_do_not_rate_each_other(
    client: TestClient, url: str
) -> None:
    """The same rule at a tournament's pairing: the game is made unrated as it is made (its
    view says so) and the newer account is reported (issue 46)."""
    ana, alt = account(client, "ana_tfarm", HOME), account(client, "alt_tfarm", HOME)
    body = {"name": "Farm cup", "starts_at": datetime.now(UTC).isoformat(), "minutes": 60}
    tid = client.post("/api/tournaments", json=body, headers=ADMIN).json()["tournament_id"]
    for who in (ana, alt):
        assert (
            client.post(f"/api/tournaments/{tid}/join", headers=as_player(who)).status_code == 204
        )
    with on_the_page(client, tid, [ana, alt]):
        tick(client)
        tick(client)
        (game,) = page(client, tid)["games"]
    _, token = seat_token(client, game["match_id"], alt)
    assert view(client, game["match_id"], token)["rated"] is False
    assert resign(client, game["match_id"], token).status_code == 200
    assert games_rated(client, ana) == 0 and games_rated(client, alt) == 0
    reports = rows(url, "select player, match_id from reports")
    assert reports == [(alt["player_id"], game["match_id"])]
