"""Screenshots of Nations tables of two to five, for notes and reviews (not a test: pytest only
imports it for doctests, and it has none).

    .venv/bin/python -m tests.e2e.screens [--out docs/screens/tables] [--only 5p|3p]

It starts its own server (conftest's `serving`: `python -m app` on a fresh SQLite file and a
free port, bots without delay, rate limits off), creates the matches through the HTTP API
(contract v1.2), plays the people's seats through the API too (legal actions from each seat's
own view) and photographs the tables in headless Chromium with Playwright:

- a table of five (one person, four computer seats) early, at 1280×800 and 390×844 in English
  (on the phone also its own board and its nations tab), and at 1280×800 in Portuguese and
  German; the same table late (age IV, once another nation has passed), at both sizes; its final
  ranking, at both sizes;
- a table of three people (three browsers that joined by the invite links) in the middle of the
  match, at 1280×800, from two of its seats.

A shot is taken only once the page shows the very version the API gave (data attributes of
#nations), never after a sleep. Uncaught page errors are reported and fail the run. The deals
are random, so every run photographs new matches (the file names stay); a run takes about a
minute on two cores."""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from engine.registry import get_game

from .conftest import CHROMIUM, CHROMIUM_ARGS, ROOT, serving

OUT = ROOT / "docs" / "screens" / "tables"
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
}
LOCALE = {"en": "en-US", "pt-BR": "pt-BR", "de": "de-DE"}
EARLY_ROUND = 2  # age I, its second round: the computer seats have bought and deployed
LATE_ROUND = 7  # age IV
MID_ROUND = 4  # age II, for the table of three
TIMEOUT_S = 120.0
UI_TIMEOUT_MS = 20_000
MAX_ACTIONS = 3000
FOOD = 2  # a production's gains and costs: gold, stone, food, books
META: dict[str, Any] = get_game("nations").metadata()
CARDS: dict[str, dict[str, Any]] = {
    card["id"]: card
    for cards in [META["board"]["starting_cards"]]
    + [META[f"age{a}"]["progress"] for a in (1, 2, 3, 4)]
    for card in cards
}


def gold_from(card: str) -> int:
    """The gold a worker on `card` produces (0 for a card that produces none)."""
    ops = CARDS.get(card, {}).get("per_worker", [])
    return sum(op["amount"] for op in ops if op["op"] == "produce" and op["resource"] == "gold")


# the page's table at rest on `version` (the same data attributes the e2e tests wait on)
AT_REST = """(v) => { const r = document.getElementById("nations");
  return r && Number(r.dataset.version) === v && r.dataset.busy === "false"
    && (r.dataset.status === "active" || r.dataset.status === "finished"); }"""


def say(text: str) -> None:
    sys.stderr.write(text + "\n")


class Api:
    """The players' HTTP API of one server."""

    def __init__(self, base: str) -> None:
        self.base = base

    def call(
        self,
        path: str,
        body: Any = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Any:
        request = urllib.request.Request(
            self.base + path,
            data=None if body is None else json.dumps(body).encode(),
            method="GET" if body is None else "POST",
            headers={
                "Content-Type": "application/json",
                **({"Authorization": f"Bearer {token}"} if token else {}),
                **(headers or {}),
            },
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())

    def player(self, name: str) -> dict[str, Any]:
        made: dict[str, Any] = self.call("/api/players", {"name": name})
        return made

    def view(self, seat: Seat) -> dict[str, Any]:
        found: dict[str, Any] = self.call(f"/api/matches/{seat.match_id}", token=seat.token)
        return found

    def act(self, seat: Seat, action: dict[str, Any], version: int) -> dict[str, Any]:
        body = {"action": action, "expected_version": version}
        done: dict[str, Any] = self.call(
            f"/api/matches/{seat.match_id}/actions", body, token=seat.token
        )
        return done


@dataclass(frozen=True)
class Seat:
    """A person's seat: its match, role and token, and the player who holds it (if named)."""

    match_id: str
    role: str
    token: str
    player: dict[str, Any] | None = None


class Quick:
    """A quick, legal way to play a person's seat that still builds a nation: grow while the
    food and gold last (else take the one short), buy a card (never a war, keeping some gold,
    never throwing a card away when another purchase is offered) and deploy a few times a
    round, gold first, never taking a worker back, then pass."""

    def __init__(self, rnd: random.Random, per_round: int = 4) -> None:
        self.rnd, self.per_round = rnd, per_round
        self.done: dict[tuple[str, int], int] = {}

    @staticmethod
    def worth(state: dict[str, Any], nation: dict[str, Any], card: str) -> bool:
        """Not a war, and before the last age not the last of the nation's gold (some stays for
        the next round's cards)."""
        rows: list[list[str | None]] = state["progress"]["rows"]
        cost = next(state["progress"]["costs"][r] for r, row in enumerate(rows) if card in row)
        spare = nation["gold"] - cost >= 1 or state["age"] == 4
        return CARDS.get(card, {}).get("type") != "war" and spare

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        legal: list[dict[str, Any]] = view["legal_actions"]
        state = view["state"]
        nation = state["nations"][view["role"]]
        kinds: dict[str, list[dict[str, Any]]] = {}
        for action in legal:
            kinds.setdefault(action["type"], []).append(action)
        if "grow" in kinds:
            gains, costs = nation["production"]["gains"], nation["production"]["costs"]
            fed = gains[FOOD] - costs[FOOD] >= 3 and nation["food"] >= 6
            if fed and nation["gold"] >= 4 and state["round"] <= 5:
                return kinds["grow"][0]
            wanted = "gold" if fed else "food"
            return next((a for a in kinds["bonus"] if a["resource"] == wanted), kinds["bonus"][0])
        if "choose" in kinds:
            return self.rnd.choice(kinds["choose"])
        key = (view["role"], state["round"])
        if self.done.get(key, 0) < self.per_round:
            buys = [a for a in kinds.get("buy", []) if self.worth(state, nation, a["card"])]
            keep = [a for a in buys if "replace" not in a] or buys
            deploys = kinds.get("deploy", [])
            # gold first: a card that yields gold, a worker on one
            for pool in (
                [a for a in keep if gold_from(a["card"])],
                [a for a in deploys if gold_from(a["card"])],
                keep,
                deploys,
                kinds.get("hire", []),
            ):
                if pool and self.rnd.random() < 0.8:
                    self.done[key] = self.done.get(key, 0) + 1
                    return self.rnd.choice(pool)
        if "pass" in kinds:
            return kinds["pass"][0]
        return self.rnd.choice([a for a in legal if a["type"] != "undeploy"] or legal)


View = dict[str, Any]


def play_until(
    api: Api, seats: list[Seat], policy: Quick, done: Callable[[View], bool]
) -> dict[str, View]:
    """Plays the people's `seats` until `done(view)` holds for the seat whose decision it is (or
    the match is over); every seat's view then."""
    for _ in range(MAX_ACTIONS):
        views = {s.role: api.view(s) for s in seats}
        first = next(iter(views.values()))
        if first["status"] == "finished":
            return {s.role: api.view(s) for s in seats}
        deciding = [s for s in seats if views[s.role]["legal_actions"]]
        if not deciding:
            time.sleep(0.1)  # the computer's move
            continue
        seat = deciding[0]
        view = views[seat.role]
        if done(view):
            return views
        api.act(seat, policy.choose(view), view["version"])
    raise RuntimeError(f"not done in {MAX_ACTIONS} actions")


def ended(view: dict[str, Any]) -> bool:
    return bool(view["status"] == "finished")


def my_turn_in(rnd: int, role: str = "p1") -> Callable[[View], bool]:
    """The condition: an action-phase turn of `role` in round `rnd` or later."""

    def holds(view: dict[str, Any]) -> bool:
        state = view["state"]
        turn = state["decision"] and state["decision"]["kind"] == "turn"
        return bool(turn and view["role"] == role and state["round"] >= rnd)

    return holds


def late_with_a_pass(view: View) -> bool:
    """The seat's turn in age IV once another nation has passed in its round (the scoring board
    marks it), or else its first turn of the last round."""
    state = view["state"]
    if not my_turn_in(LATE_ROUND)(view):
        return False
    passed = any(n["passed"] for seat, n in state["nations"].items() if seat != view["role"])
    return passed or state["round"] > LATE_ROUND


class Camera:
    """Browser contexts on one server, each its own browser (storage, cookies); the pages'
    uncaught errors are collected."""

    def __init__(self, browser: Browser, base: str, out: Path) -> None:
        self.browser, self.base, self.out = browser, base, out
        self.errors: list[str] = []
        self.contexts: list[BrowserContext] = []

    def page(self, lang: str, size: dict[str, Any], seat: Seat | None = None) -> Page:
        context = self.browser.new_context(base_url=self.base, locale=LOCALE[lang], **size)
        context.set_default_timeout(UI_TIMEOUT_MS)
        self.contexts.append(context)
        kept: dict[str, str] = {}  # localStorage, as the pages keep a seat and a player
        if seat:
            kept[f"wg.seat.{seat.match_id}"] = json.dumps(
                {"role": seat.role, "token": seat.token, "inviteUrl": None, "invites": None}
            )
            if seat.player:
                p = seat.player
                kept["wg.player"] = json.dumps(
                    {"id": p["player_id"], "name": p["name"], "token": p["player_token"]}
                )
        context.add_init_script(
            f"for (const [k, v] of Object.entries({json.dumps(kept)})) localStorage.setItem(k, v);"
        )
        page = context.new_page()
        page.on("pageerror", lambda err: self.errors.append(f"{page.url}: {err}"))
        return page

    def table(self, lang: str, size: dict[str, Any], seat: Seat) -> Page:
        page = self.page(lang, size, seat)
        page.goto(f"/nations/match/{seat.match_id}?lang={lang}")
        return page

    def shoot(self, page: Page, version: int, name: str) -> None:
        """The page's viewport once its table is at rest on `version`, as <out>/<name>.png."""
        page.wait_for_function(AT_REST, arg=version)
        page.evaluate("document.fonts.ready")
        path = self.out / f"{name}.png"
        page.screenshot(path=str(path), animations="disabled", caret="hide")
        say(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        self.contexts.clear()


def phone_below(camera: Camera, page: Page, version: int, name: str) -> None:
    """What a phone's first screen leaves out: the seat's own board (under the progress board),
    and the tab of the scoring board and the other nations."""
    page.locator("#n-mine").scroll_into_view_if_needed()
    camera.shoot(page, version, f"{name}-own-board")
    page.locator(".n-tab[data-tab='nations']").click()
    page.evaluate("window.scrollTo(0, 0)")
    camera.shoot(page, version, f"{name}-nations-tab")


def table_of_five(api: Api, camera: Camera) -> None:
    ana = api.player("Ana")
    made = api.call(
        "/api/matches",
        {
            "game": "nations",
            "players": 5,
            "role": "p1",
            "seats": dict.fromkeys(("p2", "p3", "p4", "p5"), "bot"),
            "levels": {"p2": "easy", "p3": "normal", "p4": "hard", "p5": "normal"},
        },
        headers={"X-Player-Token": ana["player_token"]},
    )
    seat = Seat(made["match_id"], made["role"], made["seat_token"], ana)
    policy = Quick(random.Random(made["match_id"]))

    view = play_until(api, [seat], policy, my_turn_in(EARLY_ROUND))[seat.role]
    for lang, size, name in (
        ("en", DESKTOP, "desktop-en"),
        ("en", PHONE, "phone-en"),
        ("pt-BR", DESKTOP, "desktop-pt-BR"),
        ("de", DESKTOP, "desktop-de"),
    ):
        page = camera.table(lang, size, seat)
        camera.shoot(page, view["version"], f"nations-5p-early-{name}")
        if size is PHONE:
            phone_below(camera, page, view["version"], f"nations-5p-early-{name}")
    camera.close()

    view = play_until(api, [seat], policy, late_with_a_pass)[seat.role]
    for size, name in ((DESKTOP, "desktop-en"), (PHONE, "phone-en")):
        page = camera.table("en", size, seat)
        camera.shoot(page, view["version"], f"nations-5p-late-{name}")
        if size is PHONE:
            phone_below(camera, page, view["version"], f"nations-5p-late-{name}")
    camera.close()

    view = play_until(api, [seat], policy, ended)[seat.role]
    for size, name in ((DESKTOP, "desktop-en"), (PHONE, "phone-en")):
        page = camera.table("en", size, seat)
        page.locator("#n-final").wait_for(state="visible")
        camera.shoot(page, view["version"], f"nations-5p-final-{name}")
    camera.close()


def table_of_three(api: Api, camera: Camera) -> None:
    """Three people: the first creates the table through the API, the two others open its
    invite links in browsers of their own and join under their names."""
    ana = api.player("Ana")
    made = api.call(
        "/api/matches",
        {"game": "nations", "players": 3, "role": "p1", "seats": {"p2": "human", "p3": "human"}},
        headers={"X-Player-Token": ana["player_token"]},
    )
    seats = [Seat(made["match_id"], made["role"], made["seat_token"], ana)]
    pages = {"p1": camera.table("en", DESKTOP, seats[0])}
    for role, name in (("p2", "Bruno"), ("p3", "Carla")):
        guest = camera.page("en", DESKTOP)
        guest.goto(made["invites"][role])
        guest.locator("#player-name").fill(name)
        guest.locator("#join").click()
        guest.wait_for_url(f"**/nations/match/{made['match_id']}")
        kept = guest.evaluate(f"localStorage.getItem('wg.seat.{made['match_id']}')")
        seat = json.loads(kept)
        assert seat["role"] == role, seat
        seats.append(Seat(made["match_id"], role, seat["token"]))
        pages[role] = guest
    policy = Quick(random.Random(made["match_id"]))
    # Ana's turn: her table offers her choices, Bruno's says whose decision it is
    views = play_until(api, seats, policy, my_turn_in(MID_ROUND, "p1"))
    for role in ("p1", "p2"):
        pages[role].bring_to_front()
        camera.shoot(pages[role], views[role]["version"], f"nations-3p-mid-desktop-{role}")
    camera.close()


@contextmanager
def chromium() -> Iterator[Browser]:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def studio(prefix: str) -> Iterator[tuple[str, Browser]]:
    """A fresh server of its own (a temporary folder named `prefix…`) and a browser: its base URL
    and the browser, while the block runs."""
    with (
        tempfile.TemporaryDirectory(prefix=prefix) as tmp,
        serving(Path(tmp)) as base,
        chromium() as browser,
    ):
        yield base, browser


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help="where the PNG files go")
    parser.add_argument("--only", choices=["5p", "3p"], help="one of the two tables")
    args = parser.parse_args()
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    with studio("screens-") as (base, browser):
        api, camera = Api(base), Camera(browser, base, out)
        try:
            if args.only in (None, "5p"):
                table_of_five(api, camera)
            if args.only in (None, "3p"):
                table_of_three(api, camera)
        finally:
            camera.close()
    for error in camera.errors:
        say(f"page error: {error}")
    return 1 if camera.errors else 0


if __name__ == "__main__":
    sys.exit(main())
