"""R18: the computer's timing must not reveal hidden information. It answers at one fixed pace,
whatever it holds and however many choices it has: a lone pass waits as long as a decision the
search bot thinks about, and the settings refuse a thinking budget that would not fit inside the
pause. Measured from the push that offers the computer its decision to the push of its move, on a
person's socket, in real matches against the search bot; that the pause is never cut short is read
from the server's own record of when each move was made, which a late push cannot shorten."""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from app.config import BOT_PACE_MARGIN_MS, Settings
from app.games import forced
from app.services.pace import Pace, paced
from app.services.thinking import choose_move
from engine.registry import get_game
from engine.watergate.bots import RandomBot
from engine.watergate.bots.levels import LEVELS
from engine.watergate.state import MatchState, PlayD
from tests.app.test_persistence import admin_detail

from .test_ws import create, receive_view, send_action, socket

MakeClient = Callable[..., TestClient]
DELAY_MS = 300
BUDGET_MS = DELAY_MS - BOT_PACE_MARGIN_MS  # the most thinking the settings allow in that pause
TOLERANCE_S = DELAY_MS / 1000 / 5  # medians closer than this: one pace (a thought is BUDGET_MS)
SAMPLES = 6  # answers of each kind wanted
MATCHES = 3  # at most; a match holds about eight lone choices for the computer
BOT = "nixon"  # the person is the Editor, who moves first (R5): every bot decision follows a push


def bot_options(detail: dict[str, Any]) -> dict[int, int]:
    """version -> how many legal choices the computer had when it decided at that version,
    from the admin's full record (the seat at the table cannot know it). A choice the server
    took at once (one option, and everyone could count it: issue 42) is no decision of the
    computer's and has no pause to keep: it is left out."""
    game = get_game("watergate")
    state = game.start(detail["seed"], detail["rules_version"]).state
    options = {}
    for version, action in enumerate(detail["actions"]):
        if action["role"] == BOT and forced(game, state) is None:
            options[version] = len(game.legal_actions(state, BOT))
        state = game.apply(state, action["role"], action["action"]).state
    return options


def server_pauses(detail: dict[str, Any]) -> list[float]:
    """Seconds from each move to the computer's decision after it, by the moves' stored times:
    the pause as the server kept it. (On a busy machine a push can reach the socket late, and
    the next answer then seems quicker to the person than the pause it kept.)"""
    made = [datetime.fromisoformat(a["created_at"]) for a in detail["actions"]]
    return [(made[v] - made[v - 1]).total_seconds() for v in bot_options(detail) if v > 0]


def answer_times(
    client: TestClient, samples: dict[bool, list[float]], seed: int, pauses: list[float]
) -> None:
    """Play one match as the Editor (random moves, sent at once); add each computer answer's time
    to samples[it had more than one choice], and the server's pauses to `pauses`. Stops once
    there are enough answers of both kinds."""
    made = create(client, "editor", "bot")
    person = RandomBot(seed)
    arrived: dict[int, float] = {}  # version -> when its first push came
    counted: set[int] = set()  # versions whose answer is in samples
    with socket(client, made["match_id"], made["seat_token"]) as ws:
        view = receive_view(ws)
        while view["status"] == "active":
            arrived.setdefault(view["version"], time.perf_counter())
            if view["legal_actions"]:  # the computer is idle: the time to count its answers
                detail = admin_detail(client, made["match_id"])
                for version, count in bot_options(detail).items():
                    # its answer's push: the next version pushed (the server's only choices
                    # taken after it come in the same push)
                    answered = min((v for v in arrived if v > version), default=None)
                    if version not in counted and version in arrived and answered is not None:
                        samples[count > 1].append(arrived[answered] - arrived[version])
                        counted.add(version)
                if min(len(s) for s in samples.values()) >= SAMPLES:
                    break
                action = person.choose(view["state"], view["legal_actions"])
                send_action(ws, action, view["version"])
            view = receive_view(ws)
    pauses.extend(server_pauses(admin_detail(client, made["match_id"])))


def test_R18_the_computer_answers_a_lone_choice_as_slowly_as_a_thought_out_one(
    sqlite_url: str, make_client: MakeClient
) -> None:
    client = make_client(
        sqlite_url, bot_kind="search", bot_delay_ms=DELAY_MS, bot_budget_ms=BUDGET_MS
    )
    samples: dict[bool, list[float]] = {False: [], True: []}
    pauses: list[float] = []
    for seed in range(MATCHES):
        answer_times(client, samples, seed, pauses)
        if min(len(s) for s in samples.values()) >= SAMPLES:
            break
    lone, many = samples[False], samples[True]
    assert len(lone) >= SAMPLES and len(many) >= SAMPLES, (len(lone), len(many))
    delay = DELAY_MS / 1000
    assert len(pauses) >= len(lone) + len(many)
    assert min(pauses) >= 0.9 * delay, "an answer came before the pause was over"
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


class TickingClock:
    """A clock only the test moves: every reading is 1 ms later (a search that reads it each
    iteration spends its budget in readings), and a sleep moves it on by the time slept."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.001
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds


def hands_apart(seed: int) -> tuple[MatchState, MatchState]:
    """Two states of one match, Nixon (the computer) to play a card, that differ only in the
    cards of his hidden hand: in the second he holds cards from his deck instead."""
    game, person = get_game("watergate"), RandomBot(seed)
    s = game.start(seed).state
    while not (
        isinstance(s.decision, PlayD)
        and s.decision.role == BOT
        and s.decision.card == ""
        and len(s.decks[BOT]) >= len(s.hands[BOT]) >= 3
    ):
        seat = game.to_move(s)[0]
        s = game.apply(s, seat, person.choose({}, game.legal_actions(s, seat))).state
    v = s.clone()
    held = len(s.hands[BOT])
    v.hands[BOT] = list(s.decks[BOT][:held])
    v.decks = {**s.decks, BOT: (*s.hands[BOT], *s.decks[BOT][held:])}
    v._legal = None
    return s, v


def answer_after(state: Any, level: str, seed: int, seat: str = BOT, game: Any = None) -> float:
    """How long after the offering change the computer answers at `level`, on the ticking clock,
    thinking as the app's bot does (choose_move) inside the app's pace."""
    clock, game = TickingClock(), game or get_game("watergate")

    async def think(budget_ms: int) -> Any:
        return choose_move(game, state, seat, seed, level, budget_ms, clock)

    async def answer() -> float:
        started = clock()
        await paced(Pace(DELAY_MS / 1000, BUDGET_MS), started, clock, clock.sleep, think)
        return clock.now - started

    return asyncio.run(answer())


@pytest.mark.parametrize("level", LEVELS)
def test_R18_at_every_level_the_answer_time_does_not_depend_on_the_hand(level: str) -> None:
    game = get_game("watergate")
    for seed in (3, 4):
        mine, other = hands_apart(seed)
        assert mine.hands[BOT] != other.hands[BOT]
        options = {len(game.legal_actions(s, BOT)) for s in (mine, other)}
        times = {round(answer_after(s, level, seed), 9) for s in (mine, other)}
        assert times == {DELAY_MS / 1000}, (level, seed, options, times)


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_R18_NR21_a_nations_computer_answers_at_one_pace_whatever_its_seat_and_choices(
    level: str,
) -> None:
    """R18 holds for Nations too (issue 39): at a table of four, every computer seat, first in
    player order or last, with one choice or many, answers after exactly the pause."""
    game = get_game("nations").with_players(4)
    s = game.start(7).state
    person = random.Random(7)
    seen: dict[tuple[str, bool], float] = {}  # (seat, several choices) -> answer time
    for _ in range(400):
        if game.outcome(s) is not None or len(seen) >= 8:
            break
        seat = game.to_move(s)[0]
        legal = game.legal_actions(s, seat)
        key = (seat, len(legal) > 1)
        if key not in seen:
            seen[key] = round(answer_after(s, level, 7, seat, game), 9)
        s = game.apply(s, seat, person.choice(legal)).state
    assert {seat for seat, _ in seen} == set(game.seats), seen
    assert {several for _, several in seen} == {True, False}, seen
    assert set(seen.values()) == {DELAY_MS / 1000}, seen
