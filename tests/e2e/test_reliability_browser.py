"""Reliability in the browser (issue 43): a player under an abandonment ban opens the lobby and
sees its notice — what it closes, until when in their own time zone and language, and why —
instead of the buttons it closes; quick pairing from that browser answers `403 banned` with the
ban's end; another player's low reliability shows on their challenge, and the filter that hides
such challenges is remembered across a reload. Screenshots of the notice (desktop and phone, in
English and German) go to tests/e2e/output/; `PEOPLE_SCREENS=docs/screens/people` refreshes the
committed ones instead (a plain test run leaves the work tree clean).

The ban is written into the server's database as the record path writes it (two abandonment
records in a day and their three sanctions; tests/app/test_reliability.py drives that path
itself with a clock it moves): a live clock cannot be made to run out in a browser test's time."""

from __future__ import annotations

import json
import os
import sqlite3
import urllib.request
from collections.abc import Callable
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from app.services.reliability import ban_reason

from .conftest import LOCALES, OUTPUT, ROOT, fill
from .test_axe import violations

try:
    from playwright.sync_api import Page, expect
except ImportError:  # pragma: no cover - depends on the machine
    if os.environ.get("CI") == "true":
        raise
    pytest.skip("Playwright for Python is not installed", allow_module_level=True)

SCREENS = ROOT / os.environ.get("PEOPLE_SCREENS", str(OUTPUT))  # relative to the repository
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
EN, DE = LOCALES["en"]["reliability"], LOCALES["de"]["reliability"]


@pytest.fixture(scope="module")
def home(served: tuple[str, Path]) -> Path:
    """The folder of this module's server's SQLite file, which the test writes the ban into."""
    return served[1]


def call(server: str, method: str, path: str, body: Any = None, token: str = "") -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("X-Player-Token", token)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"null")


def player(server: str, name: str) -> dict[str, str]:
    made: dict[str, str] = call(server, "POST", "/api/players", {"name": name})
    return made


def sql(home: Path, statement: str, *rows: tuple[Any, ...]) -> None:
    with closing(sqlite3.connect(home / "e2e.db")) as db, db:
        db.executemany(statement, rows)


def stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")  # as UTCDateTime stores it


def ban(home: Path, who: dict[str, str], until: datetime) -> None:
    """Two abandonment records within the hour, and the 10-minute ban they bring."""
    now = datetime.now(UTC)
    sql(
        home,
        "insert into abandonments (player, match_id, reason, created_at) values (?, null, ?, ?)",
        *[(who["player_id"], "clock", stamp(now - timedelta(minutes=m))) for m in (30, 1)],
    )
    sql(
        home,
        "insert into sanctions (player, scope, until, reason, source, created_at) "
        "values (?, ?, ?, ?, 'abandonment', ?)",
        *[(who["player_id"], s, stamp(until), ban_reason(2), stamp(now)) for s in SCOPES],
    )


SCOPES = ("lobby", "pairing", "rated")


def as_browser(page: Page, who: dict[str, str]) -> None:
    kept = {"id": who["player_id"], "name": who["name"], "token": who["player_token"]}
    stored = json.dumps(json.dumps(kept))
    page.context.add_init_script(f"localStorage.setItem('wg.player', {stored})")


def snap(page: Page, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        page.screenshot(path=str(SCREENS / f"reliability-{name}-{size}.png"), full_page=True)


def low_reliability_challenge(server: str, home: Path, creator: dict[str, str]) -> str:
    """`creator` finishes five games, two of which go on record as abandoned (60 %), then
    opens a public challenge."""
    rival = player(server, "Rival")
    ended = []
    for _ in range(5):
        body = {"role": "editor", "opponent": "human", "clock": "none"}
        made = call(server, "POST", "/api/matches", body, creator["player_token"])
        code = made["invite_url"].rsplit("/invite/", 1)[1]
        call(server, "POST", f"/api/invites/{code}/claim", {}, rival["player_token"])
        request = urllib.request.Request(
            f"{server}/api/matches/{made['match_id']}/resign", data=b"", method="POST"
        )
        request.add_header("Authorization", f"Bearer {made['seat_token']}")
        urllib.request.urlopen(request, timeout=10).close()
        ended.append(made["match_id"])
    now = stamp(datetime.now(UTC))
    sql(
        home,
        "insert into abandonments (player, match_id, reason, created_at) values (?, ?, ?, ?)",
        *[(creator["player_id"], m, "abandoned", now) for m in ended[:2]],
    )
    public = {"role": "editor", "opponent": "human", "visibility": "public", "clock": "none"}
    made = call(server, "POST", "/api/matches", public, creator["player_token"])
    return str(made["match_id"])


def test_an_abandonment_ban_shows_its_notice_and_refuses_quick_pairing(
    open_page: Callable[..., Page], server: str, home: Path
) -> None:
    ana, cid = player(server, "Ana"), player(server, "Cid")
    until = (datetime.now(UTC) + timedelta(minutes=10)).replace(microsecond=0)
    ban(home, ana, until)
    low = low_reliability_challenge(server, home, cid)

    page = open_page(locale="en-US", timezone_id="America/New_York")
    as_browser(page, ana)
    page.goto("/lobby")
    notice = page.locator("#ban-notice")
    expect(notice).to_be_visible()
    expect(notice.locator("h2")).to_have_text(EN["ban_title"])
    local = until.astimezone(ZoneInfo("America/New_York"))
    expect(notice).to_contain_text(f"{local.hour % 12 or 12}:{local.minute:02d}")  # 12-hour, US
    expect(notice).to_contain_text(EN["ban_why_abandonment"])
    expect(page.locator("#open-challenge")).to_be_hidden()
    expect(page.locator("#quick-pair")).to_be_hidden()
    row = page.locator(f'.challenge[data-match-id="{low}"]')
    expect(row).to_contain_text(fill(EN["figure"], value=60))
    expect(row.get_by_role("button")).to_have_count(0)  # no Join that the ban would refuse
    assert violations(page) == [], "the lobby with a ban notice"
    snap(page, "ban-en")

    answer = page.evaluate(
        """async (token) => {
          const r = await fetch("/api/lobby/quick", {method: "POST", headers: {
            "Content-Type": "application/json", "X-Player-Token": token}, body: "{}"});
          return {status: r.status, body: await r.json()};
        }""",
        ana["player_token"],
    )
    assert answer["status"] == 403 and answer["body"]["code"] == "banned", answer
    assert answer["body"]["scope"] == "pairing"
    assert datetime.fromisoformat(answer["body"]["until"]) == until

    german = open_page(locale="de-DE", timezone_id="Europe/Berlin")
    as_browser(german, ana)
    german.goto("/lobby")
    expect(german.locator("#ban-notice h2")).to_have_text(DE["ban_title"])
    berlin = until.astimezone(ZoneInfo("Europe/Berlin"))
    expect(german.locator("#ban-notice")).to_contain_text(f"{berlin:%H:%M}")
    snap(german, "ban-de")


def test_the_low_reliability_filter_hides_challenges_and_is_remembered(
    open_page: Callable[..., Page], server: str, home: Path
) -> None:
    dan = player(server, "Dan")
    low = low_reliability_challenge(server, home, dan)
    page = open_page()
    page.goto("/lobby")
    row = page.locator(f'.challenge[data-match-id="{low}"]')
    expect(row).to_contain_text(fill(EN["figure"], value=60))
    page.get_by_label(fill(EN["hide_low"], min=80)).check()
    expect(row).to_have_count(0)
    expect(page.locator("#hidden-count")).to_be_visible()
    page.reload()
    expect(page.get_by_label(fill(EN["hide_low"], min=80))).to_be_checked()
    expect(page.locator("#hidden-count")).to_be_visible()
    expect(page.locator(f'.challenge[data-match-id="{low}"]')).to_have_count(0)
    page.get_by_label(fill(EN["hide_low"], min=80)).uncheck()
    expect(page.locator(f'.challenge[data-match-id="{low}"]')).to_be_visible()


def test_the_account_page_downloads_the_players_data(
    open_page: Callable[..., Page], server: str, tmp_path: Path
) -> None:
    eve = player(server, "Eve")
    page = open_page()
    as_browser(page, eve)
    page.goto("/account")
    with page.expect_download() as info:
        page.get_by_role("button", name=EN["export_button"]).click()
    download = info.value
    assert download.suggested_filename == f"watergate-{eve['player_id']}.json"
    saved = tmp_path / "export.json"
    download.save_as(saved)
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["profile"]["player_id"] == eve["player_id"] and data["profile"]["name"] == "Eve"
    assert violations(page) == [], "the account page with the export"
