"""R18: the computer's timing must not reveal hidden information. It answers at one fixed pace,
whatever it holds and however many choices it has: a lone pass waits as long as a decision the
search bot thinks about, and the settings refuse a thinking budget that would not fit inside the
pause. Measured from the push that offers the computer its decision to the push of its move, on a
person's socket, in real matches against the search bot."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from app.config import BOT_PACE_MARGIN_MS, Settings
from engine.registry import get_game
from engine.watergate.bots import RandomBot
from tests.app.test_persistence import admin_detail

from .test_ws import create, receive_view, send_action, socket

MakeClient = Callable[..., TestClient]
DELAY_MS = 300
BUDGET_MS = DELAY_MS - BOT_PACE_MARGIN_MS  # the most thinking the settings allow in that pause
TOLERANCE_S = DELAY_MS / 1000 / 5  # medians closer than this: one pace (a thought is BUDGET_MS)
SAMPLES = 6  # answers of each kind wanted
MATCHES = 3  # at most; a match holds about eight lone choices for the computer
BOT = "nixon"  # the person is the Editor, who moves first (R5): every bot decision follows a push


def bot_options(client: TestClient, match_id: str) -> dict[int, int]:
    """version -> how many legal choices the computer had when it decided at that version,
    from the admin's full record (the seat at the table cannot know it)."""
    detail = admin_detail(client, match_id)
    game = get_game("watergate")
    state = game.start(detail["seed"], detail["rules_version"]).state
    options = {}
    for version, action in enumerate(detail["actions"]):
        if action["role"] == BOT:
            options[version] = len(game.legal_actions(state, BOT))
        state = game.apply(state, action["role"], action["action"]).state
    return options


def answer_times(client: TestClient, samples: dict[bool, list[float]], seed: int) -> None:
    """Play one match as the Editor (random moves, sent at once); add each computer answer's time
    to samples[it had more than one choice]. Stops once there are enough of both kinds."""
    made = create(client, "editor", "bot")
    person = RandomBot(seed)
    arrived: dict[int, float] = {}  # version -> when its first push came
    counted: set[int] = set()  # versions whose answer is in samples
    with socket(client, made["match_id"], made["seat_token"]) as ws:
        view = receive_view(ws)
        while view["status"] == "active":
            arrived.setdefault(view["version"], time.perf_counter())
            if view["legal_actions"]:  # the computer is idle: the time to count its answers
                for version, count in bot_options(client, made["match_id"]).items():
                    if version not in counted and version + 1 in arrived:
                        samples[count > 1].append(arrived[version + 1] - arrived[version])
                        counted.add(version)
                if min(len(s) for s in samples.values()) >= SAMPLES:
                    return
                action = person.choose(view["state"], view["legal_actions"])
                send_action(ws, action, view["version"])
            view = receive_view(ws)


def test_R18_the_computer_answers_a_lone_choice_as_slowly_as_a_thought_out_one(
    sqlite_url: str, make_client: MakeClient
) -> None:
    client = make_client(
        sqlite_url, bot_kind="search", bot_delay_ms=DELAY_MS, bot_budget_ms=BUDGET_MS
    )
    samples: dict[bool, list[float]] = {False: [], True: []}
    for seed in range(MATCHES):
        answer_times(client, samples, seed)
        if min(len(s) for s in samples.values()) >= SAMPLES:
            break
    lone, many = samples[False], samples[True]
    assert len(lone) >= SAMPLES and len(many) >= SAMPLES, (len(lone), len(many))
    delay = DELAY_MS / 1000
    assert min(lone + many) >= 0.9 * delay, "an answer came before the pause was over"
    gap = statistics.median(many) - statistics.median(lone)
    assert abs(gap) <= TOLERANCE_S, (
        f"median answer {statistics.median(lone):.3f} s with one choice, "
        f"{statistics.median(many):.3f} s with several"
    )


def test_R18_a_thinking_budget_that_does_not_fit_inside_the_pause_is_refused() -> None:
    fits = 600 - BOT_PACE_MARGIN_MS
    assert Settings(bot_delay_ms=600, bot_budget_ms=fits).bot_budget_ms == fits
    for budget in (fits + 1, 600, 2000):
        with pytest.raises(ValidationError, match="R18"):
            Settings(bot_delay_ms=600, bot_budget_ms=budget)
    assert Settings(bot_delay_ms=0, bot_budget_ms=2000).bot_delay_ms == 0  # no pause: tests only
    assert Settings().bot_budget_ms <= Settings().bot_delay_ms - BOT_PACE_MARGIN_MS  # defaults
