"""Operating metrics (issue 11): `GET /metrics` in Prometheus's text format, for operators only
(a bearer METRICS_TOKEN, or without one only a scraper on this machine), each app with its own
registry; what a match played over real sockets adds to it (actions, the action→push latency,
sockets by kind, matches, cache, fan-out lag, the computer's thinking), refusals counted by limit
and by close code, the event-loop probe, and no label that names a match, a client or a secret.

Apps are in-process (TestClient) on a fresh database; waiting is blocking receives with a
deadline, or polling a condition with a deadline."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import WebSocketTestSession

from app.main import create_app
from app.metrics import NOTICE_OUTCOMES, Metrics, Recent, Tally, probe_loop, quantile
from engine.watergate.bots import RandomBot

from .conftest import ADMIN_TOKEN, make_settings
from .test_ws import receive_view, send_action, socket, started, view_after, view_at
from .test_ws_auth import refusal

MakeClient = Callable[..., TestClient]
METRICS_TOKEN = "test-metrics-token-" + "m" * 24
DEADLINE = 10.0  # seconds: a guard against a condition that never comes, never a way to wait


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass(frozen=True)
class Scrape:
    """One answer of /metrics: its text, and every sample by name and labels."""

    text: str
    samples: dict[tuple[str, frozenset[tuple[str, str]]], float]

    def value(self, name: str, **labels: str) -> float:
        return self.samples.get((name, frozenset(labels.items())), 0.0)

    def labels(self) -> dict[str, set[str]]:
        """Every label name of the app's own series, with the values it takes."""
        found: dict[str, set[str]] = {}
        for name, labels in self.samples:
            if name.startswith("watergate_"):
                for label, value in labels:
                    if label != "le":  # a histogram's bucket bounds
                        found.setdefault(label, set()).add(value)
        return found


def scrape(client: TestClient) -> Scrape:
    response = client.get("/metrics", headers=bearer(METRICS_TOKEN))
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    samples = {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }
    return Scrape(response.text, samples)


def eventually(client: TestClient, what: str, holds: Callable[[Scrape], bool]) -> Scrape:
    """Scrape until `holds`; fail naming `what` after the deadline."""
    deadline = time.monotonic() + DEADLINE
    while not holds(found := scrape(client)):
        if time.monotonic() > deadline:
            pytest.fail(f"not within {DEADLINE} s: {what}")
        time.sleep(0.02)
    return found


@pytest.fixture
def metered(sqlite_url: str, make_client: MakeClient) -> Callable[..., TestClient]:
    """make(**settings) -> an app on the test's database that serves /metrics to METRICS_TOKEN."""
    return lambda **overrides: make_client(sqlite_url, metrics_token=METRICS_TOKEN, **overrides)


def play_over_sockets(
    sockets: dict[str, WebSocketTestSession], actions: int, seed: int = 3
) -> dict[str, Any]:
    """`actions` random legal moves sent by whichever seat decides; both seats see each one
    before the next is sent. The last view."""
    bot = RandomBot(seed)
    views = {role: receive_view(ws) for role, ws in sockets.items()}
    for _ in range(actions):
        mine = next(v for v in views.values() if v["legal_actions"])
        action = bot.choose(mine["state"], mine["legal_actions"])
        send_action(sockets[mine["role"]], action, mine["version"])
        views = {role: view_after(ws, mine["version"]) for role, ws in sockets.items()}
    return views["editor"]


# ---- what a match adds ---------------------------------------------------------------------


def test_a_match_over_sockets_counts_actions_pushes_sockets_and_the_cache(
    metered: Callable[..., TestClient],
) -> None:
    client = metered()
    before = scrape(client)
    assert before.value("watergate_sockets", kind="seat") == 0
    assert before.value("watergate_actions_total", game="watergate") == 0
    match_id, tokens = started(client)
    spectate = client.get(f"/api/matches/{match_id}", headers=bearer(tokens["editor"]))
    watch_path = spectate.json()["spectate_path"].replace("/watch/", "/ws/watch/")
    with ExitStack() as stack:
        seats = {
            role: stack.enter_context(socket(client, match_id, tokens[role])) for role in tokens
        }
        watcher = stack.enter_context(client.websocket_connect(watch_path))
        receive_view(watcher)
        last = play_over_sockets(seats, 12)
        during = scrape(client)
    assert last["version"] == 12
    assert during.value("watergate_actions_total", game="watergate") == 12
    # every action had the other seat's socket here: each one's push was timed, once
    assert during.value("watergate_action_push_seconds_count") == 12
    assert during.value("watergate_action_push_seconds_bucket", le="+Inf") == 12
    assert 0 < during.value("watergate_action_push_seconds_sum") < 12 * DEADLINE
    assert during.value("watergate_sockets", kind="seat") == 2
    assert during.value("watergate_sockets", kind="spectator") == 1
    assert during.value("watergate_active_matches") == 1
    assert during.value("watergate_fanout_lag_seconds_count", via="local") >= 12
    assert during.value("watergate_fanout_lag_seconds_count", via="redis") == 0  # no Redis
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    assert during.value("watergate_cache_bytes") == ctx.cache.weight > 0
    assert during.value("watergate_cache_entries") == len(ctx.cache) >= 1
    assert during.value("watergate_cache_capacity_bytes") == 512 * 1024 * 1024
    assert during.value("process_resident_memory_bytes") > 0  # the process collector is there
    after = eventually(
        client,
        "every socket counted out",
        lambda s: (
            s.value("watergate_sockets", kind="seat") == 0
            and s.value("watergate_sockets", kind="spectator") == 0
        ),
    )
    assert after.value("watergate_active_matches") == 0


def http_move(client: TestClient, match_id: str, tokens: dict[str, str], seed: int) -> int:
    """One random legal move by HTTP, by whichever seat decides; the new version."""
    view = client.get(f"/api/matches/{match_id}", headers=bearer(tokens["editor"])).json()
    role = view["state"]["decision"]["role"]
    if role != "editor":
        view = client.get(f"/api/matches/{match_id}", headers=bearer(tokens[role])).json()
    body = {"action": RandomBot(seed).choose(view["state"], view["legal_actions"])}
    moved = client.post(f"/api/matches/{match_id}/actions", headers=bearer(tokens[role]), json=body)
    assert moved.status_code == 200, moved.text
    return int(moved.json()["version"])


def test_an_http_move_is_timed_to_the_opponent_s_socket_only(
    metered: Callable[..., TestClient],
) -> None:
    """The mover's own push is no news: with only the mover's socket open a move is counted as
    accepted but not timed; once the other seat has a socket here, every move is."""
    client = metered()
    match_id, tokens = started(client)
    view = client.get(f"/api/matches/{match_id}", headers=bearer(tokens["editor"])).json()
    mover = view["state"]["decision"]["role"]
    with socket(client, match_id, tokens[mover]) as ws:
        receive_view(ws)
        view_at(ws, http_move(client, match_id, tokens, 1))
        alone = scrape(client)
    assert alone.value("watergate_actions_total", game="watergate") == 1
    assert alone.value("watergate_action_push_seconds_count") == 0
    with ExitStack() as stack:
        seats = [stack.enter_context(socket(client, match_id, tokens[r])) for r in tokens]
        for ws in seats:
            view_at(ws, 1)
        for seed in (2, 3, 4):
            version = http_move(client, match_id, tokens, seed)
            for ws in seats:
                view_at(ws, version)
        both = scrape(client)
    assert both.value("watergate_actions_total", game="watergate") == 4
    assert both.value("watergate_action_push_seconds_count") == 3


def test_the_computer_s_thinking_is_timed(metered: Callable[..., TestClient]) -> None:
    client = metered()
    made = client.post("/api/matches", json={"role": "nixon", "opponent": "bot"}).json()
    bot, mine = RandomBot(6), 0  # the person's moves
    with socket(client, made["match_id"], made["seat_token"]) as ws:
        view = receive_view(ws)
        while view["version"] == mine:  # until the computer has moved
            if view["legal_actions"]:
                send_action(ws, bot.choose(view["state"], view["legal_actions"]), view["version"])
                mine += 1
            view = view_after(ws, view["version"])
    found = scrape(client)
    assert found.value("watergate_bot_think_seconds_count", kind="heuristic") >= 1
    assert found.value("watergate_actions_total", game="watergate") >= view["version"]


# ---- refusals --------------------------------------------------------------------------------


def test_refused_sockets_are_counted_by_close_code_and_reason(
    metered: Callable[..., TestClient],
) -> None:
    client = metered(max_sockets_per_seat=1, rate_limits="on", rate_limit_socket="4/minute")
    match_id, tokens = started(client)
    with socket(client, match_id, tokens["editor"]) as ed:
        receive_view(ed)
        with socket(client, match_id, tokens["editor"]) as second:
            assert refusal(second) == ("too_many_sockets", 4429)
        with socket(client, match_id, "not-a-seat-token") as stranger:
            assert refusal(stranger) == ("unauthorized", 4401)
        with socket(client, match_id, tokens["nixon"]) as nx:
            receive_view(nx)
        with socket(client, match_id, tokens["nixon"]) as limited:  # the fifth connect
            assert refusal(limited) == ("rate_limited", 4429)
    found = scrape(client)
    assert (
        found.value("watergate_refused_sockets_total", code="4429", reason="too_many_sockets") == 1
    )
    assert found.value("watergate_refused_sockets_total", code="4401", reason="unauthorized") == 1
    assert found.value("watergate_refused_sockets_total", code="4429", reason="rate_limited") == 1
    assert found.value("watergate_rate_limited_total", limit="socket") == 1
    assert found.value("watergate_rate_limited_total", limit="create") == 0


def test_rate_limited_requests_are_counted_by_limit(metered: Callable[..., TestClient]) -> None:
    client = metered(rate_limits="on", rate_limit_create="2/minute")
    answers = [client.post("/api/matches", json={}).status_code for _ in range(4)]
    assert answers == [201, 201, 429, 429]
    found = scrape(client)
    assert found.value("watergate_rate_limited_total", limit="create") == 2
    assert found.value("watergate_rate_limited_total", limit="join") == 0


# ---- who may read them -------------------------------------------------------------------------


@pytest.fixture
def app_at(sqlite_url: str) -> Iterator[Callable[..., TestClient]]:
    """app_at(client address, **settings) -> a started app whose requests come from there."""
    clients: list[TestClient] = []

    def make(address: str, **overrides: object) -> TestClient:
        client = TestClient(create_app(make_settings(sqlite_url, **overrides)), client=(address, 5))
        clients.append(client.__enter__())
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


@pytest.mark.parametrize("address", ["127.0.0.1", "::1"])
def test_without_a_token_metrics_are_served_to_this_machine_only(
    app_at: Callable[..., TestClient], address: str
) -> None:
    local = app_at(address)
    assert local.get("/metrics").status_code == 200
    assert "watergate_actions_total" in local.get("/metrics").text
    # through a proxy on this machine the request came from elsewhere
    for header in ("X-Forwarded-For", "Forwarded", "X-Real-IP"):
        relayed = local.get("/metrics", headers={header: "203.0.113.9"})
        assert relayed.status_code == 401, header
        assert relayed.json()["code"] == "unauthorized"
    for elsewhere in ("203.0.113.9", "10.0.0.2", "2001:db8::1", "testclient"):
        response = app_at(elsewhere).get("/metrics")
        assert response.status_code == 401, elsewhere
        assert "METRICS_TOKEN" in response.json()["message"]


def test_with_a_token_metrics_need_it_from_anywhere(app_at: Callable[..., TestClient]) -> None:
    for address in ("127.0.0.1", "203.0.113.9"):
        client = app_at(address, metrics_token=METRICS_TOKEN)
        assert client.get("/metrics").status_code == 401
        for wrong in ("wrong-" + METRICS_TOKEN, ADMIN_TOKEN, METRICS_TOKEN[:-1]):
            assert client.get("/metrics", headers=bearer(wrong)).status_code == 401
        assert client.get("/metrics", headers=bearer(METRICS_TOKEN)).status_code == 200


def test_wrong_metrics_tokens_count_against_the_sign_in_limit(
    app_at: Callable[..., TestClient],
) -> None:
    client = app_at(
        "203.0.113.9",
        metrics_token=METRICS_TOKEN,
        rate_limits="on",
        rate_limit_admin_login="3/minute",
    )
    answers = [client.get("/metrics", headers=bearer(f"guess-{n}")).status_code for n in range(5)]
    assert answers == [401, 401, 401, 429, 429]


def test_metrics_are_not_in_the_api_schema(app_at: Callable[..., TestClient]) -> None:
    """The schema is the JSON API that the fuzz tests call; /metrics is text for scrapers."""
    schema = app_at("127.0.0.1").get("/openapi.json").json()
    assert "/metrics" not in schema["paths"]


# ---- labels ------------------------------------------------------------------------------------

ALLOWED_LABELS = {
    "kind": {"seat", "spectator", "heuristic"},
    "game": {"watergate"},
    "limit": {"create", "join", "admin_login", "socket"},
    "via": {"local", "redis"},
    "code": {"4401", "4403", "4404", "4408", "4429", "4503"},
    "reason": {
        "unauthorized", "wrong_match", "wrong_key", "not_found", "auth_timeout",
        "too_many_sockets", "rate_limited", "unavailable",
    },
    "outcome": set(NOTICE_OUTCOMES),  # turn notices' deliveries: a fixed set of words
    "cache": {  # the bounded caches' names (app/bounded.py)
        "matches", "replays", "chat_history", "chat_said", "chat_seats", "chat_addresses",
        "chat_writers", "turn_notices", "turn_lines",
    },
}  # fmt: skip


def test_no_label_names_a_match_a_client_or_a_secret(metered: Callable[..., TestClient]) -> None:
    client = metered(rate_limits="on")
    made = client.post("/api/matches", json={"role": "editor", "opponent": "human"}).json()
    code = made["invite_url"].rsplit("/invite/", 1)[1]
    claimed = client.post(f"/api/invites/{code}/claim").json()
    match_id = made["match_id"]
    tokens = {"editor": made["seat_token"], "nixon": claimed["seat_token"]}
    watch = client.get(f"/api/matches/{match_id}", headers=bearer(tokens["editor"])).json()
    key = watch["spectate_path"].rsplit("key=", 1)[1]
    with ExitStack() as stack:
        seats = {
            role: stack.enter_context(socket(client, match_id, tokens[role])) for role in tokens
        }
        watcher = stack.enter_context(client.websocket_connect(f"/ws/watch/{match_id}?key={key}"))
        receive_view(watcher)
        play_over_sockets(seats, 6)
        with client.websocket_connect(f"/ws/watch/{match_id}?key=wrong-{key}") as wrong:
            assert refusal(wrong) == ("wrong_key", 4403)
        with socket(client, match_id, tokens["editor"] + "x") as forged:
            assert refusal(forged) == ("unauthorized", 4401)
    found = scrape(client)
    secrets = {
        "match id": match_id, "invite code": code, "spectator key": key,
        "metrics token": METRICS_TOKEN, "admin token": ADMIN_TOKEN,
        **{f"{role} seat token": token for role, token in tokens.items()},
    }  # fmt: skip
    assert [name for name, secret in secrets.items() if secret in found.text] == []
    assert "testclient" not in found.text  # the client's address
    for label, values in found.labels().items():
        assert label in ALLOWED_LABELS, label
        assert values <= ALLOWED_LABELS[label], (label, values - ALLOWED_LABELS[label])


# ---- across processes --------------------------------------------------------------------------


def test_a_move_pushed_by_another_process_is_timed_there_with_the_redis_lag(
    any_db_url: str, redis_url: str, make_client: MakeClient
) -> None:
    """Each app keeps its own registry in one test process: the one that accepted the move
    counts it, the one holding the opponent's socket times its push and the Redis hop."""
    a = make_client(any_db_url, redis_url=redis_url, metrics_token=METRICS_TOKEN)
    b = make_client(any_db_url, redis_url=redis_url, metrics_token=METRICS_TOKEN)
    match_id, tokens = started(a)
    eventually(b, "b subscribed", lambda _: b.get("/readyz").status_code == 200)
    with socket(b, match_id, tokens["nixon"]) as nx:
        receive_view(nx)
        view = a.get(f"/api/matches/{match_id}", headers=bearer(tokens["editor"])).json()
        action = RandomBot(4).choose(view["state"], view["legal_actions"])
        moved = a.post(
            f"/api/matches/{match_id}/actions",
            headers=bearer(tokens["editor"]),
            json={"action": action},
        )
        assert moved.status_code == 200, moved.text
        view_at(nx, 1)
        on_a, on_b = scrape(a), scrape(b)
    assert on_a.value("watergate_actions_total", game="watergate") == 1
    assert on_b.value("watergate_actions_total", game="watergate") == 0
    assert on_a.value("watergate_action_push_seconds_count") == 0  # no socket of Nixon's on a
    assert on_b.value("watergate_action_push_seconds_count") == 1
    assert on_b.value("watergate_fanout_lag_seconds_count", via="redis") >= 1
    assert on_b.value("watergate_sockets", kind="seat") == 1
    assert on_a.value("watergate_sockets", kind="seat") == 0


# ---- the event loop ----------------------------------------------------------------------------


def test_the_event_loop_probe_runs_in_the_app(metered: Callable[..., TestClient]) -> None:
    client = metered()
    found = eventually(
        client, "a probe", lambda s: s.value("watergate_event_loop_lag_seconds_count") >= 1
    )
    assert found.value("watergate_event_loop_lag_seconds_sum") >= 0


def test_the_probe_sees_how_long_the_loop_was_blocked() -> None:
    async def run() -> Metrics:
        metrics, stop = Metrics(), asyncio.Event()
        task = asyncio.create_task(probe_loop(metrics, stop, every=0.02))
        await _until(lambda: metrics.last_lag is not None)  # its timer is set
        time.sleep(0.3)  # the stimulus: a blocking call on the loop, as a bug would make
        await _until(lambda: max(metrics.recent_lag.values()) >= 0.25)
        stop.set()
        await task
        return metrics

    metrics = asyncio.run(run())
    assert metrics.loop_lag.collect()[0].samples  # observed into the histogram too
    assert 0.25 <= max(metrics.recent_lag.values()) < 0.3 + DEADLINE


async def _until(holds: Callable[[], bool]) -> None:
    deadline = time.monotonic() + DEADLINE
    while not holds():
        assert time.monotonic() < deadline, "not within the deadline"
        await asyncio.sleep(0.005)


def test_quantiles_are_nearest_rank() -> None:
    samples = [float(n) for n in range(1, 101)]  # 1..100
    assert quantile(samples, 0.5) == 50.0
    assert quantile(samples, 0.99) == 99.0
    assert quantile(samples, 1.0) == 100.0
    assert quantile([7.0], 0.99) == 7.0
    assert quantile([], 0.5) is None


def test_every_app_has_its_own_registry() -> None:
    """Two sets of metrics in one process: the library's global registry would refuse it."""
    first, second = Metrics(), Metrics()
    first.accepted("watergate")
    assert b'watergate_actions_total{game="watergate"} 1.0' in first.exposition()
    assert b'watergate_actions_total{game="watergate"}' not in second.exposition()
    assert re.search(rb"^watergate_sockets\{kind=\"seat\"\} 0\.0$", second.exposition(), re.M)


def test_the_recent_windows_forget_what_is_older_than_they_are() -> None:
    actions, pushes = Tally(60.0), Recent(300.0, most=3)
    for at in (1000.0, 1000.5, 1001.2, 1059.9):
        actions.add(at)
    assert actions.total(1060.5) == 4
    assert actions.total(1061.5) == 2  # the first second's two are over a minute old
    assert actions.total(2000.0) == 0
    for at, value in ((1000.0, 0.1), (1100.0, 0.2), (1200.0, 0.3), (1250.0, 0.4)):
        pushes.add(value, at)
    assert pushes.values(1260.0) == [0.2, 0.3, 0.4]  # at most three kept: the newest
    assert pushes.values(1450.0) == [0.3, 0.4]  # and none older than 300 s
