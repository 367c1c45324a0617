"""Reports and moderation in a real browser (issue 43): Ana reports Bea's chat line from its
flag (the report dialog on Bea's page), the report reaches the moderators' queue in the admin
console with the chat around the line, the admin mutes Bea from the queue, Bea's account page
shows the mute (what, until when, why) and her chat is refused `muted`; the mute is lifted and
both go. axe finds nothing serious on the dialog, the queue or the notice. Screenshots of them
land in docs/screens/people/moderation-*.png (desktop 1280x800 and phone 390x844)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from .conftest import ADMIN_TOKEN, LOCALES, ROOT
from .test_axe import violations

try:
    from playwright.sync_api import Page, expect
except ImportError:  # pragma: no cover - depends on the machine
    pytest.skip("Playwright for Python is not installed", allow_module_level=True)

SCREENS = ROOT / "docs" / "screens" / "people"
PHONE = {"width": 390, "height": 844}


def chat(server: str, match_id: str, seat_token: str, text: str) -> dict[str, Any]:
    """Say a line on the seat's socket; the chat (or error) frame that answers it."""
    base = server.replace("http://", "ws://")
    with connect(f"{base}/ws/matches/{match_id}?token={seat_token}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "chat", "text": text}))
        for _ in range(12):
            message = json.loads(ws.recv(timeout=10))
            if message["type"] != "view":
                return dict(message)
    pytest.fail("no chat frame came")


def as_browser_player(page: Page, player: dict[str, str]) -> None:
    kept = {"id": player["player_id"], "name": player["name"], "token": player["player_token"]}
    page.add_init_script(f"localStorage.setItem('wg.player', {json.dumps(json.dumps(kept))});")


def screens(page: Page, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=str(SCREENS / f"moderation-{name}-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(SCREENS / f"moderation-{name}-phone.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})


def test_a_report_reaches_the_queue_and_a_mute_is_applied_and_lifted(
    server: str, open_page: Callable[..., Page]
) -> None:
    with httpx.Client(base_url=server, timeout=30) as api:
        ana = api.post("/api/players", json={"name": "Ana"}).json()
        bea = api.post("/api/players", json={"name": "Bea"}).json()
        made = api.post(
            "/api/matches", json={"role": "editor"}, headers={"X-Player-Token": ana["player_token"]}
        ).json()
        code = made["invite_url"].rsplit("/invite/", 1)[1]
        claimed = api.post(
            f"/api/invites/{code}/claim", headers={"X-Player-Token": bea["player_token"]}
        ).json()
        match_id, bea_seat = made["match_id"], claimed["seat_token"]
        assert chat(server, match_id, made["seat_token"], "good luck")["text"] == "good luck"
        line = chat(server, match_id, bea_seat, "you play like a clown, quit now https://x.example")
        assert "hidden" not in line

        # Ana, at the table, sees the line as text (no link) with its flag, and reports it
        page = open_page()
        as_browser_player(page, ana)
        seat = json.dumps({"role": "editor", "token": made["seat_token"]})
        page.add_init_script(f"localStorage.setItem('wg.seat.{match_id}', {json.dumps(seat)});")
        page.goto(f"/match/{match_id}")
        text = page.locator("#chat-lines .chat-text", has_text="clown")
        expect(text).to_be_visible()
        assert page.locator("#chat-lines a:not(.chat-report)").count() == 0
        page.locator("#chat-lines .chat-report").first.click()
        expect(page).to_have_url(re.compile(rf"/players/{bea['player_id']}\?match="))
        dialog = page.locator("#report-dialog")
        expect(dialog).to_be_visible()
        expect(dialog.locator("h2")).to_have_text("Report Bea")
        dialog.locator("input[value=abuse]").check()
        page.locator("#report-text").fill("Insults in chat")
        assert violations(page) == []
        screens(page, "report-dialog")
        page.locator("#report-send").click()
        expect(page.locator("#report-status")).to_have_text(re.compile("Thank you"))

        # the admin finds it in the queue, with the chat around the line, and mutes Bea
        admin = open_page()
        admin.goto("/admin/login")
        admin.locator("#token").fill(ADMIN_TOKEN)
        admin.locator("button[type=submit]").click()
        admin.goto("/admin/reports")
        item = admin.locator(f"#item-{bea['player_id']}")
        expect(item).to_contain_text("Insults in chat")
        expect(item.locator(".mod-chat .reported")).to_contain_text("clown")
        assert violations(admin) == []
        screens(admin, "queue")
        item.locator("select[name=action]").select_option("mute")
        item.locator("input[name=minutes]").fill("30")
        item.locator("input[name=reason]").fill("Insulting another player")
        item.locator("button[type=submit]").click()
        expect(admin.locator("#queue-status")).to_have_text("No open reports.")

        # Bea sees the mute on her account page, and her chat is refused
        mine = open_page()
        as_browser_player(mine, bea)
        mine.goto("/account")
        notice = mine.locator("#moderation-notices .mod-notice")
        expect(notice).to_contain_text("You are muted in chat until")
        expect(notice).to_contain_text("Insulting another player")
        assert violations(mine) == []
        screens(mine, "mute-notice")
        refused = chat(server, match_id, bea_seat, "sorry")
        assert (refused["code"], refused["reason"]) == ("muted", "Insulting another player")
        # Ana's report now says it was acted on
        reports = api.get("/api/reports/mine", headers={"X-Player-Token": ana["player_token"]})
        assert reports.json()["reports"][0]["outcome"] == "actioned"

        lifted = api.post(
            "/api/mod/actions",
            json={"player_id": bea["player_id"], "action": "lift", "scope": "chat",
                  "reason": "Apologised"},
            headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
        )  # fmt: skip
        assert lifted.status_code == 201, lifted.text
        mine.reload()
        expect(mine.locator("#moderation-notices .mod-notice")).to_have_count(0)
        assert chat(server, match_id, bea_seat, "sorry")["text"] == "sorry"

        # the admin makes an account a moderator from the console
        mod = api.post("/api/accounts", json={"username": "modmo", "password": "x" * 12}).json()
        admin.locator("#moderator-id").fill(mod["player_id"])
        admin.locator("#moderator-grant").click()
        expect(admin.locator("#moderator-status")).to_have_text("Done.")
        mine_mod = api.get(
            "/api/players/me/moderation", headers={"X-Player-Token": mod["player_token"]}
        )
        assert mine_mod.json()["moderator"] is True


def test_a_marked_line_is_seen_only_by_its_writer(
    server: str, open_page: Callable[..., Page]
) -> None:
    """Two browsers at one table: Bea's marked line shows in her chat only, marked as hers alone;
    Ana's chat never shows it, and shows Bea's next clean line."""
    with httpx.Client(base_url=server, timeout=30) as api:
        ana = api.post("/api/players", json={"name": "Ana"}).json()
        bea = api.post("/api/players", json={"name": "Bea"}).json()
        made = api.post(
            "/api/matches", json={"role": "editor"}, headers={"X-Player-Token": ana["player_token"]}
        ).json()
        code = made["invite_url"].rsplit("/invite/", 1)[1]
        claimed = api.post(
            f"/api/invites/{code}/claim", headers={"X-Player-Token": bea["player_token"]}
        ).json()
    match_id = made["match_id"]
    pages = {}
    for who, player, role, token in (
        ("ana", ana, "editor", made["seat_token"]),
        ("bea", bea, "nixon", claimed["seat_token"]),
    ):
        page = open_page()
        as_browser_player(page, player)
        seat = json.dumps({"role": role, "token": token})
        page.add_init_script(f"localStorage.setItem('wg.seat.{match_id}', {json.dumps(seat)});")
        page.goto(f"/match/{match_id}")
        expect(page.locator("#chat-input")).to_be_visible()
        pages[who] = page
    bea_page, ana_page = pages["bea"], pages["ana"]
    bea_page.locator("#chat-input").fill("you stupid b1tch")
    bea_page.locator("#chat-form button[type=submit]").click()
    expect(bea_page.locator("#chat-lines .chat-text")).to_have_text(
        ["you stupid b1tch (only you see this)"]
    )
    bea_page.locator("#chat-input").fill("good game anyway")
    bea_page.locator("#chat-form button[type=submit]").click()
    expect(ana_page.locator("#chat-lines .chat-text")).to_have_text(["good game anyway"])
    ana_page.reload()  # and not in the history either
    expect(ana_page.locator("#chat-lines .chat-text")).to_have_text(["good game anyway"])


def test_a_lobby_entry_is_reported_from_its_flag(
    open_page: Callable[..., Page], server: str
) -> None:
    """Issue 43: a lobby entry's ⚑ opens the report dialog on its creator's page."""
    with httpx.Client(base_url=server) as http:
        bea = http.post("/api/players", json={"name": "Bea Lobby"}).json()
        ana = http.post("/api/players", json={"name": "Ana Lobby"}).json()
        body = {"role": "editor", "opponent": "human", "visibility": "public", "clock": "none"}
        made = http.post("/api/matches", json=body, headers={"X-Player-Token": bea["player_token"]})
        assert made.status_code == 201, made.text
    page = open_page()
    as_browser_player(page, ana)
    page.goto("/lobby")
    entry = page.locator(f'li.challenge[data-match-id="{made.json()["match_id"]}"]')
    entry.locator("a.report-entry").click()
    expect(page).to_have_url(re.compile(rf"/players/{bea['player_id']}#report$"))
    expect(page.locator("#report-send")).to_be_visible()


@pytest.mark.parametrize("lang", ["en", "pt-BR", "de"])
def test_a_ban_shows_on_the_bell_with_what_it_closes_and_until_when(
    server: str, open_page: Callable[..., Page], lang: str
) -> None:
    """Issue 43: the banned player's bell says what is closed and until when, in their words,
    and the account page lets them choose how such lines come."""
    words = LOCALES[lang]
    with httpx.Client(base_url=server, timeout=30) as api:
        bea = api.post("/api/players", json={"name": "Bea"}).json()
        ban = {
            "player_id": bea["player_id"], "action": "ban", "scope": "tournaments",
            "minutes": 120, "reason": "stalling",
        }  # fmt: skip
        admin = {"Authorization": f"Bearer {ADMIN_TOKEN}", "Origin": server}
        assert api.post("/api/mod/actions", json=ban, headers=admin).status_code == 201
    page = open_page(prefs={}, locale=lang)
    as_browser_player(page, bea)
    page.goto(f"/lobby?lang={lang}")
    expect(page.locator("#bell-count")).to_have_text("2")  # the moderator's notice, and this
    page.locator("#bell-button").click()
    before, _, after = words["bell"]["kinds"]["sanction"].partition("{until}")
    line = page.locator("#bell-list li a").first  # the newest
    expect(line).to_contain_text(before)
    expect(line).to_contain_text(
        after.replace("{scopes}", words["reliability"]["scopes"]["tournaments"])
    )
    expect(line).to_have_attribute("href", "/account")
    text = line.text_content() or ""
    assert "{" not in text and "stalling" not in text, text
    # it wraps inside the panel, though the header's nav keeps its own links on one line
    assert line.evaluate("a => a.scrollWidth <= a.clientWidth"), text
    page.goto(f"/account?lang={lang}")
    row = page.locator(".bell-kind", has_text=words["bell"]["settings"]["kinds"]["sanction"])
    expect(row).to_have_count(1)
