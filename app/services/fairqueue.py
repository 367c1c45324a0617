"""The order in which the one analysis worker takes its jobs (issue 40: one address finishing
matches quickly kept it busy for everyone). Jobs someone asked for come before the ones queued
on their own as matches finish; among those asked for, the askers take turns (one job each in
rotation), each asker's newest request first, and an asker has at most a few waiting. Plain
data, no I/O: the service awaits, this decides."""

from __future__ import annotations

from collections import OrderedDict, deque
from typing import Final

PER_ASKER: Final = 4  # requests one asker may have waiting
UNASKED_MAX: Final = 64  # finished matches queued on their own; beyond, the oldest are dropped


class AskerFull(Exception):
    """The asker already has PER_ASKER requests waiting."""


class FairQueue:
    def __init__(self, per_asker: int = PER_ASKER, unasked_max: int = UNASKED_MAX) -> None:
        self.per_asker = per_asker
        self._asked: OrderedDict[str, list[str]] = OrderedDict()  # asker -> jobs, newest last
        self._unasked: deque[str] = deque()
        self._unasked_max = unasked_max

    def __contains__(self, job: str) -> bool:
        return job in self._unasked or any(job in jobs for jobs in self._asked.values())

    def __len__(self) -> int:
        return len(self._unasked) + sum(len(jobs) for jobs in self._asked.values())

    def ask(self, asker: str, job: str) -> None:
        """`asker` wants `job` done: it goes ahead of every unasked job (taken out of theirs if
        it was there); raises AskerFull when the asker has enough waiting."""
        if any(job in jobs for jobs in self._asked.values()):
            return  # someone asked already: it is done for all of them
        jobs = self._asked.get(asker, [])
        if len(jobs) >= self.per_asker:
            raise AskerFull
        if job in self._unasked:
            self._unasked.remove(job)
        self._asked[asker] = [*jobs, job]

    def offer(self, job: str) -> None:
        """A job nobody asked for yet (a match just finished): done when nothing asked waits."""
        if job in self:
            return
        self._unasked.append(job)
        while len(self._unasked) > self._unasked_max:
            self._unasked.popleft()

    def take(self) -> str | None:
        """The next job: the next asker's newest request, the askers in turn; else the oldest
        unasked job; None when there is nothing to do."""
        if self._asked:
            asker, jobs = self._asked.popitem(last=False)
            job = jobs.pop()
            if jobs:
                self._asked[asker] = jobs  # to the back of the rotation
            return job
        return self._unasked.popleft() if self._unasked else None
