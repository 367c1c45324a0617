"""Sign-in limits that do not lock the owner out (issue 40, finding 10). Wrong passwords count
per username and client address (RATE_LIMIT_LOGIN_USER), and per username from every browser
that has never signed in to the account together, more slowly (RATE_LIMIT_LOGIN_USER_GLOBAL).
A browser that has signed in to the account before holds a device cookie: it skips the shared
limit and is counted on its own instead, so a guesser spreading over many addresses can exhaust
the shared limit without keeping the owner out. On SQLite and PostgreSQL (the devices are rows).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from app.main import create_app

from .accounts_helpers import PASSWORD, as_player, rows
from .conftest import make_settings
from .test_api import assert_error

PROXY = ("127.0.0.1", 40000)  # a trusted proxy: its X-Forwarded-For names the client
DEVICE = "wg_device"
WRONG = "not the password at all"
Make = Callable[..., TestClient]


@pytest.fixture
def make(any_db_url: str) -> Iterator[Make]:
    """make(**settings) -> a started client behind a trusted proxy, the limits on."""
    clients: list[TestClient] = []

    def started(**overrides: object) -> TestClient:
        settings = make_settings(any_db_url, rate_limits="on", **overrides)
        client = TestClient(create_app(settings), client=PROXY)
        client.__enter__()
        clients.append(client)
        return client

    yield started
    for client in clients:
        client.__exit__(None, None, None)


def call(
    client: TestClient, path: str, body: dict[str, Any], address: str, device: str | None = None
) -> httpx.Response:
    """A request from `address` with `device` as its device cookie (or none): the client's own
    cookie jar is emptied before and after, so nothing carries over between browsers."""
    client.cookies.clear()
    headers = {"X-Forwarded-For": address}
    if device is not None:
        headers["Cookie"] = f"{DEVICE}={device}"
    try:
        return client.post(path, json=body, headers=headers)
    finally:
        client.cookies.clear()


def sign_up(client: TestClient, username: str, address: str) -> tuple[dict[str, str], str]:
    """The account, and the device cookie of the browser that made it ("" without one)."""
    made = call(client, "/api/accounts", {"username": username, "password": PASSWORD}, address)
    assert made.status_code == 201, made.text
    return made.json(), made.cookies.get(DEVICE, "")


def sign_in(
    client: TestClient, username: str, password: str, address: str, device: str | None = None
) -> httpx.Response:
    body = {"username": username, "password": password}
    return call(client, "/api/accounts/login", body, address, device)


def test_guesses_from_one_address_do_not_lock_the_owner_out_elsewhere(make: Make) -> None:
    """The per-username limit counted every address together: ten wrong tries a minute from
    anywhere made the owner's right password 429. Now they count per address."""
    client = make(rate_limit_login_user="3/minute")
    sign_up(client, "olga", "198.51.100.1")
    for _ in range(3):
        assert_error(sign_in(client, "olga", WRONG, "203.0.113.66"), 401, "bad_credentials")
    assert_error(sign_in(client, "olga", PASSWORD, "203.0.113.66"), 429, "rate_limited")
    owner = sign_in(client, "olga", PASSWORD, "192.0.2.10")  # a new phone: no device cookie
    assert owner.status_code == 200, owner.text


def test_a_guesser_on_many_addresses_meets_the_shared_limit_but_the_owner_s_browser_does_not(
    make: Make,
) -> None:
    client = make(rate_limit_login_user="3/minute", rate_limit_login_user_global="5/minute")
    _, owners_browser = sign_up(client, "pia", "198.51.100.1")
    _, strangers_browser = sign_up(client, "quim", "198.51.100.2")  # a device of another account
    for k in range(5):  # one guess from each of five addresses: the shared limit is used up
        assert_error(sign_in(client, "pia", WRONG, f"203.0.113.{k}"), 401, "bad_credentials")
    limited = sign_in(client, "PIA", PASSWORD, "192.0.2.10")  # an unknown browser, any case
    assert_error(limited, 429, "rate_limited")
    assert int(limited.headers["retry-after"]) >= 1
    borrowed = sign_in(client, "pia", WRONG, "203.0.113.9", strangers_browser)
    assert_error(borrowed, 429, "rate_limited")  # known to quim, not to pia: shared limit
    owner = sign_in(client, "pia", PASSWORD, "192.0.2.10", owners_browser)
    assert owner.status_code == 200, owner.text  # the owner's browser, from a new address
    assert owner.cookies[DEVICE] == owners_browser  # kept (and its max-age renewed)
    assert sign_in(client, "quim", PASSWORD, "192.0.2.11").status_code == 200  # others unaffected


def test_a_known_browser_has_a_limit_of_its_own(make: Make) -> None:
    """A stolen device cookie buys no more guesses than one address has: its tries are counted
    per browser, wherever they come from."""
    client = make(rate_limit_login_user="3/minute", rate_limit_login_user_global="100/minute")
    _, browser = sign_up(client, "rui", "198.51.100.1")
    for k in range(3):
        assert_error(sign_in(client, "rui", WRONG, f"203.0.113.{k}", browser), 401)
    assert_error(sign_in(client, "rui", PASSWORD, "203.0.113.50", browser), 429, "rate_limited")
    assert sign_in(client, "rui", PASSWORD, "203.0.113.51").status_code == 200  # no cookie


def test_the_device_cookie_is_kept_as_a_hash_and_sent_to_the_account_endpoints_only(
    any_db_url: str, make: Make
) -> None:
    client = make()
    _, browser = sign_up(client, "sara", "198.51.100.1")
    answer = sign_in(client, "sara", PASSWORD, "198.51.100.2")
    cookie = answer.headers["set-cookie"]
    for part in ("HttpOnly", "SameSite=strict", "Path=/api/accounts", "Max-Age=31536000"):
        assert part.lower() in cookie.lower(), cookie
    assert "secure" not in cookie.lower()  # BASE_URL is http here
    other = answer.cookies[DEVICE]
    assert other != browser and len(browser) >= 32
    stored = {row[0] for row in rows(any_db_url, "select digest from account_devices")}
    assert stored == {hashlib.sha256(v.encode()).hexdigest() for v in (browser, other)}
    secure = make(base_url="https://watergate.example.org")
    answer = sign_in(secure, "sara", PASSWORD, "198.51.100.3")
    assert "secure" in answer.headers["set-cookie"].lower()


def test_a_password_change_keeps_only_the_changing_browser_known(
    any_db_url: str, make: Make
) -> None:
    client = make(rate_limit_login_user="3/minute", rate_limit_login_user_global="1/minute")
    account, here = sign_up(client, "tito", "198.51.100.1")
    there = sign_in(client, "tito", PASSWORD, "198.51.100.2").cookies[DEVICE]  # shared: full
    assert len(rows(any_db_url, "select digest from account_devices")) == 2
    body = {"old_password": PASSWORD, "new_password": "a new long password"}
    client.cookies.clear()
    headers = {**as_player(account), "Cookie": f"{DEVICE}={here}", "X-Forwarded-For": "1.2.3.4"}
    changed = client.post("/api/accounts/password", json=body, headers=headers)
    assert changed.status_code == 200, changed.text
    client.cookies.clear()
    kept = [row[0] for row in rows(any_db_url, "select digest from account_devices")]
    assert kept == [hashlib.sha256(here.encode()).hexdigest()]
    assert_error(sign_in(client, "tito", "a new long password", "203.0.113.2", there), 429)
    new = sign_in(client, "tito", "a new long password", "203.0.113.3", here)
    assert new.status_code == 200, new.text


def test_a_deleted_account_forgets_its_browsers(any_db_url: str, make: Make) -> None:
    client = make()
    account, _ = sign_up(client, "ugo", "198.51.100.1")
    client.cookies.clear()
    gone = client.request(
        "DELETE", "/api/players/me", json={"password": PASSWORD}, headers=as_player(account)
    )
    assert gone.status_code == 200, gone.text
    assert rows(any_db_url, "select digest from account_devices") == []
