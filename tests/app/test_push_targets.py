"""Where a turn notice may be sent (issue 40, finding 2): the endpoint's text is checked as the
HTTP library will read it, every address its host resolves to must be public, and the
connection goes to the very address that was checked (no second lookup: DNS rebinding)."""

from __future__ import annotations

import ipaddress
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import requests

from app.config import PUSH_HOSTS
from app.pushtargets import Blocked, Guard, Refused, checked_endpoint, pinned_session, public

HOSTS = tuple(PUSH_HOSTS.split(","))


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://fcm.googleapis.com/fcm/send/dGVzdA:APA91bH-x_y",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABh",
        "https://wns2-par02p.notify.windows.com/w/?token=BQYAAABk%3d%3d",
        "https://web.push.apple.com/QGuQyavXutnMH",
        "HTTPS://FCM.googleapis.com/fcm/send/x",  # scheme and host in any case
    ],
)
def test_the_push_services_endpoints_pass(endpoint: str) -> None:
    target = checked_endpoint(endpoint, HOSTS)
    assert target.url.lower() == endpoint.lower()
    assert target.audience == "https://" + target.host and "@" not in target.url


@pytest.mark.parametrize(
    ("endpoint", "reason"),
    [
        # the report's endpoint: urllib.parse reads host fcm.googleapis.com, urllib3 127.0.0.1
        ("https://127.0.0.1\\@fcm.googleapis.com/x", "backslash"),
        ("https://[::1]\\@fcm.googleapis.com/x", "backslash"),
        ("https://[::1]:443\\@fcm.googleapis.com/x", "backslash"),
        ("https://fcm.googleapis.com\\x/y", "backslash"),
        ("https://evil@fcm.googleapis.com/x", "userinfo"),
        ("https://127.0.0.1:443@fcm.googleapis.com/x", "userinfo"),
        ("https://fcm.googleapis.com%2f@127.0.0.1/x", "userinfo"),
        ("https://fcm.googleapis.com:443/x", "port"),
        ("https://fcm.googleapis.com:8443/x", "port"),
        ("https://fcm.googleapis.com:99999/x", "port"),
        ("https://127.0.0.1/x", "address"),
        ("https://127.0.0.1:443/x", "address"),
        ("https://2130706433/x", "address"),  # inet_aton's spellings of 127.0.0.1
        ("https://127.1/x", "address"),
        ("https://0x7f.1/x", "address"),
        ("https://[::1]/x", "address"),
        ("https://[::ffff:127.0.0.1]/x", "address"),
        ("https://[fe80::1%25eth0]/x", "address"),
        ("http://fcm.googleapis.com/x", "scheme"),
        ("ftp://fcm.googleapis.com/x", "scheme"),
        ("//fcm.googleapis.com/x", "scheme"),
        ("https://evil.example/x", "host"),
        ("https://fcm.googleapis.com.evil.example/x", "host"),
        ("https://evilfcm.googleapis.com/x", "host"),  # a suffix, not a subdomain
        ("https://fcm.googleapis.com./x", "host"),
        ("https://fcm..googleapis.com/x", "host"),
        ("https://fcm.googleapis.com/x#fragment", "path"),
        ("https://fcm.googleapis.com", "path"),
        ("https://fcm.googleapis.com?x", "path"),
        ("https://fcm.googleapis.com/a b", "characters"),
        ("https://fcm.googleapis.com/\r\nHost: x", "characters"),
        ("https://fcm.googleapis.com/ü", "characters"),
        ("https://fcm.googleapis.com/" + "x" * 1024, "length"),
    ],
)
def test_anything_else_is_refused_with_a_reason(endpoint: str, reason: str) -> None:
    with pytest.raises(Refused) as refused:
        checked_endpoint(endpoint, HOSTS)
    assert refused.value.reason == reason


def test_a_listed_loopback_address_may_be_used_as_such_and_only_it() -> None:
    """The tests' fake push service: http and a port on 127.0.0.1, because PUSH_HOSTS lists it."""
    target = checked_endpoint("http://127.0.0.1:8123/ana", ("127.0.0.1",))
    assert (target.url, target.audience) == ("http://127.0.0.1:8123/ana", "http://127.0.0.1:8123")
    for endpoint, reason in (
        ("http://127.0.0.2:8123/ana", "scheme"),  # another loopback address: not listed
        ("http://127.0.0.1:8123\\@fcm.googleapis.com/ana", "backslash"),
        ("http://x@127.0.0.1:8123/ana", "userinfo"),
        ("http://127.0.0.1:0/ana", "port"),
    ):
        with pytest.raises(Refused) as refused:
            checked_endpoint(endpoint, ("127.0.0.1", *HOSTS))
        assert refused.value.reason == reason, endpoint
    with pytest.raises(Refused):  # a listed address that is not loopback is no exception
        checked_endpoint("http://10.0.0.5:80/x", ("10.0.0.5",))


@pytest.mark.parametrize(
    ("address", "is_public"),
    [
        ("142.250.185.74", True),
        ("2a00:1450:4001:80b::200a", True),
        ("127.0.0.1", False),
        ("10.1.2.3", False),
        ("172.16.0.1", False),
        ("192.168.1.1", False),
        ("169.254.169.254", False),  # a cloud's metadata service
        ("100.64.0.1", False),  # shared address space (carrier NAT)
        ("0.0.0.0", False),
        ("224.0.0.1", False),
        ("240.0.0.1", False),
        ("255.255.255.255", False),
        ("::1", False),
        ("::", False),
        ("fe80::1", False),
        ("fc00::1", False),
        ("fec0::1", False),
        ("ff02::1", False),
        ("::ffff:127.0.0.1", False),  # v4 inside v6
        ("::ffff:10.0.0.1", False),
        ("64:ff9b::a9fe:a9fe", False),  # NAT64 of 169.254.169.254
        ("2002:7f00:1::1", False),  # 6to4 of 127.0.0.1
    ],
)
def test_only_public_addresses_are_public(address: str, is_public: bool) -> None:
    assert public(ipaddress.ip_address(address)) is is_public


def test_every_address_of_the_host_must_be_public() -> None:
    answers = {
        "a.fcm.googleapis.com": ["142.250.185.74", "2a00:1450:4001:80b::200a"],
        "b.fcm.googleapis.com": ["127.0.0.1"],
        "c.fcm.googleapis.com": ["142.250.185.74", "10.0.0.7"],  # one bad answer is enough
        "d.fcm.googleapis.com": [],
    }
    guard = Guard(HOSTS, resolver=lambda host, port: answers[host])
    assert guard.address("a.fcm.googleapis.com", 443) == "142.250.185.74"
    for host in ("b", "c", "d"):
        with pytest.raises(Blocked):
            guard.address(f"{host}.fcm.googleapis.com", 443)

    def unknown(host: str, port: int) -> list[str]:
        raise OSError("no such name")

    with pytest.raises(Blocked):
        Guard(HOSTS, resolver=unknown).address("e.fcm.googleapis.com", 443)


class Recorder:
    """An HTTP server on 127.0.0.1 recording each request's path and Host header; /moved answers
    a redirect to /landed."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                outer.seen.append((self.path, self.headers.get("Host", "")))
                moved = self.path == "/moved"
                self.send_response(307 if moved else 201)
                if moved:
                    self.send_header("Location", "/landed")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def recorder() -> Iterator[Recorder]:
    found = Recorder()
    yield found
    found.close()


def test_the_session_connects_to_the_address_it_checked(recorder: Recorder) -> None:
    """The name is looked up once, by the guard, and the connection goes to that answer: a
    second lookup (the library's own) could have answered with another address. `.invalid`
    never resolves for real, so without the pin this request could not be made at all."""
    lookups: list[str] = []

    def resolver(host: str, port: int) -> list[str]:
        lookups.append(host)
        return ["127.0.0.1"]

    guard = Guard(("push.invalid",), resolver=resolver, allowed=lambda a: a.is_loopback)
    with pinned_session(guard) as session:
        url = f"http://push.invalid:{recorder.port}/notice"
        answer = session.post(url, data=b"x", timeout=5, allow_redirects=False)
        assert answer.status_code == 201
        moved = session.post(  # no allow_redirects=False: the session itself follows none
            f"http://push.invalid:{recorder.port}/moved", data=b"x", timeout=5
        )
    assert moved.status_code == 307 and moved.headers["location"] == "/landed"
    assert lookups == ["push.invalid"] * 2  # one per connection (the server closes each)
    assert recorder.seen == [
        ("/notice", f"push.invalid:{recorder.port}"),  # the name, not the address, is requested
        ("/moved", f"push.invalid:{recorder.port}"),
    ]  # and never /landed


def test_the_session_refuses_a_host_that_resolves_to_a_private_address(recorder: Recorder) -> None:
    guard = Guard(("push.invalid",), resolver=lambda host, port: ["127.0.0.1"])
    with pinned_session(guard) as session, pytest.raises(Blocked):
        session.post(f"http://push.invalid:{recorder.port}/notice", data=b"x", timeout=5)
    assert recorder.seen == []


def test_the_session_ignores_proxies_from_the_environment(
    recorder: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTP_PROXY", "http://10.9.9.9:3128")
    monkeypatch.setenv("HTTPS_PROXY", "http://10.9.9.9:3128")
    guard = Guard(("127.0.0.1",))
    with pinned_session(guard) as session:
        answer = session.post(f"http://127.0.0.1:{recorder.port}/notice", data=b"x", timeout=5)
    assert answer.status_code == 201 and recorder.seen[0][0] == "/notice"


def test_requests_alone_would_follow_the_backslash_to_loopback() -> None:
    """Why the text check cannot trust urllib.parse: requests (urllib3) sends the report's
    endpoint to 127.0.0.1, whatever urllib.parse says its host is."""
    from urllib.parse import urlsplit

    endpoint = "https://127.0.0.1\\@fcm.googleapis.com/x"
    assert urlsplit(endpoint).hostname == "fcm.googleapis.com"
    prepared = requests.Request("POST", endpoint).prepare()
    assert prepared.url is not None and prepared.url.startswith("https://127.0.0.1/")
