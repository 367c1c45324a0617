"""End-to-end fixtures: a real server subprocess of its own for each test module (`python -m app`
on a fresh SQLite file and a free port, bots without delay), started while the module before it
runs, and one headless Debian Chromium per test process, shared by the browser tests that run one
after another (each test opens brand-new browser contexts).

Without /usr/bin/chromium (or Playwright) the browser tests skip with a reason; in CI (CI=true)
that is a failure instead."""

from __future__ import annotations

import json
import os
import re
import secrets
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, NoReturn

import pytest

from app.passwords import MIN_MEMORY_KIB
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
# every module server's ADMIN_TOKEN (new for each test process): the modules that sign in as the
# admin import it, the others never use it
ADMIN_TOKEN = "e2e-admin-" + secrets.token_hex(16)
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
        # argon2id at OWASP's minimum, the cheapest the app accepts: a third of the host's cost
        "PASSWORD_HASH_MEMORY_KIB": str(MIN_MEMORY_KIB),
    }
    with app_process(settings, tmp / "server.log", START_TIMEOUT_S) as (url, _):
        yield url


class _Starting:
    """A module's server (`serving` in a folder of its own, with ADMIN_TOKEN), started on a thread
    of its own: a server takes seconds to import, migrate and answer, which the module before it
    spends waiting on its browser, so the next module's server starts meanwhile."""

    def __init__(self, home: Path, starter: ThreadPoolExecutor) -> None:
        self.home = home
        self._served: AbstractContextManager[str] = serving(home, ADMIN_TOKEN)
        self._url: Future[str] = starter.submit(self._served.__enter__)

    def url(self) -> str:
        """Its base URL once it answers (the start's error if it did not come up)."""
        return self._url.result()

    def stop(self) -> None:
        if self._url.exception() is None:
            self._served.__exit__(None, None, None)


class _Servers:
    """This test process's module servers: one in use, and the next one already starting. A
    module gets a server nobody used (its own database, as before); the one started for a next
    module that never comes is stopped when the browser tests are over."""

    def __init__(self) -> None:
        self._starter = ThreadPoolExecutor(1, thread_name_prefix="e2e-server")
        self._next: _Starting | None = None

    def _start(self, factory: pytest.TempPathFactory) -> _Starting:
        return _Starting(factory.mktemp("e2e-server"), self._starter)

    @contextmanager
    def server(self, factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
        """(base URL, folder of its SQLite file and log) of a fresh server for one module."""
        mine = self._next or self._start(factory)
        self._next = self._start(factory)
        try:
            yield mine.url(), mine.home
        finally:
            mine.stop()

    def stop_next(self) -> None:
        if self._next is not None:
            self._next.stop()
            self._next = None


SERVERS = _Servers()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """(base URL, folder) of a freshly migrated server of this module's own: its SQLite file is
    `folder`/e2e.db and its log `folder`/server.log; its ADMIN_TOKEN is ADMIN_TOKEN."""
    with SERVERS.server(tmp_path_factory) as found:
        yield found


@pytest.fixture(scope="module")
def server(served: tuple[str, Path]) -> str:
    """The base URL of a freshly migrated server that lives as long as the test module."""
    return served[0]


class _Browser:
    """Headless Debian Chromium (never downloaded), launched for the first browser test of this
    process and kept for the browser tests that follow it. Playwright's sync API holds an event
    loop on this thread while it runs, so it is closed before any test that does not use it (a
    test worker runs browser and app modules in any order, and an app test may call
    asyncio.run), and launched again if a browser test comes later."""

    def __init__(self) -> None:
        self._playwright: Any = None
        self._browser: Any = None

    def get(self) -> Any:
        if self._browser is None:
            if not CHROMIUM.exists():
                _missing(str(CHROMIUM))
            try:
                from playwright.sync_api import expect, sync_playwright
            except ImportError:
                _missing("Playwright for Python")
            expect.set_options(timeout=UI_TIMEOUT_MS)
            self._playwright = sync_playwright().start()
            try:
                self._browser = self._playwright.chromium.launch(
                    executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
                )
            except BaseException:
                self.close()
                raise
        return self._browser

    def close(self) -> None:
        browser, playwright = self._browser, self._playwright
        self._browser = self._playwright = None
        try:
            if browser is not None:
                browser.close()
        finally:
            if playwright is not None:
                playwright.stop()


BROWSER = _Browser()


@pytest.fixture
def chromium() -> Any:
    """This process's headless Chromium (see _Browser)."""
    return BROWSER.get()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Once a test's fixtures are torn down, before a test that does not use the browser: close
    it; and before a test that is no browser test, stop the server started for a next module."""
    try:
        return (yield)
    finally:
        if nextitem is None or "chromium" not in getattr(nextitem, "fixturenames", ()):
            BROWSER.close()
        if nextitem is None or not nextitem.path.is_relative_to(Path(__file__).parent):
            SERVERS.stop_next()


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
