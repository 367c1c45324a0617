"""The admin console's tournaments in a real browser (issue 46, Admin): the admin signs in with
the token, finds an arena (and a private cup) in the list of every tournament, opens the arena,
sees its one game in the pairing history with the result and the link to the admin replay,
pauses it giving a reason, removes a player giving a reason, and reads both actions in the
record (who, when, why). axe finds nothing serious on the list, the page or the reason dialog.
Screenshots (desktop 1280x800 and phone 390x844, and the page in German) go to
tests/e2e/output/admin-tournament*.png."""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from .conftest import ADMIN_TOKEN, LOCALES
from .test_axe import violations

try:
    from playwright.sync_api import Page, expect
except ImportError:  # pragma: no cover - depends on the machine
    if os.environ.get("CI") == "true":
        raise
    pytest.skip("Playwright for Python is not installed", allow_module_level=True)

A = LOCALES["en"]["tournaments"]["admin"]
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def account(api: httpx.Client, username: str) -> dict[str, Any]:
    made = api.post(
        "/api/accounts",
        json={"username": username, "name": username, "password": "correct horse battery"},
    )
    assert made.status_code == 201, made.text
    found: dict[str, Any] = made.json()
    return found


@contextlib.contextmanager
def on_the_page(server: str, tid: str, player: dict[str, Any]) -> Iterator[ClientConnection]:
    """The player's tournament socket, open: the director pairs only players with it open."""
    base = server.replace("http://", "ws://")
    with connect(f"{base}/ws/tournaments/{tid}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "auth", "player_token": player["player_token"]}))
        yield ws


def paired(ws: ClientConnection) -> str:
    """The match the director pairs this socket's player into (each push is the whole page)."""
    for _ in range(30):
        frame = json.loads(ws.recv(timeout=30))
        if frame.get("type") == "tournament" and (frame.get("you") or {}).get("playing"):
            return str(frame["you"]["playing"])
    pytest.fail("the player was not paired")


def both_sizes(page: Page, shot: Callable[..., Path], name: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    shot(page, f"{name}-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, f"{name}-phone")
    page.set_viewport_size({"width": 1280, "height": 800})


def test_the_admin_pauses_an_arena_removes_a_player_and_reads_the_record(
    server: str, open_page: Callable[..., Page], shot: Callable[..., Path]
) -> None:
    with httpx.Client(base_url=server, timeout=30) as api:
        now = datetime.now(UTC).isoformat()
        made = api.post(
            "/api/tournaments",
            json={"name": "Admin Arena", "starts_at": now, "minutes": 60},
            headers=ADMIN,
        )
        assert made.status_code == 201, made.text
        tid = made.json()["tournament_id"]
        cup = {"name": "Secret Cup", "starts_at": now, "minutes": 30, "private": True}
        assert api.post("/api/tournaments", json=cup, headers=ADMIN).status_code == 201
        ana, bea, cid = (account(api, n) for n in ("ana_adm", "bea_adm", "cid_adm"))
        for p in (ana, bea, cid):
            joined = api.post(
                f"/api/tournaments/{tid}/join", headers={"X-Player-Token": p["player_token"]}
            )
            assert joined.status_code == 204, joined.text
        # Ana and Bea open the page, are paired, and Ana resigns: one game in the history
        with on_the_page(server, tid, ana) as ana_ws, on_the_page(server, tid, bea):
            match_id = paired(ana_ws)
            seat = api.post(
                f"/api/matches/{match_id}/seat", headers={"X-Player-Token": ana["player_token"]}
            )
            assert seat.status_code == 200, seat.text
            resigned = api.post(
                f"/api/matches/{match_id}/resign",
                headers={"Authorization": f"Bearer {seat.json()['seat_token']}"},
            )
            assert resigned.status_code == 200, resigned.text

    admin = open_page()
    admin.goto("/admin/login")
    admin.locator("#token").fill(ADMIN_TOKEN)
    admin.locator("button[type=submit]").click()
    admin.locator(".admin-nav a[href='/admin/tournaments']").click()
    rows = admin.locator("#rows tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Secret Cup")  # the newest first, the private one too
    expect(rows.nth(0)).to_contain_text("Private")
    expect(rows.nth(1)).to_contain_text("Admin Arena")
    expect(rows.nth(1)).to_contain_text("3 / 100")
    assert violations(admin) == []
    both_sizes(admin, shot, "admin-tournaments")
    rows.nth(1).locator("a").first.click()

    expect(admin).to_have_url(re.compile(f"/admin/tournaments/{tid}$"))
    expect(admin.locator("#t-name")).to_have_text("Admin Arena")
    game = admin.locator("#t-pairings tr")
    expect(game).to_have_count(1)
    expect(game).to_contain_text("ana_adm")
    expect(game).to_contain_text("Lost")
    expect(game).to_contain_text("bea_adm")
    expect(game).to_contain_text("Won")
    replay = game.locator(f"a[href='/admin/matches/{match_id}']")
    expect(replay).to_have_text(A["replay"])

    # pause, with a reason
    admin.locator("#t-actions [data-action=pause]").click()
    dialog = admin.locator("#t-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_have_text("Pause pairing in “Admin Arena”?")
    admin.locator("#t-reason").fill("Server maintenance")
    assert violations(admin) == []
    admin.locator("#t-confirm").click()
    expect(dialog).to_be_hidden()
    expect(admin.locator("#t-result")).to_have_text(A["done"])
    expect(admin.locator("#t-table")).to_contain_text(A["paused"])
    expect(admin.locator("#t-actions [data-action=resume]")).to_be_visible()
    expect(admin.locator("#t-actions [data-action=pause]")).to_be_hidden()

    # remove Cid, with a reason; the back button asks nothing
    cid_row = admin.locator(f"#entrant-{cid['player_id']}")
    cid_row.locator("button").click()
    expect(dialog.locator("h2")).to_have_text("Remove cid_adm from “Admin Arena”?")
    admin.locator("#t-back").click()
    expect(dialog).to_be_hidden()
    cid_row.locator("button").click()
    admin.locator("#t-reason").fill("Smurf account")
    admin.locator("#t-confirm").click()
    expect(cid_row).to_have_count(0)
    expect(admin.locator("#t-entrants tr")).to_have_count(2)

    record = admin.locator("#t-record tr")
    expect(record).to_have_count(2)
    expect(record.nth(0)).to_contain_text(A["done_actions"]["remove"])
    expect(record.nth(0)).to_contain_text("cid_adm")
    expect(record.nth(0)).to_contain_text("Smurf account")
    expect(record.nth(0)).to_contain_text(A["by_admin"])
    expect(record.nth(1)).to_contain_text(A["done_actions"]["pause"])
    expect(record.nth(1)).to_contain_text("Server maintenance")
    assert violations(admin) == []
    both_sizes(admin, shot, "admin-tournament")

    # the console speaks the admin's language: the record in German
    admin.goto(f"/admin/tournaments/{tid}?lang=de")
    german = LOCALES["de"]["tournaments"]["admin"]
    expect(admin.locator("#t-record-title")).to_have_text(german["record"])
    expect(admin.locator("#t-record tr").nth(1)).to_contain_text(german["done_actions"]["pause"])
    shot(admin, "admin-tournament-de")
    admin.goto(f"/admin/tournaments/{tid}?lang=en")

    # the replay link opens the admin's step-through of that game
    admin.locator(f"#t-pairings a[href='/admin/matches/{match_id}']").click()
    expect(admin).to_have_url(re.compile(f"/admin/matches/{match_id}$"))
