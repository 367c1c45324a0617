"""Security headers (contract v1.1, hostile clients): every page route answers with a
Content-Security-Policy whose fresh per-request nonce every <script> of the page carries, no
inline handler or style that the policy would block, `frame-ancestors 'none'`, nosniff and a
strict Referrer-Policy; JSON, static files and refusals carry the closed policy and the same
headers."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.app.conftest import ADMIN_TOKEN

NOT_PAGES = ("/api/", "/ws/", "/static")
NOT_PAGE_PATHS = {
    "/sw.js",  # the service worker: a script (its headers are checked in test_turn_notices)
    "/healthz",
    "/readyz",
    "/metrics",
    "/openapi.json",
    "/admin/logout",
    "/admin/logout-all",
}


def flat_routes(routes: Any) -> Iterator[Any]:
    """Every route of the app, through the routers it includes."""
    for route in routes:
        included = getattr(route, "original_router", None)
        yield from flat_routes(included.routes) if included is not None else [route]


def started(client: TestClient) -> dict[str, str]:
    made = client.post("/api/matches", json={"role": "editor", "opponent": "human"}).json()
    code = made["invite_url"].rsplit("/invite/", 1)[1]
    claimed = client.post(f"/api/invites/{code}/claim").json()
    fresh = client.post("/api/matches", json={"opponent": "human"}).json()
    player = client.post("/api/players", json={"name": "Ana"}).json()
    nations = client.post("/api/matches", json={"game": "nations", "opponent": "bot"}).json()
    cup = client.post(
        "/api/tournaments",
        json={"name": "Header cup", "starts_at": datetime.now(UTC).isoformat(), "minutes": 60},
        headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
    ).json()
    return {
        "tournament_id": cup.get("tournament_id", "missing"),
        "player_id": player["player_id"],
        "match_id": made["match_id"],
        "nations_id": nations["match_id"],  # the Nations table's pages show a Nations match
        "code": fresh["invite_url"].rsplit("/invite/", 1)[1],
        "token": claimed["seat_token"],
    }


def page_paths(client: TestClient) -> list[str]:
    """Every GET route that is a page, its parameters filled with a real match and invite."""
    ids = started(client)
    paths = set()
    for route in flat_routes(client.app.routes):  # type: ignore[attr-defined]
        path: str | None = getattr(route, "path", None)
        methods = getattr(route, "methods", None) or set()
        if path is None or "GET" not in methods or path.startswith(NOT_PAGES):
            continue
        if path not in NOT_PAGE_PATHS:
            match_id = ids["nations_id" if path.startswith("/nations/") else "match_id"]
            filled = {
                "code": ids["code"], "player_id": ids["player_id"], "match_id": match_id,
                "tournament_id": ids["tournament_id"],
            }  # fmt: skip
            lesson = {"game": "watergate", "lesson": "editor"}  # a tutorial's start page
            paths.add(path.format(**filled, **lesson))
    return sorted(paths)


def assert_headers(response: httpx.Response) -> None:
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "strict-origin"
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    assert response.headers["x-frame-options"] == "DENY"


def policy(response: httpx.Response) -> dict[str, list[str]]:
    """The CSP as {directive: [sources]}."""
    parts = (p.split() for p in response.headers["content-security-policy"].split(";"))
    return {p[0]: p[1:] for p in parts if p}


def nonce_of(response: httpx.Response) -> str:
    [nonce] = [s for s in policy(response)["script-src"] if s.startswith("'nonce-")]
    return nonce.removeprefix("'nonce-").removesuffix("'")


def test_every_page_route_is_covered(client: TestClient) -> None:
    """The page list comes from the app's routes, so a new page is checked without a test
    edit; this pins the list as it stands, so that the walk cannot silently find nothing."""
    found = {re.sub(r"/[0-9a-f]{24}|/[A-Za-z0-9_-]{22}$", "/ID", p) for p in page_paths(client)}
    assert found >= {
        "/",
        "/lobby",
        "/invite/ID",
        "/match/ID",
        "/watch/ID",
        "/match/ID/replay",
        "/rules",
        "/admin/login",
        "/admin",
        "/admin/stats",
        "/admin/matches/ID",
        "/nations/match/ID",
        "/nations/watch/ID",
        "/nations/replay/ID",
        "/tournaments",
        "/tournaments/ID",
    }


@pytest.mark.parametrize("signed_in", [False, True])
def test_every_page_has_the_headers_and_a_nonce_on_every_script(
    client: TestClient, signed_in: bool
) -> None:
    if signed_in:
        client.post("/admin/login", data={"token": ADMIN_TOKEN})
    nonces: list[str] = []
    for path in page_paths(client):
        response = client.get(path, follow_redirects=False)
        assert_headers(response)
        if response.status_code == 303:  # an admin page, signed out: the redirect is checked too
            assert not signed_in and path.startswith("/admin")
            continue
        assert response.status_code == 200, path
        assert response.headers["content-type"].startswith("text/html"), path
        csp = policy(response)
        assert csp["default-src"] == ["'none'"] and csp["base-uri"] == ["'none'"], path
        assert "'unsafe-inline'" not in csp["script-src"], path
        assert "'unsafe-eval'" not in csp["script-src"], path
        nonce = nonce_of(response)
        nonces.append(nonce)
        scripts = re.findall(r"<script\b[^>]*>", response.text)
        assert scripts, path
        for tag in scripts:
            assert f'nonce="{nonce}"' in tag, (path, tag)
        if path != "/docs":  # our own pages: nothing inline that the policy would block
            assert csp["style-src"] == ["'self'"], path
            assert not re.search(r"<[^>]+\son[a-z]+\s*=", response.text), path
            assert not re.search(r"<[^>]+\sstyle\s*=", response.text), path
            assert "<style" not in response.text and "javascript:" not in response.text, path
            assert response.headers["cross-origin-opener-policy"] == "same-origin"
    assert len(set(nonces)) == len(nonces) >= 6, "a fresh nonce for every response"


def test_the_same_page_twice_has_two_nonces(client: TestClient) -> None:
    first, second = client.get("/"), client.get("/")
    assert nonce_of(first) != nonce_of(second)
    assert f'nonce="{nonce_of(second)}"' in second.text
    assert f'nonce="{nonce_of(first)}"' not in second.text


def test_json_static_and_refusals_carry_the_closed_policy(client: TestClient) -> None:
    big = b"{" + b" " * (70 * 1024) + b"}"
    answers: dict[str, Any] = {
        "created": client.post("/api/matches", json={}),
        "health": client.get("/healthz"),
        "script": client.get("/static/js/api.js"),
        "style": client.get("/static/css/base.css"),
        "icon": client.get("/static/img/favicon.svg"),
        "unknown path": client.get("/no/such/page"),
        "unauthorized": client.get("/api/admin/stats"),
        "too large": client.post(
            "/api/matches", content=big, headers={"content-type": "application/json"}
        ),
    }
    expected = {"created": 201, "unknown path": 404, "unauthorized": 401, "too large": 413}
    for name, response in answers.items():
        assert response.status_code == expected.get(name, 200), name
        assert_headers(response)
        assert policy(response) == {"default-src": ["'none'"], "frame-ancestors": ["'none'"]}, name
