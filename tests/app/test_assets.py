"""What a page asks the network for: it announces every module its scripts will import (one
round trip instead of one per level of imports), and the server compresses what it sends."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from app.http.assets import page_modules
from tests.e2e.test_locales import loaded_by

PRELOAD = re.compile(r'<link rel="modulepreload" href="([^"]+)" nonce="[^"]+">')


@pytest.mark.parametrize("template", ["match.html", "nations.html", "home.html", "lobby.html"])
def test_a_page_announces_exactly_the_modules_it_loads(template: str) -> None:
    # the test's own walk of the imports (tests/e2e/test_locales.py), not the app's; a module a
    # page fetches only on demand (a dynamic import, such as the replay's steps) is not announced
    loaded = loaded_by(template, on_demand=False)
    walked = {str(p).split("/static", 1)[1] for p in loaded if p.suffix == ".js"}
    assert {u.removeprefix("/static") for u in page_modules(template)} == walked


def test_the_home_page_carries_the_links_with_its_nonce(client: TestClient) -> None:
    html = client.get("/").text
    assert PRELOAD.findall(html) == list(page_modules("home.html"))


@pytest.mark.parametrize("path", ["/rules", "/static/js/table/shell.js", "/static/css/base.css"])
def test_pages_and_assets_are_compressed_for_a_client_that_accepts_it(
    client: TestClient, path: str
) -> None:
    response = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200
    assert response.headers["content-encoding"] == "gzip"
    plain = client.get(path, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    # httpx undoes the gzip: the same page (each answer has its own CSP nonce)
    nonce = re.compile(rb'nonce="[^"]+"')
    assert nonce.sub(b"", plain.content) == nonce.sub(b"", response.content)
