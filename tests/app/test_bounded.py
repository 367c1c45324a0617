"""The bounded cache (issue 44): its bounds, its least-recently-used order, what it counts for
Prometheus, and the registry's `forget_match`, which a deleted match reaches every cache by."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from prometheus_client import CollectorRegistry, generate_latest

from app.bounded import BoundedCache, Caches, itself
from app.services.chat_safety import guest_match

from .test_chat import duel, next_chat, say
from .test_lifecycle import bearer, seat_socket
from .test_persistence import ADMIN


def test_the_least_recently_used_go_first_beyond_the_count() -> None:
    kept: BoundedCache[str, int] = BoundedCache("t", 3)
    for key, value in (("a", 1), ("b", 2), ("c", 3)):
        kept.put(key, value)
    assert kept.get("a") == 1  # a is the most recently used now
    assert kept.peek("b") == 2  # a peek leaves b the least recently used
    kept.put("d", 4)
    assert kept.order() == ["c", "a", "d"] and kept.peek("b") is None
    kept.put("c", 30)  # put again: the newest, and its value replaced
    kept.put("e", 5)
    assert kept.order() == ["d", "c", "e"] and kept.get("c") == 30
    assert (kept.evictions, len(kept)) == (2, 3)


def test_a_weight_budget_drops_the_oldest_but_keeps_the_newest() -> None:
    dropped: list[tuple[str, str]] = []
    kept: BoundedCache[str, str] = BoundedCache(
        "t", budget=10, weigh=len, on_evict=lambda k, v: dropped.append((k, v))
    )
    kept.put("a", "xxxx")
    kept.put("b", "yyyy")
    assert kept.weight == 8
    kept.put("a", "xxxxxx")  # weighed again: 6 + 4, and a is the newest
    assert (kept.weight, kept.order()) == (10, ["b", "a"])
    kept.put("c", "z" * 25)  # alone over the budget: it stays, everything older goes
    assert (kept.order(), kept.weight) == (["c"], 25)
    assert dropped == [("b", "yyyy"), ("a", "xxxxxx")] and kept.evictions == 2
    assert kept.pop("c") == "z" * 25 and kept.weight == 0 and kept.evictions == 2
    kept.put("d", "w")
    kept.clear()
    assert (len(kept), kept.weight, kept.pop("d")) == (0, 0, None)


def test_a_cache_needs_a_bound_and_a_registry_one_name_each() -> None:
    with pytest.raises(ValueError):
        BoundedCache[str, int]("t")
    with pytest.raises(ValueError):
        BoundedCache[str, int]("t", budget=5)  # a budget without a weight
    caches = Caches()
    BoundedCache[str, int]("t", 1, caches=caches)
    with pytest.raises(ValueError):
        BoundedCache[str, int]("t", 1, caches=caches)


def test_forget_match_drops_every_entry_about_the_match_and_only_those() -> None:
    caches = Caches()
    by_id: BoundedCache[str, int] = BoundedCache("id", 10, match_of=itself, caches=caches)
    by_seat: BoundedCache[tuple[str, str], int] = BoundedCache(
        "seat", 10, match_of=lambda key: key[0], caches=caches
    )
    writers: BoundedCache[str, int] = BoundedCache(
        "writer", 10, match_of=guest_match, caches=caches
    )
    other: BoundedCache[str, int] = BoundedCache("other", 10, caches=caches)  # about no match
    by_id.put("m1", 1), by_id.put("m2", 2)
    by_seat.put(("m1", "editor"), 1), by_seat.put(("m1", "nixon"), 2), by_seat.put(("m2", "x"), 3)
    writers.put("m1/editor", 1), writers.put("m1", 2), writers.put("m2/nixon", 3)
    other.put("m1", 1)
    forgotten: list[str] = []
    caches.on_match_deleted(forgotten.append)
    caches.forget_match("m1")
    assert by_id.order() == ["m2"] and by_seat.order() == [("m2", "x")]
    assert writers.order() == ["m1", "m2/nixon"]  # "m1" there is a player, writing anywhere
    assert other.order() == ["m1"] and forgotten == ["m1"]


def sample(text: str, name: str, cache: str) -> float:
    line = f'{name}{{cache="{cache}"}} '
    found = [row for row in text.splitlines() if row.startswith(line)]
    assert len(found) == 1, (name, cache, text)
    return float(found[0][len(line) :])


def test_each_cache_s_counts_are_its_prometheus_series() -> None:
    registry = CollectorRegistry(auto_describe=True)
    caches = Caches(registry)
    small: BoundedCache[str, int] = BoundedCache("small", 2, caches=caches)
    heavy: BoundedCache[str, str] = BoundedCache("heavy", budget=100, weigh=len, caches=caches)
    small.get("a")  # a miss
    small.put("a", 1), small.put("b", 2), small.put("c", 3)  # a goes
    small.get("b"), small.peek("c"), small.peek("a")  # two hits, a miss
    heavy.put("x", "hello")
    text = generate_latest(registry).decode()
    assert sample(text, "watergate_lru_hits_total", "small") == 2
    assert sample(text, "watergate_lru_misses_total", "small") == 2
    assert sample(text, "watergate_lru_evictions_total", "small") == 1
    assert sample(text, "watergate_lru_entries", "small") == 2
    assert sample(text, "watergate_lru_weight", "heavy") == 5
    assert sample(text, "watergate_lru_entries", "heavy") == 1
    assert 'watergate_lru_weight{cache="small"}' not in text  # counted, not weighed


# ---- a deleted match, through the app ---------------------------------------------------------

# the caches keyed by a match (or a match's seat): a deleted match must leave all of them
ABOUT_MATCHES = {
    "matches", "replays", "chat_history", "chat_said", "chat_seats", "chat_writers",
    "turn_notices", "turn_lines",
}  # fmt: skip


def test_a_deleted_match_is_forgotten_by_every_cache(
    any_db_url: str, make_client: Callable[..., TestClient]
) -> None:
    client = make_client(any_db_url)
    caches: Caches = client.app.state.ctx.metrics.caches  # type: ignore[attr-defined]
    match_id, tokens = duel(client, None, None)  # two guests: their seats are the writers
    with (
        seat_socket(client, match_id, tokens["editor"]) as ed,
        seat_socket(client, match_id, tokens["nixon"]) as nx,
    ):
        say(ed, "hello")
        assert next_chat(nx)["text"] == "hello"
    resigned = client.post(f"/api/matches/{match_id}/resign", headers=bearer(tokens["editor"]))
    assert resigned.status_code == 200
    assert client.get(f"/api/replays/{match_id}").status_code == 200
    # the turn watches are filled by listeners running after a move; the test does not wait
    # for them but fills them itself
    for name in ("turn_notices", "turn_lines"):
        caches[name].put(match_id, "editor")

    def holding() -> set[str]:
        return {name for name in caches if any(match_id in repr(k) for k in caches[name].order())}

    assert holding() == ABOUT_MATCHES  # every one answers for the match now
    gone = client.delete(f"/api/admin/matches/{match_id}", headers=ADMIN)
    assert gone.status_code == 200
    assert holding() == set()
    assert client.get(f"/api/replays/{match_id}").status_code == 404
