"""The one bounded, least-recently-used map the app keeps things in memory with (issue 44: six
hand-written ones before), and the registry of an app's caches: their Prometheus series, read
at scrape time, and `forget_match`, which drops a deleted match from every cache that holds
anything of it.

A cache is bounded by its number of entries, by the sum of its entries' weights, or both; the
newest entry always stays (a single entry over the budget is still worth keeping: it is the one
in use). No entry expires by age: no cache needs it (the rate limiters keep their times in
their values and judge them at each use)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

from prometheus_client import CollectorRegistry
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric

K = TypeVar("K")
V = TypeVar("V")


def itself(key: str) -> str:
    """`match_of` for a cache keyed by the match id itself."""
    return key


class BoundedCache(Generic[K, V]):
    """At most `most` entries and at most `budget` of `weigh`'s weight (None: no such bound);
    the least recently used go first. `get` makes an entry the most recently used, `peek` does
    not (a rate limiter's entry is fresh when written, not when read); both count a hit or a
    miss. `match_of` says which match a key is about (None: about no match), for
    `forget_match`; `on_evict(key, value)` is told of each entry dropped over a bound (under
    the cache's lock: it must not use the cache). Safe to use from many threads; a caller's
    check-then-put stays its own affair (under its own lock where it matters)."""

    def __init__(
        self,
        name: str,
        most: int | None = None,
        *,
        budget: int | None = None,
        weigh: Callable[[V], int] | None = None,
        match_of: Callable[[K], str | None] | None = None,
        on_evict: Callable[[K, V], None] | None = None,
        caches: Caches | None = None,
    ) -> None:
        if most is None and budget is None:
            raise ValueError("a bounded cache needs a bound")
        if (budget is None) != (weigh is None):
            raise ValueError("a weight budget goes with a weigh function")
        self.name, self.most, self.budget = name, most, budget
        self._weigh, self._match_of, self._on_evict = weigh, match_of, on_evict
        self._data: OrderedDict[K, V] = OrderedDict()
        self._weights: dict[K, int] = {}  # as weighed when put (a value may grow in place)
        self._lock = threading.Lock()
        self.weight = 0
        self.hits = self.misses = self.evictions = 0
        if caches is not None:
            caches.add(self)
            if match_of is not None:
                caches.on_match_deleted(self.forget_match)

    def get(self, key: K) -> V | None:
        """The entry, now the most recently used."""
        return self._look(key, touch=True)

    def peek(self, key: K) -> V | None:
        """The entry, its place in the order unchanged."""
        return self._look(key, touch=False)

    def _look(self, key: K, *, touch: bool) -> V | None:
        with self._lock:
            found = self._data.get(key)
            if found is None:
                self.misses += 1
            else:
                self.hits += 1
                if touch:
                    self._data.move_to_end(key)
            return found

    def touch(self, key: K) -> None:
        """Make the entry, if there, the most recently used (no lookup to count: the caller
        looked already)."""
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)

    def put(self, key: K, value: V) -> None:
        """Keep the value as the most recently used (weighed again when already there), then
        drop the least recently used beyond the bounds."""
        with self._lock:
            self.weight -= self._weights.pop(key, 0)
            self._data[key] = value
            self._data.move_to_end(key)
            if self._weigh is not None:
                weight = self._weights[key] = self._weigh(value)
                self.weight += weight
            while len(self._data) > 1 and self._over():
                old, dropped = self._data.popitem(last=False)
                self.weight -= self._weights.pop(old, 0)
                self.evictions += 1
                if self._on_evict is not None:
                    self._on_evict(old, dropped)

    def _over(self) -> bool:
        return (self.most is not None and len(self._data) > self.most) or (
            self.budget is not None and self.weight > self.budget
        )

    def pop(self, key: K) -> V | None:
        """Remove the entry (not an eviction); what it was."""
        with self._lock:
            self.weight -= self._weights.pop(key, 0)
            return self._data.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self._weights.clear()
            self.weight = 0

    def forget_match(self, match_id: str) -> None:
        """Remove every entry about the match (a deletion: rare, so a scan of the keys is
        fine unless the keys are the match ids themselves)."""
        if self._match_of is None:
            return
        if self._match_of is itself:
            self.pop(match_id)  # type: ignore[arg-type]  # K is str for such a cache
            return
        with self._lock:
            gone = [key for key in self._data if self._match_of(key) == match_id]
            for key in gone:
                del self._data[key]
                self.weight -= self._weights.pop(key, 0)

    def __len__(self) -> int:
        return len(self._data)

    def order(self) -> list[K]:
        """The keys, least recently used first."""
        with self._lock:
            return list(self._data)


class Caches:
    """An app's bounded caches: their series in the app's Prometheus registry (read at scrape
    time from the caches' own counts), and `forget_match`, the one call a deletion makes (the
    fan-out's, in every process) to leave all of them. Names are a small fixed set, so they
    make fine label values."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self._caches: dict[str, BoundedCache[Any, Any]] = {}
        self._forgetters: list[Callable[[str], None]] = []
        if registry is not None:
            registry.register(self)

    def add(self, cache: BoundedCache[K, V]) -> None:
        if cache.name in self._caches:
            raise ValueError(f"a cache named {cache.name!r} is registered already")
        self._caches[cache.name] = cache

    def on_match_deleted(self, forget: Callable[[str], None]) -> None:
        """`forget(match_id)` runs whenever a match is deleted."""
        self._forgetters.append(forget)

    def forget_match(self, match_id: str) -> None:
        """The match is deleted: no cache of this process answers for it any more."""
        for forget in self._forgetters:
            forget(match_id)

    def __getitem__(self, name: str) -> BoundedCache[Any, Any]:
        return self._caches[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._caches)

    def collect(self) -> Iterator[Metric]:
        """The series of every cache (the registry calls this at each scrape)."""
        counted = [
            (CounterMetricFamily(f"watergate_lru_{what}", doc, labels=["cache"]), what)
            for what, doc in (
                ("hits", "Bounded cache lookups found"),
                ("misses", "Bounded cache lookups not found"),
                ("evictions", "Entries dropped over a bounded cache's bound"),
            )
        ]
        entries = GaugeMetricFamily(
            "watergate_lru_entries", "Entries in a bounded cache", labels=["cache"]
        )
        weight = GaugeMetricFamily(
            "watergate_lru_weight",
            "A weighed bounded cache's weight (its own unit: bytes, characters)",
            labels=["cache"],
        )
        for name, cache in self._caches.items():
            for family, what in counted:
                family.add_metric([name], getattr(cache, what))
            entries.add_metric([name], len(cache))
            if cache.budget is not None:
                weight.add_metric([name], cache.weight)
        yield from (*(family for family, _ in counted), entries, weight)
