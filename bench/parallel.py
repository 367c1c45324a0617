"""Runs a bench program's independent jobs (whole games) in worker processes, or in this one."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

J = TypeVar("J")
R = TypeVar("R")


def run_jobs(work: Callable[[J], R], jobs: Sequence[J], workers: int, chunk: int = 4) -> list[R]:
    """`work` of every job, in order: in `workers` processes when more than one (chunks of
    `chunk` jobs a hand-out), else here, so a profiler or a debugger sees the work."""
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            return list(pool.map(work, jobs, chunksize=chunk))
    return [work(j) for j in jobs]
