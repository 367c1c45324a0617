"""Admin hardening (contract v1.1): sessions kept by the server (signing out revokes the session
even where its cookie was copied; "sign out everywhere" revokes all; only a keyed hash of a
session id is stored; every process sees the same sessions; a new ADMIN_TOKEN voids them), the
cookie's Secure flag, and the Origin check on every admin request that changes something."""

from __future__ import annotations

from collections.abc import Callable
from http.cookies import SimpleCookie

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from app.auth import session_digest
from app.main import create_app
from app.persistence.db import driver_url
from tests.app.conftest import ADMIN_TOKEN, make_settings

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
EVIL = "https://evil.example"


def sign_in(client: TestClient) -> str:
    response = client.post("/admin/login", data={"token": ADMIN_TOKEN}, follow_redirects=False)
    assert response.status_code == 303, response.text
    return str(client.cookies["wg_admin"])


def with_cookie(value: str) -> dict[str, str]:
    return {"Cookie": f"wg_admin={value}"}


def opens_console(client: TestClient, session: str) -> bool:
    """Whether this cookie value opens the admin API and the console (checked both ways)."""
    api = client.get("/api/admin/stats", headers=with_cookie(session)).status_code
    page = client.get("/admin", headers=with_cookie(session), follow_redirects=False).status_code
    assert (api, page) in ((200, 200), (401, 303)), (api, page)
    return api == 200


def stored_rows(url: str) -> list[tuple[str, ...]]:
    engine = create_engine(driver_url(url))
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("select digest, created_at, expires_at from admin_sessions"))
            return [tuple(str(v) for v in row) for row in rows]
    finally:
        engine.dispose()


def test_sign_out_revokes_the_session_even_for_a_copied_cookie(client: TestClient) -> None:
    session = sign_in(client)
    assert opens_console(client, session)
    client.post("/admin/logout")
    assert not opens_console(client, session), "a copy of the cookie opens nothing any more"


def test_sign_out_everywhere_ends_every_session(
    sqlite_url: str, make_client: Callable[..., TestClient]
) -> None:
    laptop, phone = make_client(sqlite_url), make_client(sqlite_url)  # two processes, one db
    on_laptop, on_phone = sign_in(laptop), sign_in(phone)
    assert opens_console(laptop, on_phone) and opens_console(phone, on_laptop)
    out = phone.post("/admin/logout-all", follow_redirects=False)
    assert (out.status_code, out.headers["location"]) == (303, "/admin/login")
    for client in (laptop, phone):
        assert not opens_console(client, on_laptop) and not opens_console(client, on_phone)
    assert laptop.get("/api/admin/stats", headers=ADMIN).status_code == 200, "bearer unchanged"


def test_the_api_signs_every_session_out(client: TestClient) -> None:
    sessions = [sign_in(client), sign_in(client)]
    client.cookies.clear()
    assert client.delete("/api/admin/sessions").status_code == 401
    answer = client.delete("/api/admin/sessions", headers=ADMIN)
    assert answer.json() == {"status": "signed_out", "sessions": 2}
    assert not any(opens_console(client, s) for s in sessions)


def test_sign_out_everywhere_needs_a_session(client: TestClient) -> None:
    session = sign_in(client)
    client.cookies.clear()
    client.post("/admin/logout-all", headers=with_cookie("x" * 43))
    assert opens_console(client, session), "a stranger's post signs nobody out"


def test_the_database_keeps_only_a_keyed_hash_of_each_session(
    sqlite_url: str, client: TestClient
) -> None:
    session = sign_in(client)
    [(digest, *_)] = stored_rows(sqlite_url)
    assert digest == session_digest(ADMIN_TOKEN, session)
    assert session not in str(stored_rows(sqlite_url)) and ADMIN_TOKEN not in digest


def test_a_new_admin_token_voids_every_session(
    sqlite_url: str, make_client: Callable[..., TestClient]
) -> None:
    session = sign_in(make_client(sqlite_url))
    rotated = make_client(sqlite_url, admin_token="a-new-admin-token-" + "y" * 16)
    assert not opens_console(rotated, session)


@pytest.mark.parametrize(
    ("settings", "peer", "headers", "secure"),
    [
        ({"base_url": "https://watergate.example.org"}, "203.0.113.9", {}, True),
        ({"base_url": "http://testserver"}, "203.0.113.9", {}, False),
        ({"base_url": None}, "127.0.0.1", {"X-Forwarded-Proto": "https"}, True),
        ({"base_url": None}, "203.0.113.9", {"X-Forwarded-Proto": "https"}, False),
    ],
    ids=["https base url", "http base url", "trusted proxy says https", "anyone says https"],
)
def test_the_cookie_is_secure_when_players_come_over_https(
    sqlite_url: str,
    settings: dict[str, object],
    peer: str,
    headers: dict[str, str],
    secure: bool,
) -> None:
    app = create_app(make_settings(sqlite_url, **settings))
    with TestClient(app, client=(peer, 40000)) as client:
        response = client.post(
            "/admin/login", data={"token": ADMIN_TOKEN}, headers=headers, follow_redirects=False
        )
    assert response.status_code == 303
    morsel = SimpleCookie(response.headers["set-cookie"])["wg_admin"]
    assert bool(morsel["secure"]) is secure


def admin_writes(client: TestClient) -> list[tuple[str, str, dict[str, object]]]:
    made = client.post("/api/matches", json={"opponent": "human"}).json()
    base = f"/api/admin/matches/{made['match_id']}"
    return [
        ("POST", "/admin/login", {"data": {"token": ADMIN_TOKEN}}),
        ("POST", "/admin/logout", {}),
        ("POST", "/admin/logout-all", {}),
        ("POST", f"{base}/abort", {}),
        ("DELETE", base, {}),
        ("DELETE", "/api/admin/sessions", {}),
        ("POST", "/api/admin/verify", {"json": {}}),
    ]


@pytest.mark.parametrize("origin", [EVIL, "null", "http://testserver.evil.example", "junk"])
def test_admin_writes_from_a_foreign_origin_are_refused(client: TestClient, origin: str) -> None:
    session = sign_in(client)
    for method, path, body in admin_writes(client):
        headers = {**ADMIN, "Origin": origin}
        response: httpx.Response = client.request(method, path, headers=headers, **body)  # type: ignore[arg-type]
        assert response.status_code == 403, (method, path)
        assert response.json()["code"] == "foreign_origin" and response.json()["message"]
        assert "set-cookie" not in response.headers
    assert opens_console(client, session), "no sign-out happened"
    [row] = client.get("/api/admin/matches", headers=ADMIN).json()
    assert row["status"] == "waiting", "nothing was aborted or deleted"
    assert client.get("/api/admin/stats", headers={**ADMIN, "Origin": EVIL}).status_code == 200


@pytest.mark.parametrize("origin", ["http://testserver", "HTTP://TESTSERVER:80", None])
def test_admin_writes_from_our_own_pages_or_scripts_pass(
    client: TestClient, origin: str | None
) -> None:
    headers = {} if origin is None else {"Origin": origin}
    response = client.post(
        "/admin/login", data={"token": ADMIN_TOKEN}, headers=headers, follow_redirects=False
    )
    assert response.status_code == 303
    verified = client.post("/api/admin/verify", json={}, headers={**ADMIN, **headers})
    assert verified.json()["code"] == "invalid_export", "it reached the route"


def test_behind_a_proxy_that_rewrites_host_the_base_url_is_our_origin(
    sqlite_url: str, make_client: Callable[..., TestClient]
) -> None:
    client = make_client(sqlite_url, base_url="https://watergate.example.org")
    inside = {"Host": "10.0.0.5:8001"}
    ok = client.post(
        "/admin/login",
        data={"token": ADMIN_TOKEN},
        headers={**inside, "Origin": "https://watergate.example.org"},
        follow_redirects=False,
    )
    assert ok.status_code == 303
    refused = client.post(
        "/admin/login", data={"token": ADMIN_TOKEN}, headers={**inside, "Origin": EVIL}
    )
    assert refused.status_code == 403
