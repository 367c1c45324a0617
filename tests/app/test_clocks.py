"""Match clocks (issue 7) with a clock the test controls: the server owns the clocks, time runs
only for the seat that must decide, a real-time bank gains 10 s per decision, a turn-based clock
gives each decision a whole day, the seat that runs out loses (on its late move or on the next
sweep), and the clocks survive a restart because they are recomputed from stored timestamps.

The fake clock starts at a fixed instant far from the wall clock, so a server that mixes its own
wall-clock time into the clocks cannot pass by accident. Expected values come from the rules of
the issue (banks, increments, per-decision allowances), tallied here move by move."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient

from app.persistence import repository as repo
from engine.watergate import other

from .test_lifecycle import (
    ROLES,
    act,
    claim,
    create,
    finished,
    post,
    refused,
    seat_socket,
    serve,
    started,
    sweep,
    view,
    wait_for,
)

START = 1_900_000_000.0  # 2030-03-17, an instant the wall clock is not at
INCREMENT = 10.0  # seconds added to a real-time bank per decision (the "small increment")
DAY = 86_400.0


class FakeClock:
    """The app's only notion of now; it moves when the test says so."""

    def __init__(self, start: float = START) -> None:
        self.t = start

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock()


@pytest.fixture
def client(sqlite_url: str, fake: FakeClock) -> Iterator[TestClient]:
    with serve(sqlite_url, fake) as c:
        yield c


def clocks(c: TestClient, match_id: str, tokens: dict[str, str]) -> dict[str, object]:
    """The clocks as both seats read them (they must agree)."""
    seen = [view(c, match_id, tokens[role])["clocks"] for role in ROLES]
    assert seen[0] == seen[1], seen
    return dict(seen[0])


def expect(kind: str, left: dict[str, float], running: str | None) -> dict[str, object]:
    """The clocks as the rules say: seconds left per seat, and whose clock is running."""
    out: dict[str, object] = {"kind": kind}
    for role in ROLES:
        out[role] = {"remaining_ms": round(left[role] * 1000), "running": role == running}
    return out


def decider(c: TestClient, match_id: str, tokens: dict[str, str]) -> str:
    return str(view(c, match_id, tokens["editor"])["state"]["decision"]["role"])


def move(c: TestClient, match_id: str, tokens: dict[str, str], role: str) -> None:
    """`role` makes its first legal decision."""
    action = view(c, match_id, tokens[role])["legal_actions"][0]
    response = act(c, match_id, tokens[role], action)
    assert response.status_code == 200, response.text


# ---- choosing a clock -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("choice", "kind", "seconds"),
    [
        ("realtime-15", "realtime", 15 * 60.0),
        ("realtime-30", "realtime", 30 * 60.0),
        ("turn-1", "turn", DAY),
        ("turn-3", "turn", 3 * DAY),
    ],
)
def test_the_chosen_clock_starts_full_and_only_for_the_editor(
    client: TestClient, fake: FakeClock, choice: str, kind: str, seconds: float
) -> None:
    full = {"editor": seconds, "nixon": seconds}
    made = create(client, "editor", clock=choice)
    waiting = view(client, made["match_id"], made["seat_token"])
    assert waiting["clocks"] == expect(kind, full, None), "no time runs before the friend comes"
    fake.advance(3600)  # waiting for the friend costs nobody anything
    tokens = {"editor": made["seat_token"], "nixon": claim(client, made)["seat_token"]}
    assert clocks(client, made["match_id"], tokens) == expect(kind, full, "editor")  # R5


def test_no_clock_by_default_and_only_the_offered_clocks(client: TestClient) -> None:
    match_id, tokens = started(client)
    v = view(client, match_id, tokens["editor"])
    assert v["clocks"] is None and v["clock"] is None
    for bad in ("realtime-20", "turn-2", "blitz"):
        response = client.post("/api/matches", json={"opponent": "human", "clock": bad})
        assert response.status_code == 422, response.text


# ---- real-time --------------------------------------------------------------------------------


def test_time_runs_only_for_the_deciding_seat_and_each_decision_earns_10_s(
    client: TestClient, fake: FakeClock
) -> None:
    match_id, tokens = started(client, "realtime-15")
    bank = {"editor": 900.0, "nixon": 900.0}
    for spent in (30, 12, 7, 45, 3, 20, 61, 9, 0, 14):
        who = decider(client, match_id, tokens)
        fake.advance(spent)
        thinking = {who: bank[who] - spent, other(who): bank[other(who)]}
        assert clocks(client, match_id, tokens) == expect("realtime", thinking, who)
        move(client, match_id, tokens, who)
        bank[who] += INCREMENT - spent
        assert clocks(client, match_id, tokens) == expect(
            "realtime", bank, decider(client, match_id, tokens)
        )
    assert bank != {"editor": 900.0, "nixon": 900.0}


def test_a_late_move_loses_on_time_and_the_opponent_is_told(
    client: TestClient, fake: FakeClock
) -> None:
    match_id, tokens = started(client, "realtime-15")
    fake.advance(899)  # one second left: the move counts and earns the increment
    move(client, match_id, tokens, "editor")
    bank = {"editor": 900.0 - 899 + INCREMENT, "nixon": 900.0}
    while (who := decider(client, match_id, tokens)) != "editor":
        move(client, match_id, tokens, who)  # Nixon answers at once: no time passes
        bank["nixon"] += INCREMENT
    assert clocks(client, match_id, tokens) == expect("realtime", bank, "editor")
    with seat_socket(client, match_id, tokens["nixon"]) as nx:
        wait_for(nx, lambda v: True, "any view")
        fake.advance(bank["editor"])  # the Editor's bank is exactly used up
        late = view(client, match_id, tokens["editor"])
        assert late["clocks"]["editor"] == {"remaining_ms": 0, "running": True}
        response = act(client, match_id, tokens["editor"], late["legal_actions"][0])
        refused(response, 422, "match_over")
        for role in ROLES:
            v = view(client, match_id, tokens[role])
            assert (v["status"], v["winner"], v["win_reason"]) == ("finished", "nixon", "timeout")
            assert v["ended_by"] == "editor" and v["legal_actions"] == []
            assert v["version"] == late["version"], "the late move was stored"
            assert not any(v["clocks"][r]["running"] for r in ROLES)
        told = wait_for(nx, finished, "Nixon's page learns that the Editor ran out of time")
        assert (told["winner"], told["win_reason"]) == ("nixon", "timeout")


def test_the_sweep_ends_an_expired_match_without_a_move(
    client: TestClient, fake: FakeClock
) -> None:
    match_id, tokens = started(client, "realtime-15")
    idle, idle_tokens = started(client, "realtime-30")  # more time: still on afterwards
    with (
        seat_socket(client, match_id, tokens["editor"]) as ed,
        seat_socket(client, match_id, tokens["nixon"]) as nx,
    ):
        for ws in (ed, nx):
            wait_for(ws, lambda v: v["status"] == "active", "the match is on")
        fake.advance(899.5)
        assert sweep(client) == []
        assert view(client, match_id, tokens["nixon"])["status"] == "active"
        fake.advance(0.5)
        assert sweep(client) == [match_id]
        pushed = [wait_for(ws, finished, "the sweep's verdict is pushed") for ws in (ed, nx)]
    for v in pushed:
        assert (v["winner"], v["win_reason"], v["ended_by"]) == ("nixon", "timeout", "editor")
    assert sweep(client) == []
    assert clocks(client, idle, idle_tokens) == expect(
        "realtime", {"editor": 1800.0 - 900, "nixon": 1800.0}, "editor"
    )
    for v in pushed:  # the final clocks show who ran out
        assert v["clocks"] == expect("realtime", {"editor": 0, "nixon": 900.0}, None)


def due(c: TestClient, at: float) -> set[str]:
    """The matches a sweep at `at` would look at (the rows due by then, or not worked out)."""
    ctx = c.app.state.ctx  # type: ignore[attr-defined]
    with ctx.db.reader() as db:
        return {row.id for row in repo.due_matches(db, datetime.fromtimestamp(at, UTC))}


def test_a_quiet_sweep_looks_at_no_match_until_a_clock_is_due(
    client: TestClient, fake: FakeClock
) -> None:
    """Issue 10: the sweep used to replay every active match's clocks every 2 s; it must read
    only the matches whose deciding seat can have run out, yet still end each one on time."""
    clocked, tokens = started(client, "realtime-15")
    unclocked, _ = started(client)
    assert due(client, fake.now()) == {clocked, unclocked}, "new rows are worked out once"
    assert sweep(client) == []
    assert due(client, fake.now()) == set()
    assert due(client, fake.now() + 899.9) == set()
    assert due(client, fake.now() + 900) == {clocked}, "the Editor's 15 minutes, not more"
    who = decider(client, match_id=clocked, tokens=tokens)
    fake.advance(100)
    move(client, clocked, tokens, who)  # its bank: 900 - 100 + 10; the other's 900 starts now
    after = decider(client, clocked, tokens)
    left = 900.0 if after != who else 810.0
    assert due(client, fake.now() + left - 0.1) == set(), "the move recorded the new moment"
    assert due(client, fake.now() + left) == {clocked}
    fake.advance(left)
    assert sweep(client) == [clocked]
    assert view(client, clocked, tokens[after])["win_reason"] == "timeout"
    assert due(client, fake.now() + 1e9) == set(), "an ended match is never looked at again"


# ---- turn-based -------------------------------------------------------------------------------


def test_a_turn_clock_gives_every_decision_a_full_day(client: TestClient, fake: FakeClock) -> None:
    match_id, tokens = started(client, "turn-1")
    full = {"editor": DAY, "nixon": DAY}
    for spent in (5000, 80_000, 0, 86_399):
        who = decider(client, match_id, tokens)
        fake.advance(spent)
        thinking = {**full, who: DAY - spent}
        assert clocks(client, match_id, tokens) == expect("turn", thinking, who)
        move(client, match_id, tokens, who)
        assert clocks(client, match_id, tokens) == expect(
            "turn", full, decider(client, match_id, tokens)
        ), "the allowance starts afresh after each decision"
    who = decider(client, match_id, tokens)
    fake.advance(DAY - 1)
    assert sweep(client) == []
    assert clocks(client, match_id, tokens) == expect("turn", {**full, who: 1.0}, who)
    fake.advance(1)
    assert sweep(client) == [match_id]
    v = view(client, match_id, tokens[other(who)])
    assert (v["status"], v["winner"], v["win_reason"], v["ended_by"]) == (
        "finished",
        other(who),
        "timeout",
        who,
    )


def test_a_rematch_keeps_the_clock_which_starts_when_both_are_seated(
    client: TestClient, fake: FakeClock
) -> None:
    old, tokens = started(client, "realtime-30")
    fake.advance(100)
    assert post(client, old, "resign", tokens["editor"]).status_code == 200
    assert post(client, old, "rematch", tokens["editor"]).status_code == 200
    seat = post(client, old, "rematch/accept", tokens["nixon"]).json()
    new, full = seat["match_id"], {"editor": 1800.0, "nixon": 1800.0}
    assert view(client, new, seat["seat_token"])["clocks"] == expect("realtime", full, None)
    fake.advance(600)  # the offering player takes a while to follow: nobody's time runs
    late = post(client, old, "rematch/claim", tokens["editor"]).json()
    fresh = {"editor": seat["seat_token"], "nixon": late["seat_token"]}
    assert clocks(client, new, fresh) == expect("realtime", full, "editor")
    fake.advance(42)
    assert clocks(client, new, fresh) == expect("realtime", {**full, "editor": 1758.0}, "editor")


# ---- restarts ---------------------------------------------------------------------------------


def test_clocks_survive_a_restart(sqlite_url: str) -> None:
    fake = FakeClock()
    with serve(sqlite_url, fake) as c:
        match_id, tokens = started(c, "realtime-15")
        bank = {"editor": 900.0, "nixon": 900.0}
        for spent in (40, 25, 90, 5, 33):
            who = decider(c, match_id, tokens)
            fake.advance(spent)
            move(c, match_id, tokens, who)
            bank[who] += INCREMENT - spent
        who = decider(c, match_id, tokens)
        fake.advance(77)
        before = clocks(c, match_id, tokens)
        assert before == expect("realtime", {**bank, who: bank[who] - 77}, who)
    with serve(sqlite_url, FakeClock(fake.now())) as again:  # a new process, the same instant
        assert clocks(again, match_id, tokens) == before
