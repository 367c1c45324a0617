"""The bell in the browser (issue 43): a player's bell in the header shows the unread count and
updates live when a notification is stored for them elsewhere (a rematch offered by the other
player, from another "browser"), opens a dropdown of links, and follows lines marked read on
another tab; axe finds nothing serious with it open, nor on the account page's choice per
kind. On a match table it is in the top bar and comes after the first view (the table's
first-paint budget). Screenshots of the bell open, desktop and phone, go to
docs/screens/people/ (BELL_SHOTS=0 skips them)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import LOCALES
from .test_axe import violations

try:
    from playwright.sync_api import Page, ViewportSize, expect
except ImportError:  # pragma: no cover - depends on the machine
    if os.environ.get("CI") == "true":
        raise
    pytest.skip("Playwright for Python is not installed", allow_module_level=True)

BELL = LOCALES["en"]["bell"]
SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens" / "people"
PHONE: ViewportSize = {"width": 390, "height": 844}


def player(http: httpx.Client, name: str) -> dict[str, str]:
    made = http.post("/api/players", json={"name": name})
    assert made.status_code == 201, made.text
    found: dict[str, str] = made.json()
    return found


def finished_match(http: httpx.Client, ana: dict[str, str], bea: dict[str, str]) -> tuple[str, str]:
    """A match Ana resigned to Bea: (its id, Bea's seat token)."""
    made = http.post(
        "/api/matches", json={"role": "editor"}, headers={"X-Player-Token": ana["player_token"]}
    ).json()
    code = made["invite_url"].rstrip("/").rsplit("/", 1)[-1]
    bea_seat = http.post(
        f"/api/invites/{code}/claim", headers={"X-Player-Token": bea["player_token"]}
    ).json()["seat_token"]
    resigned = http.post(
        f"/api/matches/{made['match_id']}/resign",
        headers={"Authorization": f"Bearer {made['seat_token']}"},
    )
    assert resigned.status_code in (200, 204), resigned.text
    return made["match_id"], bea_seat


def as_browser(p: dict[str, str]) -> dict[str, str]:
    """localStorage of a browser that is this player."""
    kept = {"id": p["player_id"], "name": p["name"], "token": p["player_token"]}
    return {"wg.player": json.dumps(kept)}


def test_the_bell_updates_live_and_opens_a_list_of_links(
    server: str, open_page: Callable[..., Page], shot: Callable[..., Path]
) -> None:
    with httpx.Client(base_url=server, timeout=10) as http:
        ana, bea = player(http, "Ana"), player(http, "Bea")
        match_id, bea_seat = finished_match(http, ana, bea)
        ana_head = {"X-Player-Token": ana["player_token"]}
        http.post("/api/notifications/read", json={"all": True}, headers=ana_head)

        page = open_page(prefs=as_browser(ana))
        page.goto("/lobby")
        bell = page.locator("#bell")
        expect(bell).to_be_visible()
        expect(bell).to_have_attribute("data-live", "1")  # its socket is up
        expect(page.locator("#bell-count")).to_be_hidden()

        offered = http.post(
            f"/api/matches/{match_id}/rematch", headers={"Authorization": f"Bearer {bea_seat}"}
        )
        assert offered.status_code in (200, 201, 204), offered.text
        expect(page.locator("#bell-count")).to_have_text("1")  # live, no reload

        page.locator("#bell-button").click()
        expect(page.locator("#bell-button")).to_have_attribute("aria-expanded", "true")
        line = page.locator("#bell-list li.unread a").first
        expect(line).to_contain_text(BELL["kinds"]["rematch"].replace("{name}", "Bea"))
        expect(line).to_have_attribute("href", f"/match/{match_id}")
        assert violations(page) == []  # axe: nothing serious with the bell open
        if os.environ.get("BELL_SHOTS") != "0":
            SCREENS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENS / "bell-open-desktop.png"), animations="disabled")
            page.set_viewport_size(PHONE)
            page.screenshot(path=str(SCREENS / "bell-open-phone.png"), animations="disabled")

        # marked read elsewhere (another tab, another device): this bell follows
        http.post("/api/notifications/read", json={"all": True}, headers=ana_head)
        expect(page.locator("#bell-count")).to_be_hidden()
        expect(page.locator("#bell-list li.unread")).to_have_count(0)

        page.keyboard.press("Escape")
        expect(page.locator("#bell-panel")).to_be_hidden()

        # a table: its bell comes once the view is drawn (the first paint's asset budget), and
        # is as live as anywhere (Bea challenges Ana meanwhile)
        page.goto(f"/match/{match_id}")
        expect(page.locator("#final")).to_be_visible()
        bell = page.locator("#bell")
        expect(bell).to_be_visible()
        expect(bell).to_have_attribute("data-live", "1")
        expect(page.locator("#bell-button")).to_have_css("border-top-style", "solid")  # styled
        expect(page.locator("#bell-count")).to_be_hidden()
        challenged = http.post(
            "/api/challenges",
            json={"to": ana["player_id"]},
            headers={"X-Player-Token": bea["player_token"]},
        )
        assert challenged.status_code == 201, challenged.text
        expect(page.locator("#bell-count")).to_have_text("1")
        page.locator("#bell-button").click()
        line = page.locator("#bell-list li.unread a").first
        expect(line).to_contain_text(BELL["kinds"]["challenge"].replace("{name}", "Bea"))


def test_a_browser_without_a_player_shows_no_bell(
    server: str, open_page: Callable[..., Any]
) -> None:
    page = open_page()
    page.goto("/leaderboard")
    expect(page.locator("#bell")).to_be_hidden()


def test_the_account_page_chooses_bell_only_or_bell_and_web_push_per_kind(
    server: str, open_page: Callable[..., Page]
) -> None:
    with httpx.Client(base_url=server, timeout=10) as http:
        ana = player(http, "Ana")
        head = {"X-Player-Token": ana["player_token"]}
        page = open_page(prefs=as_browser(ana))
        page.goto("/account")
        settings = page.locator("#bell-settings")
        expect(settings).to_be_visible()
        row = page.locator(".bell-kind", has_text=BELL["settings"]["kinds"]["your_turn"])
        expect(row.get_by_label(BELL["settings"]["bell_push"])).to_be_checked()  # by default
        row.get_by_label(BELL["settings"]["bell_only"]).check()
        expect(page.locator("#bell-saved")).to_have_text(BELL["settings"]["saved"])
        assert violations(page) == []
        chosen = http.get("/api/notifications/push", headers=head).json()["push"]
        assert "your_turn" not in chosen and "challenge" in chosen
        if os.environ.get("BELL_SHOTS") != "0":
            settings.screenshot(path=str(SCREENS / "bell-settings-desktop.png"))
            page.set_viewport_size(PHONE)
            settings.screenshot(path=str(SCREENS / "bell-settings-phone.png"))
