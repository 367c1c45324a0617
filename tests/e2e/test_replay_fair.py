"""The public replay and "Verify this deal" in a real browser: a seat's browser watches its table
(and is shown the deal's fingerprint) while both seats play a whole match through the API; the
finished table links to the public replay, which steps move by move (buttons and arrow keys) with
the log in step, and whose check passes in the browser (Web Crypto) and on the server. A replay
whose seed was altered on the way is caught by the browser. The panel and the "How we deal" page
(from the footer) speak English, Portuguese and German. Screenshots of the panel at desktop and
phone width land in tests/e2e/output/ (and in $FAIR_SHOTS when it names a folder)."""

from __future__ import annotations

import json
import os
import random
import shutil
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .conftest import LOCALES, fill

try:
    from playwright.sync_api import Page, Route, expect
except ImportError:  # pragma: no cover - depends on the machine
    if os.environ.get("CI") == "true":
        raise
    pytest.skip("Playwright for Python is not installed", allow_module_level=True)

Shot = Callable[..., Path]
EN = LOCALES["en"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def call(server: str, path: str, token: str | None = None, body: Any = None) -> Any:
    """One JSON request to the server, as a client outside the browser makes it."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server + path, data=data, method="POST" if data else "GET")
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=15) as response:
        return json.loads(response.read())


def friends(server: str) -> tuple[str, dict[str, str]]:
    made = call(server, "/api/matches", body={"role": "editor", "opponent": "human"})
    code = made["invite_url"].rsplit("/invite/", 1)[1]
    claimed = call(server, f"/api/invites/{code}/claim", body={})
    return made["match_id"], {"editor": made["seat_token"], "nixon": claimed["seat_token"]}


def play_out(server: str, match_id: str, tokens: dict[str, str], rnd: random.Random) -> int:
    """Random legal moves for whichever seat decides, until the match is over; its length."""
    for _ in range(2000):
        views = {r: call(server, f"/api/matches/{match_id}", t) for r, t in tokens.items()}
        if views["editor"]["status"] == "finished":
            return int(views["editor"]["version"])
        role = next(r for r, v in views.items() if v["legal_actions"])
        action = rnd.choice(views[role]["legal_actions"])
        body = {"action": action, "expected_version": views[role]["version"]}
        call(server, f"/api/matches/{match_id}/actions", tokens[role], body)
    pytest.fail("the match did not end")


def seat_page(
    open_page: Callable[..., Page], match_id: str, role: str, token: str, **options: Any
) -> Page:
    """A browser that holds this seat (as the invite page would have left it)."""
    page = open_page(**options)
    seat = json.dumps({"role": role, "token": token, "inviteUrl": None})
    page.context.add_init_script(
        f"localStorage.setItem({json.dumps(f'wg.seat.{match_id}')}, {json.dumps(seat)})"
    )
    return page


def keep(shot: Shot, page: Page, name: str) -> None:
    """The whole page, and the screen with the verify panel on it (to read it at phone size)."""
    page.evaluate("window.scrollTo(0, 0)")  # the sticky step bar at the top of the whole page
    whole = shot(page, name)
    page.evaluate("document.getElementById('verify').scrollIntoView({ block: 'start' })")
    paths = [whole, shot(page, f"{name}-panel", full_page=False)]
    folder = os.environ.get("FAIR_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        for path in paths:
            shutil.copy(path, Path(folder) / path.name)


def verify_ok(page: Page, texts: dict[str, Any], moves: int) -> None:
    page.locator("#verify-run").click()
    results = page.locator("#verify-results li")
    expect(results).to_have_count(4)
    expect(results.nth(0)).to_have_text(f"✔ {texts['browser_ok']}")
    expect(results.nth(1)).to_have_text(f"✔ {texts['seen_ok']}")
    expect(results.nth(2)).to_have_text(f"✔ {texts['server_commitment_ok']}")
    expect(results.nth(3)).to_have_text(
        f"✔ {fill(texts['server_replay_ok']['other'], count=moves)}"
    )
    expect(page.locator("#verify-verdict")).to_have_text(texts["proven"])


def test_the_public_replay_steps_through_the_match_and_verifies_its_deal(
    server: str, open_page: Callable[..., Page], shot: Shot
) -> None:
    match_id, tokens = friends(server)
    page = seat_page(open_page, match_id, "editor", tokens["editor"], viewport=DESKTOP)
    page.goto(f"/match/{match_id}")
    published = call(server, f"/api/matches/{match_id}", tokens["editor"])["fairness"]
    assert "seed" not in published
    page.locator("#menu summary").click()
    expect(page.locator("#fingerprint")).to_have_text(published["commitment"])
    shot(page, "table-fingerprint", full_page=False)
    moves = play_out(server, match_id, tokens, random.Random(7))

    link = page.locator("#final a", has_text=EN["replay"]["public_link"])
    expect(link).to_be_visible()
    link.click()
    expect(page).to_have_url(f"{server}/replay/{match_id}")
    replay = call(server, f"/api/replays/{match_id}")
    steps = replay["steps"]
    info = page.locator("#step-info")
    expect(info).to_have_text(fill(EN["replay"]["step"], k=0, n=moves))
    expect(page.locator("#step-action")).to_have_text(EN["replay"]["setup"])
    log = page.locator("#log li")

    def shown(k: int) -> int:
        """How many log lines the page shows at step k (match_started is not drawn)."""
        entries = replay["log"][: steps[k]["log_length"]]
        return sum(e["type"] != "match_started" for e in entries)

    expect(log).to_have_count(shown(0))
    page.keyboard.press("ArrowRight")
    expect(info).to_have_text(fill(EN["replay"]["step"], k=1, n=moves))
    expect(page.locator("#step-action")).to_contain_text(
        f"1. {EN['roles_cap'][steps[1]['action']['role']]}:"
    )
    expect(log).to_have_count(shown(1))
    page.locator("#forward").click()
    expect(info).to_have_text(fill(EN["replay"]["step"], k=2, n=moves))
    page.keyboard.press("End")
    expect(info).to_have_text(fill(EN["replay"]["step"], k=moves, n=moves))
    expect(log).to_have_count(shown(moves))
    page.locator("#back").click()
    expect(info).to_have_text(fill(EN["replay"]["step"], k=moves - 1, n=moves))
    expect(log).to_have_count(shown(moves - 1))
    page.keyboard.press("ArrowLeft")
    expect(info).to_have_text(fill(EN["replay"]["step"], k=moves - 2, n=moves))
    page.locator("#last").click()

    expect(page.locator("#fair-commitment")).to_have_text(published["commitment"])
    expect(page.locator("#fair-seed")).to_have_text(replay["fairness"]["seed"])
    verify_ok(page, EN["fair"], moves)
    keep(shot, page, "replay-verify-desktop")
    # the seat's browser may see its own analysis on the replay page; a stranger is offered none
    analysis = page.locator("#replay-analysis")
    analysis.get_by_role("button", name=EN["ui"]["analyse"]).click()
    expect(analysis.locator("svg.chart polyline.analysis-line")).to_have_count(1, timeout=60_000)
    stranger = open_page(viewport=DESKTOP)
    stranger.goto(f"/replay/{match_id}")
    expect(stranger.locator("#step-info")).to_be_visible()
    expect(stranger.locator("#replay-analysis")).to_be_hidden()

    phone = seat_page(
        open_page,
        match_id,
        "editor",
        tokens["editor"],
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
    )
    phone.goto(f"/match/{match_id}")  # this browser, too, was shown the fingerprint at the table
    phone.locator("#final a", has_text=EN["replay"]["public_link"]).click()
    phone.locator("#last").click()
    verify_ok(phone, EN["fair"], moves)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], (
        "no sideways scroll"
    )
    keep(shot, phone, "replay-verify-phone")


def test_a_seed_altered_on_the_way_fails_the_browsers_check(
    server: str, open_page: Callable[..., Page]
) -> None:
    match_id, tokens = friends(server)
    call(server, f"/api/matches/{match_id}/resign", tokens["nixon"], {})
    real = call(server, f"/api/replays/{match_id}")["fairness"]
    forged = f"{real['seed'][:-1]}{'0' if real['seed'][-1] != '0' else '1'}"

    def forge(route: Route) -> None:
        answer = route.fetch()
        data = answer.json()
        data["fairness"]["seed"] = forged
        route.fulfill(response=answer, json=data)

    page = open_page(viewport=DESKTOP)
    page.route(f"**/api/replays/{match_id}", forge)
    page.goto(f"/replay/{match_id}")
    expect(page.locator("#fair-seed")).to_have_text(forged)
    page.locator("#verify-run").click()
    results = page.locator("#verify-results li")
    expect(results).to_have_count(3)  # this browser never saw the table: nothing to compare
    expect(results.nth(0)).to_contain_text("✘")
    expect(results.nth(0)).not_to_contain_text(real["commitment"])
    expect(results.nth(1)).to_contain_text("✘")  # the server revealed another seed
    expect(page.locator("#verify-verdict")).to_have_text(EN["fair"]["not_proven"])


@pytest.mark.parametrize("lang", ["pt-BR", "de"])
def test_the_panel_and_how_we_deal_speak_the_language(
    server: str, open_page: Callable[..., Page], lang: str, shot: Shot
) -> None:
    texts = LOCALES[lang]
    match_id, tokens = friends(server)
    call(server, f"/api/matches/{match_id}/resign", tokens["editor"], {})
    page = open_page(locale=lang)
    page.goto(f"/replay/{match_id}?lang={lang}")
    expect(page.locator("#verify-title")).to_have_text(texts["fair"]["panel_title"])
    page.locator("#verify-run").click()
    results = page.locator("#verify-results li")
    expect(results).to_have_count(3)
    expect(results.nth(0)).to_have_text(f"✔ {texts['fair']['browser_ok']}")
    expect(results.nth(2)).to_have_text(f"✔ {texts['fair']['server_replay_none']}")
    expect(page.locator("#verify-verdict")).to_have_text(texts["fair"]["proven"])
    page.locator(".site-footer a", has_text=texts["fair"]["footer_link"]).click()
    expect(page).to_have_url(f"{server}/how-we-deal")
    expect(page.locator("h1")).to_have_text(texts["fair"]["title"])
    expect(page.locator(".how-we-deal h2")).to_have_count(len(texts["fair"]["sections"]))
    page.locator(".recipe summary").click()
    expect(page.locator(".recipe p")).to_have_text(texts["fair"]["recipe"])
    shot(page, f"how-we-deal-{lang}")


def test_no_replay_while_the_match_is_on(server: str, open_page: Callable[..., Page]) -> None:
    match_id, _ = friends(server)
    page = open_page()
    page.goto(f"/replay/{match_id}")
    expect(page.locator("#replay-missing")).to_have_text(EN["replay"]["unavailable"])
    expect(page.locator("#replay-body")).to_be_hidden()


def test_an_analysis_swing_opens_its_position_in_the_replay(
    server: str, open_page: Callable[..., Page]
) -> None:
    """Issue 42 item 11: a swing the analysis names ("after move 3: 60% → 20%") is a link to
    that step of the replay, from the end screen and on the replay page itself."""
    match_id, tokens = friends(server)
    for _ in range(4):  # a few moves, whoever decides, then the Editor resigns
        for token in tokens.values():
            legal = call(server, f"/api/matches/{match_id}", token)["legal_actions"]
            if legal:
                call(server, f"/api/matches/{match_id}/actions", token, {"action": legal[0]})
                break
    call(server, f"/api/matches/{match_id}/resign", tokens["editor"], {})
    moves = [
        {"seq": 1, "before": 0.5, "after": 0.5, "best": {"type": "pass"}},
        {"seq": 3, "before": 0.6, "after": 0.2, "best": {"type": "pass"}},
    ]

    def analysed(route: Route) -> None:
        route.fulfill(
            status=200, content_type="application/json", body=json.dumps({"moves": moves})
        )

    page = seat_page(open_page, match_id, "editor", tokens["editor"], viewport=DESKTOP)
    page.route(f"**/api/matches/{match_id}/analysis", analysed)
    page.goto(f"/match/{match_id}")
    final = page.locator("#final")
    final.get_by_role("button", name=EN["ui"]["analyse"]).click()
    swing = final.locator(".analysis-swings a")
    expect(swing).to_have_count(1)  # only the drop is a swing
    expect(swing).to_have_attribute("href", f"/replay/{match_id}#3")
    swing.click()
    page.wait_for_url(f"**/replay/{match_id}#3")
    info = page.locator("#step-info")
    expect(info).to_have_text(fill(EN["replay"]["step"], k=3, n=4))
    page.locator("#first").click()
    analysis = page.locator("#replay-analysis")
    analysis.get_by_role("button", name=EN["ui"]["analyse"]).click()
    analysis.locator(".analysis-swings a").click()  # on the replay page: the same page, that step
    expect(info).to_have_text(fill(EN["replay"]["step"], k=3, n=4))
