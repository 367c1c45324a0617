"""This process's operating metrics: Prometheus series in a registry of the app's own, a short
window of recent samples for the admin's health panel, and the event-loop lag probe."""

from __future__ import annotations

import asyncio
import functools
import math
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from prometheus_client import (
    CONTENT_TYPE_PLAIN_0_0_4,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)

from .bounded import Caches

# The text format every Prometheus version reads (the library's newest one is 1.0.0).
CONTENT_TYPE = CONTENT_TYPE_PLAIN_0_0_4
SOCKET_KINDS = ("seat", "spectator")  # the only sockets there are (admins use HTTP)
LIMITS = ("create", "join", "admin_login", "socket")  # app/http/ratelimit.py's buckets
# how a turn notice's delivery to one browser ended (app/services/turns.py)
NOTICE_OUTCOMES = (
    "sent", "gone", "refused", "blocked", "timeout", "unreachable", "rejected", "failed",
    "error", "dropped",
)  # fmt: skip
# Latencies from a millisecond (a push on an idle loop) to seconds (an overloaded process); the
# contract's target is a p99 within 3x the bare websocket echo, a few tens of milliseconds here.
PUSH_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
LAG_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
# The search bot thinks up to BOT_BUDGET_MS (400 by default); the others take milliseconds.
BOT_BUCKETS = (0.001, 0.005, 0.025, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5)
LOOP_PROBE_SECONDS = 0.5  # how often the event-loop timer is set: cheap, and often enough to see
# a stall of a few hundred milliseconds
ACTIONS_WINDOW_S = 60.0  # "actions in the last minute"
RECENT_WINDOW_S = 300.0  # the panel's p50/p99 and worst loop lag are over the last 5 minutes
RECENT_MOST = 20_000  # samples kept per window at most (a busy process keeps the newest)


class Tally:
    """How many events in the last `seconds`, counted per whole second, so a busy process keeps
    one number a second rather than one a event. Used on the event loop only."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._per_second: deque[list[int]] = deque()  # [second, count], oldest first

    def add(self, now: float | None = None) -> None:
        second = int(time.monotonic() if now is None else now)
        if self._per_second and self._per_second[-1][0] == second:
            self._per_second[-1][1] += 1
        else:
            self._per_second.append([second, 1])

    def total(self, now: float | None = None) -> int:
        since = (time.monotonic() if now is None else now) - self.seconds
        while self._per_second and self._per_second[0][0] + 1 <= since:  # wholly older
            self._per_second.popleft()
        return sum(count for _, count in self._per_second)


class Recent:
    """Samples of the last `seconds`, newest last, at most `most` of them. Used on the event
    loop only."""

    def __init__(self, seconds: float, most: int = RECENT_MOST) -> None:
        self.seconds = seconds
        self._samples: deque[tuple[float, float]] = deque(maxlen=most)

    def add(self, value: float, now: float | None = None) -> None:
        self._samples.append((time.monotonic() if now is None else now, value))

    def values(self, now: float | None = None) -> list[float]:
        since = (time.monotonic() if now is None else now) - self.seconds
        while self._samples and self._samples[0][0] < since:
            self._samples.popleft()
        return [value for _, value in self._samples]


def quantile(values: Iterable[float], q: float) -> float | None:
    """The nearest-rank q-quantile (0 < q <= 1), or None without samples."""
    ordered = sorted(values)
    if not ordered:
        return None
    return ordered[max(0, min(len(ordered), math.ceil(q * len(ordered))) - 1)]


def _counts(counter: Counter, *labels: str) -> dict[str, int]:
    """A labelled counter's totals, keyed by its label values joined with a space."""
    found: dict[str, int] = {}
    for family in counter.collect():
        for sample in family.samples:
            if sample.name.endswith("_total"):
                found[" ".join(sample.labels[name] for name in labels)] = int(sample.value)
    return found


@dataclass
class Metrics:
    """Every series of one app, in its own registry: tests make many apps in one process, and
    the library's global registry refuses a second metric of the same name. Label values come
    from small fixed sets (socket kinds, game ids, limit names, close codes and error codes,
    bot kinds): never a match id, a client address or anything secret."""

    registry: CollectorRegistry = field(
        default_factory=lambda: CollectorRegistry(auto_describe=True)
    )
    recent_actions: Tally = field(default_factory=lambda: Tally(ACTIONS_WINDOW_S))
    recent_push: Recent = field(default_factory=lambda: Recent(RECENT_WINDOW_S))
    recent_lag: Recent = field(default_factory=lambda: Recent(RECENT_WINDOW_S))
    last_lag: float | None = None

    def __post_init__(self) -> None:
        r = self.registry
        ProcessCollector(registry=r)  # CPU, memory, open files of this process
        PlatformCollector(registry=r)
        # the app's bounded caches: their series, and forgetting a deleted match in all of them
        self.caches = Caches(r)
        self.matches = Gauge(
            "watergate_active_matches", "Matches with a live socket on this process", registry=r
        )
        self.sockets = Gauge(
            "watergate_sockets", "Live websockets on this process", ["kind"], registry=r
        )
        self.actions = Counter(
            "watergate_actions", "Actions accepted by this process", ["game"], registry=r
        )
        self.push_seconds = Histogram(
            "watergate_action_push_seconds",
            "From an action's arrival on a server to its frames being handed to the opponent's "
            "sockets on this process",
            buckets=PUSH_BUCKETS,
            registry=r,
        )
        self.rate_limited = Counter(
            "watergate_rate_limited", "Requests and sockets refused over a rate limit", ["limit"],
            registry=r,
        )  # fmt: skip
        self.refused_sockets = Counter(
            "watergate_refused_sockets", "Websockets closed before they were served",
            ["code", "reason"], registry=r,
        )  # fmt: skip
        self.fanout_lag = Histogram(
            "watergate_fanout_lag_seconds",
            "redis: from another process's publish to its receipt here; local: from a change's "
            "delivery to its room starting to render",
            ["via"],
            buckets=LAG_BUCKETS,
            registry=r,
        )
        self.bot_think = Histogram(
            "watergate_bot_think_seconds", "The computer's time to choose a move", ["kind"],
            buckets=BOT_BUCKETS, registry=r,
        )  # fmt: skip
        self.cache_bytes = Gauge(
            "watergate_cache_bytes", "Estimated bytes of the match cache", registry=r
        )
        self.cache_capacity = Gauge(
            "watergate_cache_capacity_bytes", "The match cache's budget (CACHE_MB)", registry=r
        )
        self.cache_entries = Gauge(
            "watergate_cache_entries", "Matches held in the match cache", registry=r
        )
        self.loop_lag = Histogram(
            "watergate_event_loop_lag_seconds",
            f"How late a {LOOP_PROBE_SECONDS} s timer of the event loop fires",
            buckets=LAG_BUCKETS,
            registry=r,
        )
        self.turn_notices = Counter(
            "watergate_turn_notices",
            "Turn notices by how their delivery to one browser ended (sent, gone, refused, "
            "blocked, timeout, unreachable, rejected, failed, error, dropped)",
            ["outcome"],
            registry=r,
        )
        # every series exists from the start, at zero: a rate over a missing series is no data
        for kind in SOCKET_KINDS:
            self.sockets.labels(kind=kind)
        for limit in LIMITS:
            self.rate_limited.labels(limit=limit)
        for via in ("local", "redis"):
            self.fanout_lag.labels(via=via)
        for outcome in NOTICE_OUTCOMES:
            self.turn_notices.labels(outcome=outcome)

    def watch(
        self,
        matches: Callable[[], int],
        sockets: Callable[[str], int],
        cache_bytes: Callable[[], int],
        cache_entries: Callable[[], int],
        cache_capacity: int,
    ) -> None:
        """The gauges read at scrape time from what the process holds, so nothing keeps a count
        that could drift from the truth."""
        self.matches.set_function(matches)
        for kind in SOCKET_KINDS:
            self.sockets.labels(kind=kind).set_function(functools.partial(sockets, kind))
        self.cache_bytes.set_function(cache_bytes)
        self.cache_entries.set_function(cache_entries)
        self.cache_capacity.set(cache_capacity)

    def accepted(self, game: str) -> None:
        self.actions.labels(game=game).inc()
        self.recent_actions.add()

    def pushed(self, seconds: float) -> None:
        seconds = max(0.0, seconds)  # wall clocks of two processes may disagree a little
        self.push_seconds.observe(seconds)
        self.recent_push.add(seconds)

    def limited(self, limit: str) -> None:
        self.rate_limited.labels(limit=limit).inc()

    def refused(self, code: int, reason: str) -> None:
        self.refused_sockets.labels(code=str(code), reason=reason).inc()

    def fanned_out(self, via: str, seconds: float) -> None:
        self.fanout_lag.labels(via=via).observe(max(0.0, seconds))

    def thought(self, kind: str, seconds: float) -> None:
        self.bot_think.labels(kind=kind).observe(seconds)

    def lagged(self, seconds: float) -> None:
        self.loop_lag.observe(seconds)
        self.recent_lag.add(seconds)
        self.last_lag = seconds

    def noticed(self, outcome: str) -> None:
        self.turn_notices.labels(outcome=outcome).inc()

    def exposition(self) -> bytes:
        """The registry in Prometheus's text format."""
        return generate_latest(self.registry)

    def rate_limited_counts(self) -> dict[str, int]:
        return _counts(self.rate_limited, "limit")

    def notice_counts(self) -> dict[str, int]:
        """Turn notices by outcome, e.g. {"sent": 3, "timeout": 1, ...}."""
        return _counts(self.turn_notices, "outcome")

    def refused_counts(self) -> dict[str, int]:
        """Refused sockets by "code reason", e.g. "4429 too_many_sockets"."""
        return _counts(self.refused_sockets, "code", "reason")


async def probe_loop(
    metrics: Metrics, stop: asyncio.Event, every: float = LOOP_PROBE_SECONDS
) -> None:
    """Set a timer, note how late it fired, again until `stop`: a loop busy with other work (a
    long render, a collection, a blocking call) runs timers late, and this says by how much."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        due = loop.time() + every
        try:
            await asyncio.wait_for(stop.wait(), every)
            return
        except TimeoutError:
            pass
        metrics.lagged(max(0.0, loop.time() - due))
