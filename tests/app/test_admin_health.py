"""The admin's health panel (issue 11): `GET /api/admin/health` tells the answering process's
readiness (database, Redis, the fan-out's subscription), live sockets, active matches, actions of
the last minute, recent action→push latency, event-loop lag, cache use and refusals, the same
numbers /metrics has; the statistics page shows them, in English, Portuguese and German, under
the page's nonce CSP.

Waiting is blocking receives with a deadline, or polling a condition with a deadline."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.http.i18n import LOCALES, locale
from app.http.paths import STATIC

from .conftest import ADMIN_TOKEN
from .test_metrics import METRICS_TOKEN, play_over_sockets, scrape
from .test_ws import socket, started
from .test_ws_auth import refusal

MakeClient = Callable[..., TestClient]
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
DEADLINE = 10.0  # seconds: a guard against a condition that never comes, never a way to wait


def health(client: TestClient) -> dict[str, Any]:
    response = client.get("/api/admin/health", headers=ADMIN)
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_the_panel_counts_this_process_s_sockets_matches_actions_and_pushes(
    sqlite_url: str, make_client: MakeClient
) -> None:
    client = make_client(sqlite_url, metrics_token=METRICS_TOKEN, max_sockets_per_seat=1)
    idle = health(client)
    assert idle["ready"] == {"database": True, "redis": None, "subscribed": None}
    assert idle["problem"] is None
    assert (idle["sockets"], idle["active_matches"]) == ({"seat": 0, "spectator": 0}, 0)
    assert idle["actions_last_minute"] == 0
    assert idle["push_latency"] == {
        "window_seconds": 300.0, "count": 0, "p50_ms": None, "p99_ms": None
    }  # fmt: skip
    match_id, tokens = started(client)
    with ExitStack() as stack:
        seats = {
            role: stack.enter_context(socket(client, match_id, tokens[role])) for role in tokens
        }
        play_over_sockets(seats, 8)
        with socket(client, match_id, tokens["editor"]) as extra:
            assert refusal(extra) == ("too_many_sockets", 4429)
        busy, metrics = health(client), scrape(client)
    assert busy["sockets"] == {"seat": 2, "spectator": 0}
    assert busy["active_matches"] == 1
    assert busy["actions_last_minute"] == 8
    latency = busy["push_latency"]
    assert latency["count"] == 8
    assert 0 <= latency["p50_ms"] <= latency["p99_ms"] < DEADLINE * 1000
    assert busy["refused_sockets"] == {"4429 too_many_sockets": 1}
    assert busy["rate_limited"] == {"create": 0, "join": 0, "admin_login": 0, "socket": 0}
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    assert busy["cache"] == {
        "bytes": ctx.cache.weight, "capacity_bytes": 512 * 1024 * 1024, "entries": len(ctx.cache)
    }  # fmt: skip
    # the same numbers as /metrics
    assert metrics.value("watergate_action_push_seconds_count") == latency["count"]
    assert metrics.value("watergate_sockets", kind="seat") == busy["sockets"]["seat"]
    refused = metrics.value(
        "watergate_refused_sockets_total", code="4429", reason="too_many_sockets"
    )
    assert refused == 1


def test_the_panel_shows_the_event_loop_lag_once_probed(
    sqlite_url: str, make_client: MakeClient
) -> None:
    client = make_client(sqlite_url)
    deadline = time.monotonic() + DEADLINE
    while (lag := health(client)["loop_lag"])["last_ms"] is None:
        assert time.monotonic() < deadline, "no probe of the event loop"
        time.sleep(0.05)
    assert 0 <= lag["last_ms"] <= lag["max_ms"]
    assert lag["window_seconds"] == 300.0


def test_the_panel_counts_rate_limited_answers_by_limit(
    sqlite_url: str, make_client: MakeClient
) -> None:
    client = make_client(sqlite_url, rate_limits="on", rate_limit_create="1/minute")
    assert [client.post("/api/matches", json={}).status_code for _ in range(3)] == [201, 429, 429]
    assert health(client)["rate_limited"]["create"] == 2


def test_the_panel_says_redis_does_not_answer(sqlite_url: str, make_client: MakeClient) -> None:
    client = make_client(sqlite_url, redis_url="redis://127.0.0.1:1/0")  # nothing listens there
    found = health(client)
    assert found["ready"] == {"database": True, "redis": False, "subscribed": False}
    assert found["problem"] == "Redis does not answer."
    assert client.get("/readyz").status_code == 503  # readiness says the same


def test_the_panel_with_redis_reports_it_and_the_subscription(
    sqlite_url: str, redis_url: str, make_client: MakeClient
) -> None:
    client = make_client(sqlite_url, redis_url=redis_url)
    deadline = time.monotonic() + DEADLINE
    while not (found := health(client))["ready"]["subscribed"]:
        assert time.monotonic() < deadline, "the fan-out did not subscribe"
        time.sleep(0.05)
    assert found["ready"] == {"database": True, "redis": True, "subscribed": True}
    assert found["problem"] is None


def test_the_panel_is_for_the_admin_only(client: TestClient) -> None:
    for headers in (
        {},
        {"Authorization": "Bearer wrong"},
        {"Authorization": f"Bearer {METRICS_TOKEN}"},
    ):
        response = client.get("/api/admin/health", headers=headers)
        assert response.status_code == 401 and response.json()["code"] == "unauthorized"


# ---- the page ----------------------------------------------------------------------------------


def strings(lang: str) -> dict[str, Any]:
    found: dict[str, Any] = locale(lang)["admin_health"]
    return found


def test_every_language_has_every_health_string() -> None:
    english = strings("en")
    placeholders = re.compile(r"\{(\w+)\}")
    for lang in LOCALES:
        mine = strings(lang)
        assert mine.keys() == english.keys(), lang
        assert mine["limits"].keys() == english["limits"].keys(), lang
        for key, text in mine.items():
            if isinstance(text, str):
                assert text.strip(), (lang, key)
                # the same placeholders, so the page fills every one in every language
                assert set(placeholders.findall(text)) == set(placeholders.findall(english[key]))
    for lang in ("pt-BR", "de"):  # translated, not copied
        same = [k for k, v in strings(lang).items() if v == english[k] and k not in ("redis", "ms")]
        assert not same, (lang, same)


@pytest.mark.parametrize("lang", LOCALES)
def test_the_stats_page_carries_the_panel_in_its_language_under_the_nonce_csp(
    client: TestClient, lang: str
) -> None:
    page = client.get(f"/admin/stats?lang={lang}", headers=ADMIN)
    assert page.status_code == 200
    assert f'<h2 id="health-title">{strings(lang)["title"]}</h2>'.replace("'", "&#39;") in page.text
    assert 'id="health-table"' in page.text
    csp = page.headers["content-security-policy"]
    [nonce] = re.findall(r"'nonce-([^']+)'", csp)
    scripts = re.findall(r"<script([^>]*)>", page.text)
    assert scripts and all(f'nonce="{nonce}"' in attributes for attributes in scripts)
    assert 'src="/static/js/admin-stats.js"' in page.text
    assert "unsafe-inline" not in csp and " style=" not in page.text
    boot = re.search(r'<script[^>]*id="bootstrap"[^>]*>(.*?)</script>', page.text, re.S)
    assert boot is not None
    assert json.loads(boot[1])["locale"]["admin_health"] == strings(lang)  # what the script reads


def test_the_stats_script_uses_only_strings_the_locales_have() -> None:
    """Every `t("admin_health.…")` of the page's script names a string of every language."""
    script = (STATIC / "js" / "admin-stats.js").read_text(encoding="utf-8")
    used = set(re.findall(r'"admin_health\.(\w+)"', script))
    assert used, "the script names its strings"
    for lang in LOCALES:
        assert used <= strings(lang).keys(), (lang, used - strings(lang).keys())
