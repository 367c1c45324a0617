"""The admin console and a player's replay in a real browser (issue 6): sign in through the form,
find a finished match in the list, step through it with the keys and the buttons, export it (a
download), verify that export through the file input, abort a match, read the statistics, sign
out; a player replays a finished match with both hands shown. Screenshots land in
tests/e2e/output/admin-*.png.

conftest's servers know conftest's ADMIN_TOKEN; this module's `server` notes where its server
logs, and `open_page`, `chromium` and `shot` from conftest use it."""

from __future__ import annotations

import copy
import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from engine.watergate.bots import RandomBot

from .conftest import ADMIN_TOKEN, LOCALES
from .test_axe import violations

try:
    from playwright.sync_api import Page, expect
except ImportError:  # pragma: no cover - depends on the machine
    if os.environ.get("CI") == "true":
        raise
    pytest.skip("Playwright for Python is not installed", allow_module_level=True)

LOGS: dict[str, Path] = {}


@pytest.fixture(scope="module")
def server(served: tuple[str, Path]) -> str:
    """conftest's server, noting where it logs."""
    url, home = served
    LOGS["server"] = home / "server.log"
    return url


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_match(api: httpx.Client) -> tuple[str, dict[str, str]]:
    made = api.post("/api/matches", json={"role": "editor", "opponent": "human"}).json()
    code = made["invite_url"].rsplit("/invite/", 1)[1]
    claimed = api.post(f"/api/invites/{code}/claim").json()
    return made["match_id"], {"editor": made["seat_token"], "nixon": claimed["seat_token"]}


def play(api: httpx.Client, match_id: str, tokens: dict[str, str], count: int | None) -> int:
    """RandomBot moves for both seats through the API; returns how many actions are stored."""
    bot, played = RandomBot(21), 0
    while count is None or played < count:
        public = api.get(f"/api/matches/{match_id}", headers=bearer(tokens["editor"])).json()
        if public["status"] != "active":
            break
        role = public["state"]["decision"]["role"]
        mine = api.get(f"/api/matches/{match_id}", headers=bearer(tokens[role])).json()
        action = bot.choose(mine["state"], mine["legal_actions"])
        response = api.post(
            f"/api/matches/{match_id}/actions",
            headers=bearer(tokens[role]),
            json={"action": action},
        )
        assert response.status_code == 200, response.text
        played = response.json()["version"]  # the only choices the server took too (issue 42)
    return played


@pytest.fixture(scope="module")
def matches(server: str) -> Iterator[dict[str, Any]]:
    """A finished match (with its tokens and length) and an active one."""
    with httpx.Client(base_url=server, timeout=30) as api:
        done, tokens = new_match(api)
        n = play(api, done, tokens, None)
        active, active_tokens = new_match(api)
        play(api, active, active_tokens, 3)
        yield {
            "done": done,
            "tokens": tokens,
            "n": n,
            "active": active,
            "active_tokens": active_tokens,
        }


def sign_in(page: Page, shot: Any = None) -> None:
    page.goto("/admin")
    expect(page).to_have_url(re.compile(r"/admin/login$"))
    if shot:
        shot(page, "admin-login")
    page.locator("#token").fill(ADMIN_TOKEN)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(re.compile(r"/admin$"))


def test_sign_in_and_find_a_match(open_page: Any, shot: Any, matches: dict[str, Any]) -> None:
    page = open_page()
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    sign_in(page, shot)
    [session] = [c for c in page.context.cookies() if c["name"] == "wg_admin"]
    assert session["httpOnly"] is True and session["sameSite"] == "Strict"
    assert time.time() < session["expires"] <= time.time() + 24 * 3600
    assert ADMIN_TOKEN not in session["value"]
    done = matches["done"]
    link = page.locator(f'#rows a[href="/admin/matches/{done}"]')
    expect(link).to_be_visible()
    expect(page.locator("#rows tr")).to_have_count(2)
    page.locator("select[name=status]").select_option("finished")
    expect(page.locator("#rows tr")).to_have_count(1)
    expect(page.locator("#page-info")).to_have_text("1–1 of 1")
    page.locator("select[name=status]").select_option("")
    page.locator("#q").fill(matches["active"][:8])
    expect(page.locator("#rows tr")).to_have_count(1)
    expect(page.locator(f'#rows a[href="/admin/matches/{matches["active"]}"]')).to_be_visible()
    page.locator("#q").fill("")
    expect(page.locator("#rows tr")).to_have_count(2)
    shot(page, "admin-list")
    assert violations(page) == [], "the admin's match list"
    link.click()
    expect(page).to_have_url(re.compile(rf"/admin/matches/{done}$"))
    expect(page.locator("#step-info")).to_have_text(f"Step {matches['n']} of {matches['n']}")
    assert violations(page) == [], "the admin's match page"
    assert not [u for u in urls if ADMIN_TOKEN in u], "the token never travels in a URL"
    assert ADMIN_TOKEN not in LOGS["server"].read_text(errors="replace"), "nor in a log line"


def test_step_through_with_the_keys_and_the_buttons(
    open_page: Any, shot: Any, matches: dict[str, Any]
) -> None:
    page = open_page()
    sign_in(page)
    n = matches["n"]
    page.goto(f"/admin/matches/{matches['done']}")
    info, action = page.locator("#step-info"), page.locator("#step-action")
    expect(info).to_have_text(f"Step {n} of {n}")  # an admin opens a match at its end
    expect(page.locator("#match-facts")).to_contain_text("finished · editor human, nixon human")
    page.locator("#first").click()
    expect(info).to_have_text(f"Step 0 of {n}")
    expect(action).to_have_text("Set-up")
    page.keyboard.press("ArrowRight")
    expect(info).to_have_text(f"Step 1 of {n}")
    expect(action).to_have_text(re.compile(r"^1\. (The Editor|Nixon): "))
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(info).to_have_text(f"Step 3 of {n}")
    page.keyboard.press("ArrowLeft")
    expect(info).to_have_text(f"Step 2 of {n}")
    expect(page.locator("#slider")).to_have_value("2")
    expect(page.locator("#hands .hand-row")).to_have_count(2)
    shot(page, "admin-match-step")
    page.get_by_role("button", name="End").click()
    expect(info).to_have_text(f"Step {n} of {n}")
    expect(action).to_have_text(re.compile(rf"^{n}\. "))
    expect(page.locator("#slider")).to_have_value(str(n))
    shot(page, "admin-match-end")


def export_through_the_link(page: Page, server: str, match_id: str, path: Path) -> dict[str, Any]:
    with page.expect_download() as download:
        page.locator("#export").click()
    download.value.save_as(path)
    data: dict[str, Any] = json.loads(path.read_text())
    url = f"{server}/api/admin/matches/{match_id}/export"
    assert data == httpx.get(url, headers=bearer(ADMIN_TOKEN)).json()
    return data


def test_the_export_link_downloads_the_match(
    open_page: Any, matches: dict[str, Any], server: str, tmp_path: Path
) -> None:
    page = open_page()
    sign_in(page)
    page.goto(f"/admin/matches/{matches['done']}")
    data = export_through_the_link(page, server, matches["done"], tmp_path / "export.json")
    assert (data["match_id"], len(data["actions"])) == (matches["done"], matches["n"])


def test_an_exported_file_verifies_in_the_browser(
    open_page: Any, shot: Any, matches: dict[str, Any], server: str, tmp_path: Path
) -> None:
    """The file input sends the export as it is: a 63-bit seed must survive the trip."""
    page = open_page()
    sign_in(page)
    done, n = matches["done"], matches["n"]
    page.goto(f"/admin/matches/{done}")
    exported = tmp_path / "export.json"
    data = export_through_the_link(page, server, done, exported)
    page.locator("#verify-file").set_input_files(exported)
    result = page.locator("#admin-result")
    expect(result).to_contain_text("replays identically")
    expect(result).to_contain_text(f"({n} actions)")
    shot(page, "admin-verified")
    bad = copy.deepcopy(data)
    bad["actions"][n // 2]["digest"] = "0" * 16
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(bad))
    page.locator("#verify-file").set_input_files(tampered)
    expect(result).to_contain_text(f"diverges at action {n // 2 + 1}")


def test_the_match_facts_show_the_exact_seed(
    open_page: Any, matches: dict[str, Any], server: str
) -> None:
    page = open_page()
    sign_in(page)
    detail = httpx.get(
        f"{server}/api/admin/matches/{matches['done']}", headers=bearer(ADMIN_TOKEN)
    ).json()
    page.goto(f"/admin/matches/{matches['done']}")
    expect(page.locator("#match-facts")).to_contain_text(f"seed {detail['seed']} ·")


def test_abort_stats_and_sign_out(open_page: Any, shot: Any, matches: dict[str, Any]) -> None:
    page = open_page()
    sign_in(page)
    active = matches["active"]
    page.goto(f"/admin/matches/{active}")
    expect(page.locator("#step-info")).to_have_text("Step 3 of 3")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#abort").click()
    expect(page.locator("#admin-result")).to_have_text("Aborted.")
    token = matches["active_tokens"]["nixon"]
    seen = httpx.get(
        f"{page.url.split('/admin')[0]}/api/matches/{active}", headers=bearer(token)
    ).json()
    assert (seen["status"], seen["ended_by"], seen["legal_actions"]) == ("finished", "host", [])

    page.get_by_role("link", name="Statistics").click()
    expect(page).to_have_url(re.compile(r"/admin/stats$"))
    stats = page.locator("#stats")
    watergate = stats.locator("section", has_text="Watergate: outcomes")
    expect(watergate.locator("tr", has_text="decided matches")).to_contain_text("1")
    nations = stats.locator("section", has_text="Nations: outcomes")
    expect(nations.locator("tr", has_text="decided matches")).to_contain_text("0")
    expect(stats.locator("tr", has_text="finished")).to_contain_text("2")
    health = page.locator("#health-table")
    expect(health.locator("tr", has_text="Readiness").locator("td")).to_have_text("ready")
    expect(health.locator("tr", has_text="Database")).to_contain_text("answers")
    expect(health.locator("tr", has_text="Redis")).to_contain_text("not configured")
    expect(health.locator("tr", has_text="Match cache")).to_contain_text(" of 512 MB, ")
    expect(health.locator("tr", has_text="Action → push latency")).to_contain_text("p99")
    shot(page, "admin-stats")
    assert violations(page) == [], "the admin's statistics"

    [session] = [c["value"] for c in page.context.cookies() if c["name"] == "wg_admin"]
    page.get_by_role("button", name="Sign out", exact=True).click()  # the form posts, Origin ours
    expect(page).to_have_url(re.compile(r"/admin/login$"))
    assert not [c for c in page.context.cookies() if c["name"] == "wg_admin"]
    page.goto("/admin/stats")
    expect(page).to_have_url(re.compile(r"/admin/login$"))
    base = page.url.split("/admin")[0]
    copied = httpx.get(f"{base}/api/admin/stats", headers={"Cookie": f"wg_admin={session}"})
    assert copied.status_code == 401, "the server forgot the session: a copy opens nothing"


@pytest.mark.parametrize("lang", ["pt-BR", "de"])
def test_the_health_panel_speaks_the_admin_s_language(open_page: Any, shot: Any, lang: str) -> None:
    strings = LOCALES[lang]["admin_health"]
    page = open_page()
    sign_in(page)
    page.goto(f"/admin/stats?lang={lang}")
    panel = page.locator("#health")
    expect(panel.locator("h2")).to_have_text(strings["title"])
    expect(panel.locator("tr", has_text=strings["database"])).to_contain_text(strings["answers"])
    readiness = panel.locator("tr", has_text=strings["readiness"]).locator("td")
    expect(readiness).to_have_text(strings["ready"])
    expect(panel.locator("tr", has_text=strings["rate_limited"])).to_contain_text(strings["none"])
    shot(page, f"admin-health-{lang}")


def test_sign_out_everywhere_signs_out_the_other_browsers(open_page: Any) -> None:
    laptop, phone = open_page(), open_page()
    sign_in(laptop)
    sign_in(phone)
    phone.get_by_role("button", name="Sign out everywhere").click()
    expect(phone).to_have_url(re.compile(r"/admin/login$"))
    laptop.get_by_role("link", name="Statistics").click()
    expect(laptop).to_have_url(re.compile(r"/admin/login$"))
    assert not [c for c in laptop.context.cookies() if c["name"] == "wg_admin"]
    sign_in(laptop)  # and signing in again works


def test_a_player_replays_a_finished_match(
    open_page: Any, shot: Any, matches: dict[str, Any]
) -> None:
    page = open_page()
    done, n = matches["done"], matches["n"]
    page.goto("/")
    seat = {"role": "nixon", "token": matches["tokens"]["nixon"], "inviteUrl": None}
    page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)", [f"wg.seat.{done}", json.dumps(seat)]
    )
    page.goto(f"/match/{done}/replay")
    info = page.locator("#step-info")
    expect(info).to_have_text(f"Step 0 of {n}")
    hands = page.locator("#hands .hand-row")
    expect(hands).to_have_count(2)
    for row in range(2):
        expect(hands.nth(row).locator(".hand > *")).not_to_have_count(0)
    page.get_by_role("button", name="End").click()
    expect(info).to_have_text(f"Step {n} of {n}")
    expect(page.locator("#export")).to_have_count(0)
    shot(page, "admin-replay-player")
