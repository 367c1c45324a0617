"""Accounts (issue 12; contract v1.1 "Players, lobby, ratings"): signing up (a new player, or
the caller's anonymous player upgraded with its name and matches), the username and password
rules with their stable codes, signing in on a new device (a new session), signing out and
revoking sessions (each device's token is its own), changing the password, wrong credentials
answered alike whether or not the username exists (one verification either way), throttling,
and no password in any log line. On SQLite and PostgreSQL where the database matters."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pwdlib.hashers.argon2 import Argon2Hasher

from app import passwords

from .accounts_helpers import PASSWORD, as_player, execute, rows, sign_in, sign_up
from .conftest import make_settings
from .test_api import assert_error


@pytest.fixture
def db_client(any_db_url: str, make_client: Callable[..., TestClient]) -> TestClient:
    return make_client(any_db_url)


def hasher_of(client: TestClient) -> passwords.Passwords:
    found: passwords.Passwords = client.app.state.ctx.accounts.passwords  # type: ignore[attr-defined]
    return found


def me(client: TestClient, token: str) -> Any:
    return client.get("/api/accounts/me", headers={"X-Player-Token": token})


def test_sign_up_makes_a_player_with_an_account_and_a_session(
    any_db_url: str, db_client: TestClient
) -> None:
    ana = sign_up(db_client, "Ana_1")
    assert set(ana) == {"player_id", "name", "username", "player_token"}
    assert (ana["name"], ana["username"]) == ("Ana_1", "Ana_1")
    seen = me(db_client, ana["player_token"]).json()
    assert seen["username"] == "Ana_1" and [s["current"] for s in seen["sessions"]] == [True]
    public = db_client.get(f"/api/players/{ana['player_id']}").json()
    assert "username" not in public and public["name"] == "Ana_1"
    assert public["rating"]["watergate"] == {
        "rating": 1500.0,
        "rd": 350.0,
        "provisional": True,
        "games": 0,
    }
    stored = rows(any_db_url, "select password_hash from players")
    assert stored[0][0].startswith("$argon2id$") and PASSWORD not in stored[0][0]


def test_sign_up_upgrades_the_anonymous_player_keeping_its_name_and_matches(
    db_client: TestClient,
) -> None:
    anon = db_client.post("/api/players", json={"name": "Bia"}).json()
    made = db_client.post("/api/matches", json={}, headers=as_player(anon))
    assert made.status_code == 201
    upgraded = sign_up(db_client, "bia", headers=as_player(anon))
    assert upgraded["player_id"] == anon["player_id"] and upgraded["name"] == "Bia"
    assert upgraded["player_token"] == anon["player_token"], "the browser's token keeps working"
    mine = db_client.get("/api/players/me/matches", headers=as_player(anon)).json()
    assert [m["match_id"] for m in mine["ongoing"]] == [made.json()["match_id"]]
    again = db_client.post(
        "/api/accounts",
        json={"username": "bia2", "password": PASSWORD},
        headers=as_player(anon),
    )
    assert_error(again, 409, "has_account")


@pytest.mark.parametrize(
    ("username", "password", "code"),
    [
        ("ab", PASSWORD, "invalid_username"),
        ("a" * 21, PASSWORD, "invalid_username"),
        ("_ana", PASSWORD, "invalid_username"),
        ("ana maria", PASSWORD, "invalid_username"),
        ("anа", PASSWORD, "invalid_username"),  # a Cyrillic а: usernames are ASCII only
        ("<b>x</b>", PASSWORD, "invalid_username"),
        ("ana", "short", "password_too_short"),
        ("ana", "x" * 257, "password_too_long"),
    ],
)
def test_bad_usernames_and_passwords_have_stable_codes(
    client: TestClient, username: str, password: str, code: str
) -> None:
    response = client.post("/api/accounts", json={"username": username, "password": password})
    assert_error(response, 422, code)


def test_usernames_are_unique_whatever_their_case(db_client: TestClient) -> None:
    sign_up(db_client, "Carla")
    for taken in ("carla", "CARLA", " Carla "):
        response = db_client.post("/api/accounts", json={"username": taken, "password": PASSWORD})
        assert_error(response, 409, "username_taken")


def test_signing_in_on_another_device_gives_its_own_revocable_session(
    db_client: TestClient,
) -> None:
    first = sign_up(db_client, "dora")
    second = sign_in(db_client, "DORA")
    assert second.status_code == 200, second.text
    other = second.json()
    assert other["player_id"] == first["player_id"]
    assert other["player_token"] != first["player_token"]
    sessions = me(db_client, first["player_token"]).json()["sessions"]
    assert len(sessions) == 2 and sum(s["current"] for s in sessions) == 1
    theirs = next(s for s in sessions if not s["current"])
    revoked = db_client.delete(
        f"/api/accounts/sessions/{theirs['session_id']}", headers=as_player(first)
    )
    assert revoked.status_code == 200, revoked.text
    assert_error(me(db_client, other["player_token"]), 401, "unknown_player")
    assert me(db_client, first["player_token"]).status_code == 200
    gone = db_client.delete(
        f"/api/accounts/sessions/{theirs['session_id']}", headers=as_player(first)
    )
    assert_error(gone, 404, "not_found")


def test_signing_out_ends_only_this_devices_session(db_client: TestClient) -> None:
    first = sign_up(db_client, "eva")
    other = sign_in(db_client, "eva").json()
    out = db_client.post("/api/accounts/logout", headers=as_player(other))
    assert out.status_code == 200, out.text
    assert_error(me(db_client, other["player_token"]), 401, "unknown_player")
    assert me(db_client, first["player_token"]).json()["username"] == "eva"
    assert_error(db_client.post("/api/accounts/logout", headers=as_player(other)), 401)


def test_a_session_of_another_player_cannot_be_revoked(db_client: TestClient) -> None:
    ana, bob = sign_up(db_client, "ana"), sign_up(db_client, "bob")
    bobs = me(db_client, bob["player_token"]).json()["sessions"][0]["session_id"]
    response = db_client.delete(f"/api/accounts/sessions/{bobs}", headers=as_player(ana))
    assert_error(response, 404, "not_found")
    assert me(db_client, bob["player_token"]).status_code == 200


def test_wrong_password_and_unknown_user_are_the_same_401(client: TestClient) -> None:
    sign_up(client, "fabio")
    wrong = sign_in(client, "fabio", "not the password")
    unknown = sign_in(client, "nobody-here", "not the password")
    for response in (wrong, unknown):
        assert_error(response, 401, "bad_credentials")
    assert wrong.json() == unknown.json()


def test_both_sign_in_paths_verify_exactly_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The timing of a refusal does not tell a taken username from a free one: the expensive
    step (one argon2 verification) runs once on either path, not zero times for a stranger."""
    sign_up(client, "gil")
    calls: list[str] = []
    argon2 = hasher_of(client).hasher.current_hasher
    real = argon2.verify

    def counting(password: str | bytes, digest: str | bytes) -> bool:
        calls.append(str(digest)[:9])
        return real(password, digest)

    monkeypatch.setattr(argon2, "verify", counting)
    for username, password in (
        ("gil", "wrong password"),
        ("stranger", "wrong password"),
        ("gil", PASSWORD),
    ):
        calls.clear()
        sign_in(client, username, password)
        assert len(calls) == 1, (username, calls)
        assert calls[0] == "$argon2id", "the dummy hash has the real ones' parameters"


def test_changing_the_password(client: TestClient) -> None:
    hana = sign_up(client, "hana")
    body = {"old_password": "wrong one here", "new_password": "a new long password"}
    assert_error(client.post("/api/accounts/password", json=body, headers=as_player(hana)), 401)
    body["old_password"] = PASSWORD
    changed = client.post("/api/accounts/password", json=body, headers=as_player(hana))
    assert changed.status_code == 200, changed.text
    assert_error(sign_in(client, "hana"), 401, "bad_credentials")
    assert sign_in(client, "hana", "a new long password").status_code == 200


def test_changing_the_password_ends_every_other_session_of_the_account(
    db_client: TestClient,
) -> None:
    """Issue 40, finding 13: whoever knew the old password may have signed in with it; after the
    change only the device that made it stays signed in."""
    here = sign_up(db_client, "hugo")
    elsewhere = [sign_in(db_client, "hugo").json() for _ in range(2)]
    stranger = sign_up(db_client, "hilda")
    body = {"old_password": PASSWORD, "new_password": "a new long password"}
    changed = db_client.post("/api/accounts/password", json=body, headers=as_player(here))
    assert changed.status_code == 200, changed.text
    for other in elsewhere:
        assert_error(me(db_client, other["player_token"]), 401, "unknown_player")
    mine = me(db_client, here["player_token"]).json()
    assert [s["current"] for s in mine["sessions"]] == [True]
    assert me(db_client, stranger["player_token"]).status_code == 200  # another account's
    again = sign_in(db_client, "hugo", "a new long password")
    assert again.status_code == 200, again.text


def test_sign_ins_are_throttled_per_username_and_address(
    sqlite_url: str, make_client: Callable[..., TestClient]
) -> None:
    """(From one address here; other addresses and known browsers: test_sign_in_limits.py.)"""
    client = make_client(
        sqlite_url,
        rate_limits="on",
        rate_limit_login="100/minute",
        rate_limit_login_user="3/minute",
    )
    sign_up(client, "ivo")
    for _ in range(3):
        assert_error(sign_in(client, "ivo", "guess guess guess"), 401)
    limited = sign_in(client, "IVO", PASSWORD)  # even the right password, in any case
    assert_error(limited, 429, "rate_limited")
    assert int(limited.headers["retry-after"]) >= 1
    assert sign_in(client, "someone-else", "guess guess guess").status_code == 401


def test_sign_ins_and_sign_ups_are_throttled_per_address(
    sqlite_url: str, make_client: Callable[..., TestClient]
) -> None:
    client = make_client(
        sqlite_url, rate_limits="on", rate_limit_login="2/minute", rate_limit_account="2/minute"
    )
    sign_up(client, "jon1")
    sign_up(client, "jon2")
    third = client.post("/api/accounts", json={"username": "jon3", "password": PASSWORD})
    assert_error(third, 429, "rate_limited")
    for name in ("a1x", "b2x"):
        assert_error(sign_in(client, name, "guess guess guess"), 401)
    assert_error(sign_in(client, "c3x", "guess guess guess"), 429, "rate_limited")


def test_no_password_reaches_a_log_line(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "a password nobody logs 123"
    with caplog.at_level(logging.DEBUG):
        kim = sign_up(client, "kim", secret)
        sign_in(client, "kim", secret)
        sign_in(client, "kim", secret + "x")
        body = {"old_password": secret, "new_password": secret + "!"}
        client.post("/api/accounts/password", json=body, headers=as_player(kim))
    assert caplog.records, "the requests were logged"
    for record in caplog.records:
        line = record.getMessage() + repr(record.__dict__)
        assert secret not in line and kim["player_token"] not in line


# ---- hashing on threads of its own (issue 40, finding 3) ---------------------------------------


class HeldHashes:
    """argon2's verification, made to wait until released (a hash that takes as long as the
    test needs), recording each one that has started."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.started: list[int] = []
        self.release = threading.Event()
        real = Argon2Hasher.verify

        def held(hasher: Argon2Hasher, password: str | bytes, digest: str | bytes) -> bool:
            self.started.append(1)
            self.release.wait(60)
            return real(hasher, password, digest)

        monkeypatch.setattr(Argon2Hasher, "verify", held)

    def until(self, holds: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + 15
        while not holds():
            assert time.monotonic() < deadline, f"not within 15 s: {what}"
            time.sleep(0.01)


def in_background(call: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    answers: list[Any] = []
    thread = threading.Thread(target=lambda: answers.append(call()), daemon=True)
    thread.start()
    return thread, answers


def pending(client: TestClient) -> int:
    accounts = client.app.state.ctx.accounts  # type: ignore[attr-defined]
    return int(getattr(getattr(accounts, "passwords", None), "pending", 0))


def test_sign_ins_being_checked_never_hold_the_database_threads(
    sqlite_url: str, make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two sign-ins whose hashes take as long as they like (a flood, in small) while the
    process has two threads for the database: creating a match still answers at once. When
    the hashes ran on the database's threads, it waited for them."""
    client = make_client(sqlite_url, worker_threads=2, password_hash_threads=1)
    sign_up(client, "lara")
    held = HeldHashes(monkeypatch)
    floods = [in_background(lambda: sign_in(client, "lara", "guess guess guess")) for _ in range(2)]
    both = lambda: pending(client) == 2 or len(held.started) == 2  # noqa: E731
    held.until(both, "both sign-ins are at their hash (running or waiting)")
    creating, made = in_background(lambda: client.post("/api/matches", json={}))
    creating.join(10)
    waited = creating.is_alive()
    held.release.set()  # then every request ends before the client closes, whatever happened
    for thread in (creating, *(flood for flood, _ in floods)):
        thread.join(30)
    assert not waited, "creating a match waited for the sign-ins' hashes"
    assert made[0].status_code == 201, made[0].text
    for _, answers in floods:
        assert_error(answers[0], 401, "bad_credentials")


def test_sign_ins_beyond_the_hashing_queue_are_answered_busy(
    sqlite_url: str, make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    client = make_client(sqlite_url, password_hash_threads=1, password_hash_queue=1)
    hasher_of(client).hold_s = 0  # answered at once (a flood's refusals are held a second)
    sign_up(client, "mara")
    held = HeldHashes(monkeypatch)
    first = [in_background(lambda: sign_in(client, "mara", "guess guess guess")) for _ in range(2)]
    held.until(lambda: pending(client) == 2, "one sign-in hashing, one waiting")
    refused = sign_in(client, "mara")  # even the right password: nothing can check it now
    hasher_of(client).hold_s = 0.4
    started = time.monotonic()
    held_back = sign_in(client, "mara")
    waited = time.monotonic() - started
    held.release.set()
    assert_error(held_back, 503, "busy")
    assert waited >= 0.2, "a refusal is held (0.4 s, give or take half) before it is answered"
    assert_error(refused, 503, "busy")
    assert refused.headers["retry-after"] == "1"
    assert refused.headers["content-type"] == "application/json"
    for thread, answers in first:
        thread.join(15)
        assert_error(answers[0], 401, "bad_credentials")
    assert sign_in(client, "mara").status_code == 200  # the queue is free again


def test_the_hash_cost_is_sized_to_the_host_and_never_below_owasp_s_minimum() -> None:
    gib = 1 << 30
    assert passwords.cost_for(1, 24 * gib) == passwords.Cost(64 * 1024, 1)  # capped at 64 MiB
    assert passwords.cost_for(3, gib) == passwords.Cost(21845, 2)  # 1/16 of 1 GiB over 3
    assert passwords.cost_for(1, gib // 2) == passwords.Cost(32 * 1024, 2)
    assert passwords.cost_for(1, gib // 4) == passwords.Cost(19 * 1024, 2)  # OWASP's floor
    assert passwords.cost_for(8, gib // 8) == passwords.Cost(19 * 1024, 2)
    assert passwords.cost_for(1, gib, memory_kib=50 * 1024) == passwords.Cost(50 * 1024, 1)
    assert passwords.hash_threads(3) == 3 and passwords.hash_threads() >= 1
    with pytest.raises(ValueError, match="OWASP"):
        make_settings("sqlite:///x.db", password_hash_memory_kib=16 * 1024)
    hashes = passwords.Passwords(1, 0, passwords.cost_for(1, 24 * gib))
    try:
        digest = asyncio.run(hashes.hash(PASSWORD))
    finally:
        hashes.close()
    assert digest.startswith("$argon2id$v=19$m=65536,t=1,p=1$")


def test_a_hash_with_older_parameters_verifies_and_is_replaced_at_sign_in(
    any_db_url: str, db_client: TestClient
) -> None:
    """Hashes made before the cost was sized to the host (pwdlib's defaults: 64 MiB, 3 passes,
    4 lanes) keep working, and each is rehashed with the current parameters when its owner
    signs in (only then is the password known)."""
    nora = sign_up(db_client, "nora")
    old = Argon2Hasher(time_cost=3, memory_cost=65536, parallelism=4).hash(PASSWORD)
    execute(any_db_url, "update players set password_hash = :h", h=old)
    assert_error(sign_in(db_client, "nora", "guess guess guess"), 401, "bad_credentials")
    assert rows(any_db_url, "select password_hash from players")[0][0] == old
    assert sign_in(db_client, "nora").status_code == 200
    new = rows(any_db_url, "select password_hash from players")[0][0]
    cost = hasher_of(db_client).cost
    assert new.startswith(f"$argon2id$v=19$m={cost.memory_kib},t={cost.time_cost},p=1$"), new
    assert sign_in(db_client, "nora").status_code == 200
    assert rows(any_db_url, "select password_hash from players")[0][0] == new  # once only
    assert me(db_client, nora["player_token"]).status_code == 200
