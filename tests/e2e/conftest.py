"""End-to-end fixtures: one real server subprocess per test module (`python -m app` on a fresh
SQLite file and a free port, bots without delay) and one headless Debian Chromium per session.

Without /usr/bin/chromium (or Playwright) the browser tests skip with a reason; in CI (CI=true)
that is a failure instead."""

from __future__ import annotations

import json
import os
import re
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import pytest

from bench.server import app_process

ROOT = Path(__file__).resolve().parents[2]
OUTPUT = Path(__file__).resolve().parent / "output"  # emptied at the start by tests/conftest.py
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
IN_CI = os.environ.get("CI") == "true"
START_TIMEOUT_S = 30.0
UI_TIMEOUT_MS = 15_000
LOCALES: dict[str, dict[str, Any]] = {
    lang: json.loads((ROOT / "app" / "locales" / f"{lang}.json").read_text(encoding="utf-8"))
    for lang in ("en", "pt-BR", "de")
}


def fill(template: str, **params: object) -> str:
    """The same placeholder filling as static/js/i18n.js (unknown names stay as they are)."""
    return re.sub(r"\{(\w+)\}", lambda m: str(params[m[1]]) if m[1] in params else m[0], template)


def _missing(what: str) -> NoReturn:
    """Outside CI a missing browser skips with a reason; in CI it is a failure."""
    if IN_CI:
        pytest.fail(f"{what} is required in CI (CI=true)")
    pytest.skip(f"{what} is not available: the end-to-end browser tests need it")


@contextmanager
def serving(tmp: Path, admin_token: str | None = None) -> Iterator[str]:
    """A freshly migrated server on a fresh SQLite file in `tmp` and a free port (bots without
    delay, rate limits off), logging to `tmp`/server.log; its base URL while the block runs.
    `admin_token`: the ADMIN_TOKEN it is given (a random one nobody knows by default)."""
    settings = {
        "DATABASE_URL": f"sqlite:///{tmp / 'e2e.db'}",
        "ADMIN_TOKEN": admin_token or secrets.token_hex(16),
        "BOT_DELAY_MS": "0",
        "RATE_LIMITS": "off",  # every browser of a test module comes from 127.0.0.1
    }
    with app_process(settings, tmp / "server.log", START_TIMEOUT_S) as (url, _):
        yield url


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a freshly migrated server that lives as long as the test module."""
    with serving(tmp_path_factory.mktemp("e2e-server")) as url:
        yield url


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Headless Debian Chromium (never downloaded), for one test module: Playwright's sync API
    holds an event loop on this thread while it runs, so it must be gone before a test of
    another module (a test worker runs browser and app modules in any order) calls asyncio.run."""
    if not CHROMIUM.exists():
        _missing(str(CHROMIUM))
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        _missing("Playwright for Python")
    expect.set_options(timeout=UI_TIMEOUT_MS)
    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield instance
        finally:
            instance.close()


# Chromium reports a blocked resource in the console; the event also catches what it reports
# only to the page (and names the directive).
REPORT_CSP = """document.addEventListener("securitypolicyviolation", (e) => console.error(
  `Content Security Policy violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"}`
));"""


def _csp_violation(message: Any, url: str, errors: list[str]) -> None:
    if message.type == "error" and "Content Security Policy" in message.text:
        errors.append(f"{url}: {message.text}")


@pytest.fixture
def open_page(chromium: Any, server: str) -> Iterator[Callable[..., Any]]:
    """open_page(**context_options) -> a page in a brand-new browser context (its own storage,
    like a separate browser). Uncaught page errors and Content-Security-Policy violations (the
    browser blocked something a page needs) fail the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(prefs: dict[str, str] | None = None, **options: Any) -> Any:
        """`prefs`: localStorage settings this browser starts with (unless the page changes
        them). By default auto-pass is off, so that a test that plays by clicking answers every
        reaction window itself; pass prefs={} for the page's own defaults."""
        kept = {"wg.autopass": "0"} if prefs is None else prefs
        settings: dict[str, Any] = {
            "base_url": server,
            "locale": "en-US",
            "viewport": {"width": 1280, "height": 900},
        }
        settings.update(options)
        context = chromium.new_context(**settings)
        context.set_default_timeout(UI_TIMEOUT_MS)
        contexts.append(context)
        unless_set = "if (localStorage.getItem(k) === null) localStorage.setItem(k, v);"
        entries = f"Object.entries({json.dumps(kept)})"
        context.add_init_script(f"for (const [k, v] of {entries}) {unless_set}")
        context.add_init_script(REPORT_CSP)
        page = context.new_page()
        page.on("pageerror", lambda err: errors.append(f"{page.url}: {err}"))
        page.on("console", lambda msg: _csp_violation(msg, page.url, errors))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"uncaught errors or blocked content in the page: {errors}"


@pytest.fixture
def shot() -> Callable[..., Path]:
    """shot(page, name) saves a full-page screenshot as tests/e2e/output/<name>.png."""

    def save(page: Any, name: str, full_page: bool = True) -> Path:
        path = OUTPUT / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page, animations="disabled")
        return path

    return save
