"""The server's worker processes (the computer's thinking, analyses): spawned, not forked (the
server has threads and an event loop a fork would copy), logging as the server does, and ending
themselves once their server is gone. A server killed outright (SIGKILL, an out-of-memory kill)
runs no shutdown code, and a pool's idle workers would otherwise wait for work forever, orphaned
(issue 40: a clean-clone CI run left 17 of them alive an hour later)."""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

from . import logs

PARENT_WATCH_S = 1.0  # how often a worker looks whether its server is still there


def worker_pool(processes: int, json_logs: bool) -> ProcessPoolExecutor:
    """A pool of `processes` workers of this server."""
    return ProcessPoolExecutor(
        processes,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_worker_start,
        initargs=(logging.INFO, json_logs, os.getpid()),
    )


def _worker_start(level: int, json_logs: bool, server: int) -> None:
    logs.configure(level, json_logs)
    threading.Thread(target=_end_with, args=(server,), name="server-watch", daemon=True).start()


def _end_with(server: int) -> None:
    while os.getppid() == server:  # re-parented (to init or a subreaper) once the server died
        time.sleep(PARENT_WATCH_S)
    os._exit(0)
