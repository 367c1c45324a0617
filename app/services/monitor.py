"""Use case: this process's health at a glance for the admin (readiness, sockets, matches, recent
actions and push latency, event-loop lag, cache, refusals), from the same numbers as /metrics."""

from __future__ import annotations

from dataclasses import dataclass

from ..metrics import quantile
from .core import Core
from .health import Readiness, readiness


@dataclass(frozen=True, slots=True)
class Latency:
    """Recent samples (the last `window_seconds`) in milliseconds; None without samples."""

    window_seconds: float
    count: int
    p50_ms: float | None
    p99_ms: float | None


@dataclass(frozen=True, slots=True)
class LoopLag:
    last_ms: float | None  # the newest probe
    max_ms: float | None  # the worst probe of the last `window_seconds`
    window_seconds: float


@dataclass(frozen=True, slots=True)
class CacheUse:
    bytes: int
    capacity_bytes: int
    entries: int


@dataclass(frozen=True, slots=True)
class Sockets:
    seat: int
    spectator: int


@dataclass(frozen=True, slots=True)
class HealthReport:
    """One process's health: the one that answered (each process counts its own)."""

    ready: Readiness
    problem: str | None
    sockets: Sockets
    active_matches: int
    actions_last_minute: int
    push_latency: Latency
    loop_lag: LoopLag
    cache: CacheUse
    rate_limited: dict[str, int]  # by limit name
    refused_sockets: dict[str, int]  # by "close-code reason", e.g. "4429 too_many_sockets"


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 2)


class Monitor:
    def __init__(self, core: Core) -> None:
        self.core = core

    async def health(self) -> HealthReport:
        core, metrics = self.core, self.core.metrics
        hub = core.fanout.hub
        ready = await readiness(core.db, core.fanout)
        pushes, lags = metrics.recent_push.values(), metrics.recent_lag.values()
        return HealthReport(
            ready=ready,
            problem=ready.problem(),
            sockets=Sockets(hub.socket_count("seat"), hub.socket_count("spectator")),
            active_matches=hub.match_count(),
            actions_last_minute=metrics.recent_actions.total(),
            push_latency=Latency(
                metrics.recent_push.seconds,
                len(pushes),
                _ms(quantile(pushes, 0.5)),
                _ms(quantile(pushes, 0.99)),
            ),
            loop_lag=LoopLag(
                _ms(metrics.last_lag), _ms(max(lags, default=None)), metrics.recent_lag.seconds
            ),
            cache=CacheUse(core.cache.weight, core.cache.capacity, len(core.cache)),
            rate_limited=metrics.rate_limited_counts(),
            refused_sockets=metrics.refused_counts(),
        )
