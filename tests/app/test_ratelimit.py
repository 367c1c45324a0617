"""Rate limits (contract v1.1, hostile clients): per client address, creating matches, joining
(invite and rematch claims), creating and renaming players, admin sign-in (and wrong admin
bearer tokens) and websocket connects answer `429 rate_limited` with Retry-After (sockets: an
error frame, then close 4429), counted in Redis across processes when REDIS_URL is set and in
memory when Redis fails; X-Forwarded-For is believed only from FORWARDED_ALLOW_IPS; RATE_LIMITS=off
turns every limit off.

The other tests run with the limits off (conftest); these turn them on with small limits."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.__main__ import migrate
from app.config import Settings
from app.http.ratelimit import ROUTES, Limiter, client_key
from app.main import create_app
from app.metrics import Metrics
from tests.app.conftest import ADMIN_TOKEN, make_settings
from tests.app.test_crash import Spawn, servers
from tests.app.test_security_headers import flat_routes
from tests.app.test_ws import receive

TRUSTED_PEER = ("127.0.0.1", 40000)  # a proxy on this machine: believed by default
UNTRUSTED_PEER = ("203.0.113.9", 40000)  # anyone else on the internet
Limited = Callable[..., TestClient]


@pytest.fixture
def limited(sqlite_url: str) -> Iterator[Limited]:
    """limited(peer=TRUSTED_PEER, **settings) -> a started TestClient with the limits on."""
    clients: list[TestClient] = []

    def make(peer: tuple[str, int] = TRUSTED_PEER, **overrides: object) -> TestClient:
        settings = make_settings(sqlite_url, **{"rate_limits": "on", **overrides})
        client = TestClient(create_app(settings), client=peer)
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


def some_address() -> str:
    """A client address no other test (or earlier run, in a shared Redis) has used."""
    return "10." + ".".join(str(secrets.randbelow(256)) for _ in range(3))


def from_address(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def assert_limited(response: httpx.Response, window_s: int = 60) -> None:
    assert response.status_code == 429, response.text
    assert response.json()["code"] == "rate_limited" and response.json()["message"]
    assert 1 <= int(response.headers["retry-after"]) <= window_s
    assert response.headers["x-content-type-options"] == "nosniff"


def create(client: TestClient, headers: dict[str, str]) -> httpx.Response:
    return client.post("/api/matches", json={"opponent": "human"}, headers=headers)


def test_creating_matches_is_limited_per_client(limited: Limited) -> None:
    client = limited(rate_limit_create="3/minute")
    me, neighbour = from_address(some_address()), from_address(some_address())
    for _ in range(3):
        assert create(client, me).status_code == 201
    assert_limited(create(client, me))
    assert create(client, neighbour).status_code == 201, "another client is not held back"
    assert client.get("/", headers=me).status_code == 200, "only the limited calls are refused"


def test_claims_count_even_when_the_code_is_wrong(limited: Limited) -> None:
    """Guessing invite codes is throttled like claiming them."""
    client = limited(rate_limit_join="3/minute")
    me = from_address(some_address())
    made = create(client, me).json()
    code = made["invite_url"].rsplit("/", 1)[1]
    assert client.post("/api/invites/not-a-code/claim", headers=me).status_code == 404
    assert client.post("/api/invites/also-wrong/claim", headers=me).status_code == 404
    assert client.post(f"/api/invites/{code}/claim", headers=me).status_code == 200
    assert_limited(client.post(f"/api/invites/{code}/claim", headers=me))
    rematch = f"/api/matches/{made['match_id']}/rematch/claim"
    assert_limited(client.post(rematch, headers=me))  # the same limit: joining


def test_creating_and_renaming_players_is_limited_per_client(limited: Limited) -> None:
    client = limited(rate_limit_player="3/minute")
    me, neighbour = from_address(some_address()), from_address(some_address())
    made = client.post("/api/players", json={"name": "Ana"}, headers=me)
    assert made.status_code == 201
    as_ana = {**me, "X-Player-Token": made.json()["player_token"]}
    assert (
        client.patch("/api/players/me", json={"name": "Ana B"}, headers=as_ana).status_code == 200
    )
    assert client.post("/api/players", json={"name": "<bad>"}, headers=me).status_code == 422
    assert_limited(client.post("/api/players", json={"name": "Bob"}, headers=me))
    assert_limited(client.patch("/api/players/me", json={"name": "Ana C"}, headers=as_ana))
    assert client.post("/api/players", json={"name": "Bob"}, headers=neighbour).status_code == 201
    profile = client.get(f"/api/players/{made.json()['player_id']}", headers=me)
    assert profile.status_code == 200, "reading a profile is not limited"


def test_every_limited_route_exists(limited: Limited) -> None:
    """A renamed route would silently lose its limit: each template must be an app route."""
    app = limited().app
    served = {
        (method, route.path)
        for route in flat_routes(app.routes)
        for method in getattr(route, "methods", None) or ()
    }
    assert set(ROUTES) <= served, set(ROUTES) - served


def test_admin_sign_in_and_wrong_bearer_tokens_share_a_limit(limited: Limited) -> None:
    client = limited(rate_limit_admin_login="3/minute")
    me = from_address(some_address())
    wrong = {**me, "Authorization": "Bearer not-the-admin-token"}
    right = {**me, "Authorization": f"Bearer {ADMIN_TOKEN}"}
    for _ in range(5):  # the right token never counts
        assert client.get("/api/admin/stats", headers=right).status_code == 200
    assert client.post("/admin/login", data={"token": "guess"}, headers=me).status_code == 401
    assert client.get("/api/admin/stats", headers=wrong).status_code == 401
    assert client.post("/admin/login", data={"token": "guess"}, headers=me).status_code == 401
    assert_limited(client.get("/api/admin/stats", headers=wrong))
    refused = client.post("/admin/login", data={"token": ADMIN_TOKEN}, headers=me)
    assert_limited(refused)  # even the right token, once over the limit
    assert "set-cookie" not in refused.headers


def test_socket_connects_are_limited_and_closed_4429(limited: Limited) -> None:
    client = limited(rate_limit_socket="2/minute")
    me = from_address(some_address())
    made = create(client, me).json()
    path = f"/ws/matches/{made['match_id']}?token={made['seat_token']}"
    for _ in range(2):
        with client.websocket_connect(path, headers=me) as ws:
            assert receive(ws)["type"] == "view"
    with client.websocket_connect(path, headers=me) as ws:
        frame = receive(ws)
        assert (frame["type"], frame["code"]) == ("error", "rate_limited")
        assert 1 <= frame["retry_after"] <= 60
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
    assert closed.value.code == 4429
    with client.websocket_connect(path, headers=from_address(some_address())) as ws:
        assert receive(ws)["type"] == "view", "another client still connects"


def test_forwarded_for_from_an_untrusted_peer_is_ignored(limited: Limited) -> None:
    """Anyone can write X-Forwarded-For; only a proxy in FORWARDED_ALLOW_IPS is believed, so a
    client cannot buy a fresh allowance per request by inventing addresses."""
    client = limited(peer=UNTRUSTED_PEER, rate_limit_create="2/minute")
    for _ in range(2):
        assert create(client, from_address(some_address())).status_code == 201
    assert_limited(create(client, from_address(some_address())))


def test_forwarded_allow_ips_names_the_trusted_proxies(limited: Limited) -> None:
    """A proxy on another host (here 203.0.113.9, inside the configured network): each client
    behind it has its own allowance."""
    client = limited(
        peer=UNTRUSTED_PEER, forwarded_allow_ips="203.0.113.0/24", rate_limit_create="1/minute"
    )
    first = from_address(some_address())
    assert create(client, first).status_code == 201
    for _ in range(2):  # two more clients behind the proxy, one match each
        assert create(client, from_address(some_address())).status_code == 201
    assert_limited(create(client, first))


def test_rate_limits_off_turns_every_limit_off(limited: Limited) -> None:
    client = limited(rate_limits="off", rate_limit_create="1/minute", rate_limit_socket="1/hour")
    me = from_address(some_address())
    made = [create(client, me) for _ in range(4)]
    assert [r.status_code for r in made] == [201] * 4
    path = f"/ws/matches/{made[0].json()['match_id']}?token={made[0].json()['seat_token']}"
    for _ in range(2):
        with client.websocket_connect(path, headers=me) as ws:
            assert receive(ws)["type"] == "view"


def test_ipv6_clients_count_by_their_64_block() -> None:
    def key(host: str) -> str:
        return client_key({"client": (host, 1)})

    assert key("2001:db8:1:2::1") == key("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert key("2001:db8:1:3::1") != key("2001:db8:1:2::1")
    assert key("::ffff:192.0.2.7") == key("192.0.2.7") == "192.0.2.7"
    assert key("not an address") == "not an address"


def test_processes_sharing_redis_share_the_count(
    sqlite_url: str, redis_url: str, tmp_path: Any
) -> None:
    """Two processes (two apps, one Redis): a client cannot double its allowance by landing on
    the other one."""
    second_db = f"sqlite:///{tmp_path}/second.db"
    migrate(second_db)
    options = {"rate_limits": "on", "rate_limit_create": "2/minute", "redis_url": redis_url}
    me = from_address(some_address())
    with (
        TestClient(create_app(make_settings(sqlite_url, **options)), client=TRUSTED_PEER) as a,
        TestClient(create_app(make_settings(second_db, **options)), client=TRUSTED_PEER) as b,
    ):
        assert create(a, me).status_code == 201
        assert create(b, me).status_code == 201
        assert_limited(create(a, me))
        assert_limited(create(b, me))


def test_a_failing_redis_falls_back_to_counting_in_memory(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Redis refusing connections: every check still answers, from this process's memory, and
    the outage is logged once, not once per request."""
    settings = Settings(
        redis_url="redis://127.0.0.1:1/0", rate_limit_create="2/minute", database_url="sqlite://"
    )

    async def run() -> list[int | None]:
        limiter = Limiter(settings, Metrics())
        try:
            return [await limiter.hit("create", "192.0.2.1") for _ in range(3)]
        finally:
            await limiter.close()

    waits = asyncio.run(run())
    assert waits[:2] == [None, None]
    assert waits[2] is not None and 1 <= waits[2] <= 60
    failures = [r for r in caplog.records if "Redis failed" in r.getMessage()]
    assert len(failures) == 1


def test_the_real_server_believes_forwarded_for_only_from_its_proxies(tmp_path: Any) -> None:
    """`python -m app` as deployed: uvicorn itself applies no proxy headers; the app does, with
    FORWARDED_ALLOW_IPS (loopback by default, so the test's connection counts as a proxy)."""
    env = {"RATE_LIMITS": "on", "RATE_LIMIT_ADMIN_LOGIN": "2/minute"}
    spawn: Spawn
    with servers(tmp_path) as spawn:
        behind_proxy = spawn(f"sqlite:///{tmp_path}/proxied.db", env=env, ready=False)
        direct_env = {**env, "FORWARDED_ALLOW_IPS": "192.0.2.1"}
        direct = spawn(f"sqlite:///{tmp_path}/direct.db", env=direct_env, ready=False)
        behind_proxy.wait_ready()
        direct.wait_ready()
        for server, believed in ((behind_proxy, True), (direct, False)):
            me = from_address(some_address())
            for _ in range(2):
                response = server.http.post("/admin/login", data={"token": "x"}, headers=me)
                assert response.status_code == 401
            answer = server.http.post(
                "/admin/login", data={"token": "x"}, headers=from_address(some_address())
            )
            assert answer.status_code == (401 if believed else 429), server.base


def test_public_replays_exports_and_checks_are_limited_per_client(limited: Limited) -> None:
    """Each replays a whole match: unlimited, 24 at once slowed every player (issue 40,
    finding 4)."""
    client = limited(rate_limit_replay="3/minute")
    me, neighbour = from_address(some_address()), from_address(some_address())
    missing = "/api/replays/000000000000000000000000"
    for tail in ("", "/export", "/verify"):
        assert client.get(missing + tail, headers=me).status_code == 404
    assert_limited(client.get(missing + "/export", headers=me))
    assert client.get(missing, headers=neighbour).status_code == 404, "another client is not held"
    assert client.get("/api/lobby", headers=me).status_code == 200, "only replays are refused"
