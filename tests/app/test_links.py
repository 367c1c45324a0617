"""Links from BASE_URL (contract v1.1): invite and spectator links come from BASE_URL when it is
set, else only from a Host in ALLOWED_HOSTS, never from an arbitrary Host header; `python -m app`
refuses to listen beyond loopback without BASE_URL."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from app.__main__ import ROOT
from app.config import Settings, is_loopback
from app.main import create_app
from tests.app.conftest import make_settings

Client = Callable[..., TestClient]


def invite_url(client: TestClient, host: str | None = None, **headers: str) -> str:
    if host is not None:
        headers["Host"] = host
    made = client.post("/api/matches", json={"opponent": "human"}, headers=headers)
    assert made.status_code == 201, made.text
    url = str(made.json()["invite_url"])
    assert re.fullmatch(r"https?://[^/]+(/[^/]+)*/invite/[A-Za-z0-9_-]{22}", url), url
    return url


def page_link_base(client: TestClient, host: str) -> str:
    page = client.get("/match/abc", headers={"Host": host})
    found = re.search(r'<script[^>]*id="bootstrap"[^>]*>(.*?)</script>', page.text, re.S)
    assert found is not None
    return str(json.loads(found[1].replace("<\\/", "</"))["link_base"])


@pytest.mark.parametrize("host", ["testserver", "evil.example", "localhost:8000", "["])
def test_with_base_url_links_ignore_the_host_header(
    sqlite_url: str, make_client: Client, host: str
) -> None:
    client = make_client(sqlite_url, base_url="https://watergate.example.org/")
    assert invite_url(client, host).startswith("https://watergate.example.org/invite/")
    assert page_link_base(client, host) == "https://watergate.example.org"


@pytest.mark.parametrize(
    ("host", "base"),
    [
        ("localhost:8000", "http://localhost:8000"),
        ("127.0.0.1:9123", "http://127.0.0.1:9123"),
        ("[::1]:8000", "http://[::1]:8000"),
        ("LOCALHOST", "http://localhost"),
    ],
)
def test_without_base_url_an_allowed_host_is_used(
    sqlite_url: str, make_client: Client, host: str, base: str
) -> None:
    client = make_client(sqlite_url, base_url=None, port=8000)
    assert invite_url(client, host).lower().startswith(base.lower() + "/invite/")
    assert page_link_base(client, host).lower() == base.lower()


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:8000", "localhost.evil.example", "[", "a b", ""]
)
def test_without_base_url_a_foreign_host_never_makes_a_link(
    sqlite_url: str, make_client: Client, host: str
) -> None:
    client = make_client(sqlite_url, base_url=None, port=8000)
    assert invite_url(client, host).startswith("http://localhost:8000/invite/")
    assert page_link_base(client, host) == "http://localhost:8000"


def test_allowed_hosts_can_name_the_public_host(sqlite_url: str, make_client: Client) -> None:
    """Behind a trusted proxy without BASE_URL: the proxy's Host and X-Forwarded-Proto."""
    settings = make_settings(sqlite_url, base_url=None, allowed_hosts="play.example.org")
    with TestClient(create_app(settings), client=("127.0.0.1", 40000)) as proxied:
        url = invite_url(proxied, "play.example.org", **{"X-Forwarded-Proto": "https"})
        assert url.startswith("https://play.example.org/invite/")
        local = invite_url(proxied, "localhost:8000")  # no longer allowed: the first name
        assert local.startswith("http://play.example.org:8000/invite/")


@pytest.mark.parametrize(
    "value", ["watergate.example.org", "ftp://watergate.example.org", "https://", "https://x/?a=1"]
)
def test_a_base_url_that_is_not_an_address_stops_the_start(value: str) -> None:
    with pytest.raises(ValidationError, match="BASE_URL"):
        Settings(base_url=value)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.0.0.5", True),
        ("localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.20", False),
        ("watergate.example.org", False),
    ],
)
def test_public_binds_need_a_base_url(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback
    assert (Settings(host=host).bind_problem() is None) is loopback
    assert Settings(host=host, base_url="https://watergate.example.org").bind_problem() is None


def test_python_m_app_refuses_a_public_bind_without_base_url() -> None:
    """Checked before it migrates or listens: nothing is created, and the message says what to
    set."""
    env = {k: v for k, v in os.environ.items() if k not in ("BASE_URL", "DATABASE_URL")}
    env.update(HOST="0.0.0.0", PORT="1", DATABASE_URL="sqlite:///var/never-made/x.db")
    done = subprocess.run(
        [sys.executable, "-m", "app"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert "HOST=0.0.0.0" in done.stderr and "set BASE_URL" in done.stderr.replace("Set", "set")
    assert not (ROOT / "var" / "never-made").exists()
