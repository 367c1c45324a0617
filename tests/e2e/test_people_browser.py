"""Follow and direct challenges in two browsers (issue 43): Ana follows Bea from Bea's page and
challenges her; Bea, on her people page, sees the challenge arrive without a reload and declines
it ("too fast"); Ana sees why, at once; Ana challenges again, Bea (in the lobby) accepts, and
both land at the same table, which has started. Screenshots of the people page and of a
received challenge (desktop and phone, and one in pt-BR) go to tests/e2e/output/social-*.png;
`PEOPLE_SCREENS=docs/screens/people` refreshes the committed ones instead."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .conftest import LOCALES, OUTPUT
from .test_axe import violations

try:
    from playwright.sync_api import Page, expect
except ImportError:  # pragma: no cover - depends on the machine
    if os.environ.get("CI") == "true":
        raise
    pytest.skip("Playwright for Python is not installed", allow_module_level=True)

SOCIAL = LOCALES["en"]["social"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
MATCH_URL = re.compile(r"/match/([^/?#]+)$")
ROOT = Path(__file__).resolve().parents[2]
SCREENS = ROOT / os.environ.get("PEOPLE_SCREENS", str(OUTPUT))  # relative to the repository


def become(page: Page, name: str) -> dict[str, Any]:
    """This browser's player, made through the API and kept as the pages keep it."""
    page.goto("/")
    made: dict[str, Any] = page.evaluate(
        """async (name) => {
            const r = await fetch("/api/players", {method: "POST", headers: {"Content-Type":
                "application/json"}, body: JSON.stringify({name})});
            const p = await r.json();
            localStorage.setItem("wg.player", JSON.stringify({id: p.player_id, name: p.name,
                token: p.player_token}));
            return p;
        }""",
        name,
    )
    return made


def snap(page: Page, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)  # type: ignore[arg-type]
        shot = SCREENS / f"{name}-{size}.png"
        page.screenshot(path=str(shot), full_page=True, animations="disabled")
    page.set_viewport_size(DESKTOP)


def status_of(page: Page, match_id: str) -> str:
    """The match's status as this browser's seat reads it."""
    found: str = page.evaluate(
        """async (id) => {
            const seat = JSON.parse(localStorage.getItem(`wg.seat.${id}`));
            const r = await fetch(`/api/matches/${id}`, {headers: {Authorization:
                `Bearer ${seat.token}`}});
            return (await r.json()).status;
        }""",
        match_id,
    )
    return found


def resign(page: Page, match_id: str) -> None:
    """This browser's seat resigns (through the API, as the table's menu would)."""
    page.evaluate(
        """async (id) => {
            const seat = JSON.parse(localStorage.getItem(`wg.seat.${id}`));
            await fetch(`/api/matches/${id}/resign`, {method: "POST", headers: {Authorization:
                `Bearer ${seat.token}`}});
        }""",
        match_id,
    )


def send_challenge(ana: Page, clock: str, shot: str | None = None) -> None:
    ana.locator("#challenge-button").click()
    dialog = ana.locator("#challenge-dialog")
    expect(dialog).to_be_visible()
    dialog.locator("select[name=clock]").select_option(clock)
    if shot is not None:
        snap(ana, shot)
        assert violations(ana) == [], "the challenge dialog"
    dialog.locator("#challenge-send").click()
    expect(dialog).to_be_hidden()


def test_follow_challenge_decline_challenge_again_accept(open_page: Callable[..., Page]) -> None:
    bea = open_page()
    bea_player = become(bea, "Bea")
    ana = open_page()
    become(ana, "Ana")

    ana.goto(f"/players/{bea_player['player_id']}")
    expect(ana.locator("#profile-name")).to_have_text("Bea")
    ana.locator("#follow-button").click()
    expect(ana.locator("#follow-button")).to_have_text(SOCIAL["unfollow"])

    bea.goto("/people")
    follower = bea.locator("#followers .person")
    expect(follower.locator(".who")).to_have_text("Ana")
    expect(bea.locator("#no-incoming")).to_be_visible()

    send_challenge(ana, "realtime-15")
    mine = ana.locator("#outgoing .challenge")
    expect(mine).to_contain_text(SOCIAL["status"]["open"])

    incoming = bea.locator("#incoming .challenge")  # pushed: no reload
    expect(incoming).to_contain_text(SOCIAL["from"].format(name="Ana"))
    snap(bea, "social-challenge-received")
    assert violations(bea) == [], "the people page with a challenge"
    incoming.locator("select.reason").select_option("too_fast")
    incoming.get_by_role("button", name=SOCIAL["decline"]).click()
    expect(bea.locator("#incoming .challenge")).to_have_count(0)
    reason = SOCIAL["declined_because"].format(reason=SOCIAL["reasons"]["too_fast"])
    expect(mine).to_contain_text(reason)  # told at once
    snap(ana, "social-profile-declined")

    bea.locator("#followers").get_by_role("button", name=SOCIAL["follow_back"]).click()
    expect(bea.locator("#following .person .badge")).to_have_text(SOCIAL["friend"])

    send_challenge(ana, "none", shot="social-challenge-dialog")
    expect(bea.locator("#incoming .challenge")).to_have_count(1)
    snap(bea, "social-people")
    bea.goto("/people?lang=pt-BR")
    expect(bea.locator("#incoming .challenge")).to_contain_text("Ana desafia você")
    snap(bea, "social-people-pt-BR")
    assert violations(bea) == [], "the people page in pt-BR"
    bea.goto("/lobby?lang=en")  # the lobby lists it too, above the open challenges
    expect(bea.locator("#challenges-panel")).to_be_visible()
    waiting = bea.locator("#incoming .challenge")
    expect(waiting).to_contain_text(SOCIAL["from"].format(name="Ana"))
    snap(bea, "social-lobby-challenge")
    waiting.get_by_role("button", name=SOCIAL["accept"]).click()

    expect(bea).to_have_url(MATCH_URL)
    expect(ana).to_have_url(MATCH_URL)  # taken there the moment Bea accepted
    match_id = MATCH_URL.search(bea.url).group(1)  # type: ignore[union-attr]
    assert MATCH_URL.search(ana.url).group(1) == match_id  # type: ignore[union-attr]
    assert status_of(bea, match_id) == "active"
    assert status_of(ana, match_id) == "active"
    # once it is over, Bea's page links Ana among its recent opponents: a way back to follow
    resign(ana, match_id)
    bea.goto(f"/players/{bea_player['player_id']}?lang=en")
    expect(bea.locator("#recent a[href^='/players/']")).to_have_text("Ana")


def test_a_nations_challenge_ends_with_links_to_the_other_players(
    open_page: Callable[..., Page],
) -> None:
    """Nations challenges from the dialog: a table of three (its third seat the computer),
    withdrawn, then a duel, accepted; once it ends, the end screen links the other person's page,
    to follow or challenge again."""
    bea = open_page()
    bea_player = become(bea, "Bea")
    ana = open_page()
    ana_player = become(ana, "Ana")
    ana.goto(f"/players/{bea_player['player_id']}")
    ana.locator("#challenge-button").click()
    dialog = ana.locator("#challenge-dialog")
    dialog.locator("#dialog-game").get_by_text(LOCALES["en"]["games"]["nations"]).click()
    dialog.locator("select[name=players]").select_option("3")
    expect(dialog.locator("select[name=seat_p3]")).to_have_value("bot")
    dialog.locator("#challenge-send").click()
    sent = ana.locator("#outgoing .challenge")
    expect(sent).to_contain_text(SOCIAL["players_n"].format(n=3))
    sent.get_by_role("button", name=SOCIAL["cancel"]).click()  # withdrawn: a duel instead
    expect(sent).to_contain_text(SOCIAL["status"]["canceled"])
    ana.locator("#challenge-button").click()
    dialog.locator("select[name=players]").select_option("2")
    dialog.locator("#challenge-send").click()
    expect(ana.locator("#outgoing .challenge.is-open")).to_have_count(1)

    # Ana's seat, kept by her browser when she sent it (her page moves once it is accepted)
    seat: dict[str, str] = ana.evaluate(
        """async () => {
            const me = JSON.parse(localStorage.getItem("wg.player"));
            const r = await fetch("/api/challenges", {headers: {"X-Player-Token": me.token}});
            const open = (await r.json()).outgoing.find((c) => c.status === "open");
            const kept = JSON.parse(localStorage.getItem(`wg.seat.${open.match_id}`));
            return {match_id: open.match_id, token: kept.token};
        }"""
    )

    bea.goto("/people")
    bea.locator("#incoming .challenge").get_by_role("button", name=SOCIAL["accept"]).click()
    expect(bea).to_have_url(re.compile(f"/nations/match/{seat['match_id']}$"))
    expect(bea.locator("#nations")).to_have_attribute("data-status", "active")
    expect(ana).to_have_url(re.compile(f"/nations/match/{seat['match_id']}$"))
    resigned = bea.evaluate(  # Ana resigns (her seat's token, from any page)
        """async ({match_id, token}) => (await fetch(`/api/matches/${match_id}/resign`,
            {method: "POST", headers: {Authorization: `Bearer ${token}`}})).status""",
        seat,
    )
    assert resigned == 200
    link = bea.locator("#n-final .n-people a")
    expect(link).to_have_text("Ana")
    assert link.get_attribute("href") == f"/players/{ana_player['player_id']}"
    link.scroll_into_view_if_needed()
    bea.screenshot(path=str(SCREENS / "social-nations-end-desktop.png"), animations="disabled")


def test_block_from_a_profile_and_unblock_from_the_people_page(
    open_page: Callable[..., Page],
) -> None:
    bea = open_page()
    bea_player = become(bea, "Bea")
    ana = open_page()
    become(ana, "Ana")
    ana.goto(f"/players/{bea_player['player_id']}")
    ana.locator("#follow-button").click()
    expect(ana.locator("#follow-button")).to_have_text(SOCIAL["unfollow"])
    ana.once("dialog", lambda d: d.accept())  # "Block Bea? …"
    ana.locator("#block-button").click()
    expect(ana.locator("#block-button")).to_have_text(SOCIAL["unblock"])
    expect(ana.locator("#follow-button")).to_be_hidden()
    expect(ana.locator("#challenge-button")).to_be_hidden()

    ana.goto("/people")
    expect(ana.locator("#no-following")).to_be_visible()  # the block ended the follow
    blocked = ana.locator("#blocked .person")
    expect(blocked.locator(".who")).to_have_text("Bea")
    assert violations(ana) == [], "the people page with a blocked player"
    blocked.get_by_role("button", name=SOCIAL["unblock"]).click()
    expect(ana.locator("#no-blocked")).to_be_visible()
