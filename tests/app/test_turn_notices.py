"""Web Push turn notices (issue 12): a player's browser subscribes; when it becomes that
player's seat's turn and the seat has no live socket, the server POSTs to the subscription's
endpoint a notice signed with VAPID and encrypted for the browser (RFC 8291, aes128gcm). A local
HTTP server plays the push service: the test decrypts what it received with the browser's own
keys (http_ece, as browsers do) and checks the VAPID signature against the server's public key.
A subscription the push service calls gone (410) is dropped; only known push services (here the
listed loopback host) may be subscribed."""

from __future__ import annotations

import base64
import json
import os
import queue
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from app.config import PUSH_HOSTS
from app.main import create_app
from app.persistence.db import driver_url
from app.services import turns
from engine.watergate.bots import RandomBot

from .conftest import make_settings
from .test_lifecycle import bearer, seat_socket, wait_for
from .test_players import Player, as_player, new_player

DEADLINE = 15.0  # seconds a notice may take to reach the fake push service
SUBJECT = "mailto:ops@watergate.test"


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


class FakePushService:
    """A push service on 127.0.0.1: records every POST; answers 410 under /gone, a redirect to
    /landed at /moved, else 201; under /slow it answers only once `release` is set (a push
    service that hangs)."""

    def __init__(self) -> None:
        self.received: queue.Queue[Received] = queue.Queue()
        self.release = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                outer.received.put(
                    Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                )
                if self.path.startswith("/slow"):
                    outer.release.wait(DEADLINE * 4)
                if self.path == "/moved":
                    self.send_response(307)
                    self.send_header("Location", "/landed")
                else:
                    self.send_response(410 if self.path.startswith("/gone") else 201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def next(self) -> Received:
        try:
            return self.received.get(timeout=DEADLINE)
        except queue.Empty:
            pytest.fail(f"no push reached the push service within {DEADLINE} s")

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


class Browser:
    """A browser's push subscription: its own key pair and auth secret."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = endpoint

    def subscription(self, lang: str = "en") -> dict[str, Any]:
        point = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        keys = {"p256dh": b64url(point), "auth": b64url(self.auth)}
        return {"endpoint": self.endpoint, "keys": keys, "lang": lang}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        found: dict[str, Any] = json.loads(plain)
        return found


@pytest.fixture
def service() -> Iterator[FakePushService]:
    fake = FakePushService()
    yield fake
    fake.close()


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    settings = make_settings(sqlite_url, push_hosts="127.0.0.1", vapid_subject=SUBJECT)
    with TestClient(create_app(settings)) as c:
        yield c


def subscribe(c: TestClient, player: Player, browser: Browser, lang: str = "en") -> None:
    r = c.post(
        "/api/push/subscriptions", json=browser.subscription(lang), headers=as_player(player)
    )
    assert r.status_code == 201, r.text


def duel(c: TestClient, ana: Player, bea: Player) -> tuple[str, dict[str, str]]:
    made = c.post("/api/matches", json={"role": "editor"}, headers=as_player(ana)).json()
    code = made["invite_url"].rsplit("/invite/", 1)[1]
    claimed = c.post(f"/api/invites/{code}/claim", headers=as_player(bea)).json()
    return made["match_id"], {"editor": made["seat_token"], "nixon": claimed["seat_token"]}


def decider(c: TestClient, match_id: str, tokens: dict[str, str]) -> tuple[str, dict[str, Any]]:
    for role, token in tokens.items():
        view = c.get(f"/api/matches/{match_id}", headers=bearer(token)).json()
        if view["legal_actions"]:
            return role, view
    pytest.fail("nobody decides")


def play_until(
    c: TestClient, match_id: str, tokens: dict[str, str], role: str, bot: RandomBot
) -> int:
    """Random legal moves until `role` decides; how many times the other seat decided."""
    for others in range(200):
        deciding, view = decider(c, match_id, tokens)
        if deciding == role:
            return others
        action = bot.choose(view["state"], view["legal_actions"])
        r = c.post(
            f"/api/matches/{match_id}/actions",
            headers=bearer(tokens[deciding]),
            json={"action": action, "expected_version": view["version"]},
        )
        assert r.status_code == 200, r.text
    pytest.fail(f"{role} never decided")


def vapid_claims(headers: dict[str, str], server_key: str) -> dict[str, Any]:
    """The claims of the VAPID JWT, once its ES256 signature is checked with the server's key."""
    scheme, _, params = headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == server_key
    head, claims, signature = fields["t"].split(".")
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(server_key))
    public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    assert json.loads(unb64url(head))["alg"] == "ES256"
    found: dict[str, Any] = json.loads(unb64url(claims))
    return found


def test_a_player_away_from_the_table_gets_an_encrypted_signed_turn_notice(
    client: TestClient, service: FakePushService
) -> None:
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    ana_browser, bea_browser = Browser(f"{service.origin}/ana"), Browser(f"{service.origin}/bea")
    subscribe(client, bea, bea_browser)
    server_key = client.get("/api/push/key").json()["public_key"]
    match_id, tokens = duel(client, ana, bea)
    bot = RandomBot(7)
    with seat_socket(client, match_id, tokens["nixon"]) as bea_at_table:
        wait_for(bea_at_table, lambda v: v["presence"]["nixon"]["online"], "Bea is at the table")
        play_until(client, match_id, tokens, "nixon", bot)  # Bea's turn, at her table: no notice
        subscribe(client, ana, ana_browser, "de")
        assert play_until(client, match_id, tokens, "editor", bot) > 0  # Bea moved; Ana is away
        got = service.next()
    assert got.path == "/ana"  # the first and only: Bea was at her table when it was hers
    assert got.headers["content-encoding"] == "aes128gcm"
    assert int(got.headers["ttl"]) > 0
    claims = vapid_claims(got.headers, server_key)
    assert claims["aud"] == service.origin and claims["sub"] == SUBJECT
    notice = ana_browser.decrypt(got.body)
    assert notice == {
        "type": "turn",
        "match_id": match_id,
        "title": "Du bist in Watergate am Zug",  # the language Ana's browser subscribed in
        "body": "Bea hat gezogen: Du bist am Zug.",
        "url": f"/match/{match_id}",
    }
    assert service.received.empty()  # one turn, one notice


def test_a_subscription_the_push_service_calls_gone_is_dropped(
    client: TestClient, service: FakePushService, sqlite_url: str
) -> None:
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    gone, kept = Browser(f"{service.origin}/gone/ana"), Browser(f"{service.origin}/ana-phone")
    subscribe(client, ana, gone)
    subscribe(client, ana, kept)
    match_id, tokens = duel(client, ana, bea)
    play_until(client, match_id, tokens, "editor", RandomBot(3))
    assert sorted(service.next().path for _ in range(2)) == ["/ana-phone", "/gone/ana"]
    engine = create_engine(driver_url(sqlite_url), poolclass=NullPool)
    deadline = time.monotonic() + DEADLINE
    with engine.connect() as conn:  # the drop follows the 410 answer: polled, with a deadline
        while True:
            left = conn.execute(text("select endpoint from push_subscriptions")).scalars().all()
            conn.rollback()
            if left == [kept.endpoint] or time.monotonic() > deadline:
                break
            time.sleep(0.05)
    engine.dispose()
    assert left == [kept.endpoint]


def test_only_known_push_services_and_players_may_subscribe(client: TestClient) -> None:
    ana = new_player(client, "Ana")
    for endpoint in (
        "https://evil.example/push/1",  # not a push service
        "http://10.0.0.5/admin",  # inside the network
        "ftp://127.0.0.1/x",
    ):
        sub = Browser(endpoint).subscription()
        r = client.post("/api/push/subscriptions", json=sub, headers=as_player(ana))
        assert (r.status_code, r.json()["code"]) == (422, "invalid_subscription"), endpoint
    sub = Browser("http://127.0.0.1:9/push").subscription()
    r = client.post("/api/push/subscriptions", json=sub)
    assert (r.status_code, r.json()["code"]) == (401, "player_required")
    bad = {**sub, "keys": {"p256dh": "short", "auth": "x"}}
    r = client.post("/api/push/subscriptions", json=bad, headers=as_player(ana))
    assert (r.status_code, r.json()["code"], r.json()["reason"]) == (
        422,
        "invalid_subscription",
        "keys",
    )


@pytest.mark.parametrize(
    ("endpoint", "reason"),
    [
        # the report's: urllib.parse reads host fcm.googleapis.com, the HTTP library 127.0.0.1
        ("https://127.0.0.1\\@fcm.googleapis.com/fcm/send/x", "backslash"),
        ("https://[::1]\\@fcm.googleapis.com/fcm/send/x", "backslash"),
        ("https://127.0.0.1:443@fcm.googleapis.com/fcm/send/x", "userinfo"),
        ("https://fcm.googleapis.com:8443/fcm/send/x", "port"),
        ("https://[::1]/fcm/send/x", "address"),
        ("https://2130706433/fcm/send/x", "address"),
        ("http://fcm.googleapis.com/fcm/send/x", "scheme"),
        ("https://fcm.googleapis.com.evil.example/fcm/send/x", "host"),
    ],
)
def test_an_endpoint_is_checked_as_the_http_library_reads_it(
    sqlite_url: str, make_client: Any, endpoint: str, reason: str
) -> None:
    """With the push services of the defaults, the host urllib.parse sees is not enough."""
    c = make_client(sqlite_url, push_hosts=PUSH_HOSTS)
    ana = new_player(c, "Ana")
    r = c.post(
        "/api/push/subscriptions", json=Browser(endpoint).subscription(), headers=as_player(ana)
    )
    assert r.status_code == 422, r.text
    assert (r.json()["code"], r.json()["reason"]) == ("invalid_subscription", reason)
    good = Browser("https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b").subscription()
    assert c.post("/api/push/subscriptions", json=good, headers=as_player(ana)).status_code == 201


def test_the_vapid_key_is_made_once_and_kept(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    keys = []
    for _ in range(2):  # a restart on the same database
        with TestClient(create_app(make_settings(sqlite_url))) as c:
            keys.append(c.get("/api/push/key").json()["public_key"])
            pem = c.app.state.ctx.turns.vapid.private_pem().decode()  # type: ignore[attr-defined]
    assert keys[0] == keys[1] and len(unb64url(keys[0])) == 65
    secret_line = pem.splitlines()[1]
    assert secret_line not in caplog.text


def test_the_service_worker_is_served_from_the_root(client: TestClient) -> None:
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/javascript")
    assert "showNotification" in r.text
    assert r.headers["x-content-type-options"] == "nosniff"
    assert "default-src 'none'" in r.headers["content-security-policy"]


# ---- deliveries are concurrent, bounded in time, and never stop the sender (issue 40, 8) --------


def notice_counts(c: TestClient) -> dict[str, int]:
    counts: dict[str, int] = c.app.state.ctx.metrics.notice_counts()  # type: ignore[attr-defined]
    return counts


def wait_for_count(c: TestClient, outcome: str, at_least: int) -> dict[str, int]:
    """The notice outcomes once `outcome` has been counted `at_least` times (polled, with a
    deadline: the deliveries run on the server's own loop)."""
    deadline = time.monotonic() + DEADLINE
    while (counts := notice_counts(c))[outcome] < at_least and time.monotonic() < deadline:
        time.sleep(0.02)
    assert counts[outcome] >= at_least, counts
    return counts


def settled(c: TestClient, deliveries: int) -> dict[str, int]:
    """The notice outcomes once `deliveries` deliveries have ended, whatever their outcome."""
    deadline = time.monotonic() + DEADLINE
    while sum((counts := notice_counts(c)).values()) < deliveries:
        if time.monotonic() > deadline:
            pytest.fail(f"{deliveries} deliveries did not end within {DEADLINE} s: {counts}")
        time.sleep(0.02)
    return counts


def store_subscription(url: str, player: Player, endpoint: str) -> None:
    """A subscription written straight into the database, as one stored before its endpoint
    was checked (or under another PUSH_HOSTS) would be: the sender must cope with it."""
    browser = Browser(endpoint).subscription()["keys"]
    engine = create_engine(driver_url(url), poolclass=NullPool)
    with engine.begin() as conn:
        conn.execute(
            text(
                "insert into push_subscriptions (player, endpoint, p256dh, auth, lang, created_at)"
                " values (:player, :endpoint, :p256dh, :auth, 'en', CURRENT_TIMESTAMP)"
            ),
            {"player": player["player_id"], "endpoint": endpoint, **browser},
        )
    engine.dispose()


def test_a_hanging_push_service_delays_nobody_else_s_notice(
    client: TestClient, service: FakePushService
) -> None:
    """Two of Ana's browsers sit behind a push service that does not answer; Cid's turn notice,
    due meanwhile, still goes out at once (it waited out both sends, and their retries, one
    after the other: over a minute)."""
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    cid, dan = new_player(client, "Cid"), new_player(client, "Dan")
    for path in ("/slow/ana-1", "/slow/ana-2"):
        subscribe(client, ana, Browser(service.origin + path))
    subscribe(client, cid, Browser(f"{service.origin}/cid"))
    first, first_tokens = duel(client, ana, bea)
    play_until(client, first, first_tokens, "editor", RandomBot(5))
    assert sorted(service.next().path for _ in range(2)) == ["/slow/ana-1", "/slow/ana-2"]
    second, second_tokens = duel(client, cid, dan)
    play_until(client, second, second_tokens, "editor", RandomBot(6))
    assert service.next().path == "/cid"  # while both of Ana's sends still hang
    assert not service.release.is_set()
    service.release.set()
    wait_for_count(client, "sent", 3)


def test_a_send_past_its_deadline_ends_as_a_timeout(
    client: TestClient, service: FakePushService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(turns, "SEND_DEADLINE_S", 0.5)
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    subscribe(client, ana, Browser(f"{service.origin}/slow/ana"))
    match_id, tokens = duel(client, ana, bea)
    play_until(client, match_id, tokens, "editor", RandomBot(8))
    assert service.next().path == "/slow/ana"
    counts = settled(client, 1)
    assert counts["timeout"] == 1, counts


def test_an_endpoint_that_breaks_a_send_costs_only_its_own_notice(
    client: TestClient,
    service: FakePushService,
    sqlite_url: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Endpoints whose address the HTTP library cannot take ([::1] behind a backslash, a port
    that does not exist) once made the sender fail and start again, losing the notices after
    theirs; now each ends as an outcome of its own (counted, logged without the endpoint) and
    the player's other browser is told."""
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    broken = (
        "https://[::1]\\@fcm.googleapis.com/fcm/send/secret-one",
        "https://fcm.googleapis.com:99999/fcm/send/secret-two",
    )
    for endpoint in broken:
        store_subscription(sqlite_url, ana, endpoint)
    subscribe(client, ana, Browser(f"{service.origin}/ana"))
    match_id, tokens = duel(client, ana, bea)
    play_until(client, match_id, tokens, "editor", RandomBot(9))
    assert service.next().path == "/ana"
    counts = settled(client, 3)
    assert (counts["sent"], counts["refused"], sum(counts.values())) == (1, 2, 3), counts
    assert "secret" not in caplog.text


def test_a_stored_endpoint_the_checks_refuse_is_never_sent_to(
    client: TestClient, service: FakePushService, sqlite_url: str
) -> None:
    """Subscriptions stored before the checks (or under other PUSH_HOSTS) that the HTTP
    library would have taken to the fake service: checked again at send time, they get
    nothing, and they are not dropped either (dropping is what a 404/410 answer did, which an
    attacker could watch)."""
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    port = service.origin.rsplit(":", 1)[1]
    refused = (
        f"http://127.0.0.1:{port}\\@push.example.org/gone/x",
        f"http://someone@127.0.0.1:{port}/gone/y",
    )
    for endpoint in refused:
        store_subscription(sqlite_url, ana, endpoint)
    subscribe(client, ana, Browser(f"{service.origin}/ana"))
    match_id, tokens = duel(client, ana, bea)
    play_until(client, match_id, tokens, "editor", RandomBot(10))
    assert service.next().path == "/ana"
    counts = settled(client, 3)  # checked again as they are sent
    assert (counts["sent"], counts["refused"], sum(counts.values())) == (1, 2, 3), counts
    assert service.received.empty(), service.received.get().path
    engine = create_engine(driver_url(sqlite_url), poolclass=NullPool)
    with engine.connect() as conn:
        kept = set(conn.execute(text("select endpoint from push_subscriptions")).scalars())
    engine.dispose()
    assert kept == {*refused, f"{service.origin}/ana"}


def test_a_push_service_name_that_resolves_to_loopback_is_never_connected_to(
    sqlite_url: str, make_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A listed push service's name that the DNS answers with this machine's address (a
    hijacked record, or a rebinding attack): refused at send time, before any connection."""
    real = socket.getaddrinfo
    asked: list[str] = []

    def rebound(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host == "push.example.org":
            asked.append(host)
            return real("127.0.0.1", port, *args, **kwargs)
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebound)
    c = make_client(sqlite_url, push_hosts="push.example.org")
    ana, bea = new_player(c, "Ana"), new_player(c, "Bea")
    subscribe(c, ana, Browser("https://push.example.org/fcm/send/x"))
    match_id, tokens = duel(c, ana, bea)
    play_until(c, match_id, tokens, "editor", RandomBot(11))
    counts = settled(c, 1)
    assert counts["blocked"] == 1 and asked == ["push.example.org"], counts


def test_a_redirect_from_a_push_service_is_not_followed(
    client: TestClient, service: FakePushService
) -> None:
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    subscribe(client, ana, Browser(f"{service.origin}/moved"))
    match_id, tokens = duel(client, ana, bea)
    play_until(client, match_id, tokens, "editor", RandomBot(12))
    assert service.next().path == "/moved"
    counts = settled(client, 1)
    assert counts["rejected"] == 1, counts
    assert service.received.empty(), "the redirect was followed"
