"""Screenshots of the Watergate table that issue 42's closing note shows, at 1280×800 and
390×844, in Portuguese and German (not a test: pytest only imports it for doctests, and it has
none).

    .venv/bin/python -m tests.e2e.table_screens [--out docs/screens/table]

It starts its own server (conftest's `serving`: a fresh SQLite file and a free port, bots without
delay), makes the matches through the HTTP API and photographs, in headless Chromium:

- the end screen of a rated match between two accounts, with the winner's rating change
  (`rated-end-*`);
- a step of a match played under an earlier rules edition, its cards worded as that edition did
  (`replay-edition4-*`);
- a match opened on a second device by its signed-in player, who holds no seat in that browser
  (`second-device-*`).

The hand with a card opened and a reaction window come from a browser test that plays to them
(`TABLE_SCREENS=docs/screens/table` with tests/e2e/test_table_cards.py). A shot is taken once the
page shows what it is for (an element waited on), never after a sleep. Only the viewport is
photographed, so the files stay small; uncaught page errors fail the run."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from .conftest import ROOT
from .screens import LOCALE, UI_TIMEOUT_MS, Api, say, studio
from .test_pages42 import old_edition_match

OUT = ROOT / "tests" / "e2e" / "output"
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
LANGS = ("pt-BR", "de")


class Camera:
    """Browser pages that hold what a player's browser keeps, and their screenshots."""

    def __init__(self, browser: Browser, base: str, out: Path) -> None:
        self.browser, self.base, self.out = browser, base, out
        self.errors: list[str] = []

    def page(self, lang: str, size: str, kept: dict[str, Any]) -> Page:
        context = self.browser.new_context(
            base_url=self.base, locale=LOCALE[lang], viewport=SIZES[size]
        )
        context.set_default_timeout(UI_TIMEOUT_MS)
        stored = {k: json.dumps(v) for k, v in kept.items()}
        entries = json.dumps(stored)
        context.add_init_script(
            f"for (const [k, v] of Object.entries({entries})) localStorage.setItem(k, v);"
        )
        page = context.new_page()
        page.on("pageerror", lambda err: self.errors.append(f"{page.url}: {err}"))
        return page

    def shoot(self, page: Page, name: str) -> None:
        page.evaluate("document.fonts.ready")
        path = self.out / f"{name}.png"
        page.screenshot(path=str(path), animations="disabled", caret="hide")
        say(str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path))
        page.context.close()


def seat_kept(match_id: str, role: str, token: str) -> dict[str, Any]:
    return {f"wg.seat.{match_id}": {"role": role, "token": token, "inviteUrl": None}}


def player_kept(account: dict[str, Any]) -> dict[str, Any]:
    return {
        "wg.player": {
            "id": account["player_id"],
            "name": account["name"],
            "token": account["player_token"],
        }
    }


def account(api: Api, name: str) -> dict[str, Any]:
    made: dict[str, Any] = api.call("/api/accounts", {"username": name, "password": "x" * 12})
    return made


def rated_end(api: Api, camera: Camera) -> None:
    ana, bob = account(api, "ana_screens"), account(api, "bob_screens")
    body = {"role": "editor", "opponent": "human", "rated": True}
    made = api.call("/api/matches", body, headers={"X-Player-Token": ana["player_token"]})
    code = made["invite_url"].rsplit("/invite/", 1)[1]
    claimed = api.call(
        f"/api/invites/{code}/claim", {}, headers={"X-Player-Token": bob["player_token"]}
    )
    api.call(f"/api/matches/{made['match_id']}/resign", {}, token=claimed["seat_token"])
    kept = seat_kept(made["match_id"], "editor", made["seat_token"]) | player_kept(ana)
    for lang in LANGS:
        for size in SIZES:
            page = camera.page(lang, size, kept)
            page.goto(f"/match/{made['match_id']}")
            line = page.locator("#final .end-rating")
            expect(line).to_contain_text("+")
            line.scroll_into_view_if_needed()
            camera.shoot(page, f"rated-end-{size}-{lang}")


def old_edition(api: Api, camera: Camera) -> None:
    seat = old_edition_match(api.base)
    kept = seat_kept(seat["match_id"], seat["role"], seat["seat_token"])
    for lang in LANGS:
        for size in SIZES:
            page = camera.page(lang, size, kept)
            page.goto(f"/match/{seat['match_id']}/replay")
            card = page.locator(f"#hands [data-card='{seat['card']}']")
            expect(card).to_be_visible()
            if size == "phone":  # the hands lie below the track and the board there
                card.evaluate('e => e.scrollIntoView({ block: "center" })')
            camera.shoot(page, f"replay-edition4-{size}-{lang}")


def second_device(api: Api, camera: Camera) -> None:
    me = account(api, "two_devices_screens")
    body = {"role": "editor", "opponent": "bot", "level": "easy"}
    made = api.call("/api/matches", body, headers={"X-Player-Token": me["player_token"]})
    for lang in LANGS:
        for size in SIZES:
            page = camera.page(lang, size, player_kept(me))  # the player, not the seat
            page.goto(f"/match/{made['match_id']}")
            expect(page.locator("#hand .card").first).to_be_visible()
            camera.shoot(page, f"second-device-{size}-{lang}")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help="where the PNG files go")
    out: Path = parser.parse_args().out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    with studio("table-screens-") as (base, browser):
        api, camera = Api(base), Camera(browser, base, out)
        rated_end(api, camera)
        old_edition(api, camera)
        second_device(api, camera)
    for error in camera.errors:
        say(f"page error: {error}")
    return 1 if camera.errors else 0


if __name__ == "__main__":
    sys.exit(main())
