"""`python -m app`: migrate the database to head, then serve on HOST:PORT (what `make run` does)."""

from __future__ import annotations

import asyncio
import contextlib
import faulthandler
import gc
import io
import logging
import signal
import socket
import sys
import time
from pathlib import Path
from types import FrameType

import uvicorn
from alembic import command
from alembic.config import Config
from fastapi import FastAPI

from engine.watergate import flow

from . import logs
from .addresses import TrustedPeers
from .config import Settings
from .engine_build import running, stale_copy
from .http.connections import Door, cap_for, open_file_limit
from .main import create_app
from .persistence.db import is_sqlite
from .protocols import HttpProtocol, WebSocketProtocol

ROOT = Path(__file__).resolve().parent.parent
# From SIGTERM: sockets closed and requests finished within this long, or cancelled; then the
# lifespan's own shutdown (bounded steps of its own), so the process is gone within seconds.
SHUTDOWN_SECONDS = 3
DRAIN_SECONDS = 1.0  # of that, what the sockets' handlers get to leave by themselves
log = logging.getLogger("watergate.shutdown")


class Server(uvicorn.Server):
    """uvicorn's server, stopping our way: on SIGTERM it stops listening, closes every socket
    "going away" (1001, so clients reconnect to another process) instead of uvicorn's 1012, lets
    requests finish for a bounded time, and exits 0."""

    def __init__(self, config: uvicorn.Config, app: FastAPI) -> None:
        super().__init__(config)
        self.app = app

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        # uvicorn records the signal to raise it again after its shutdown, so the process would
        # end "killed by SIGTERM" even after a clean drain; a clean stop is exit status 0.
        if sig == signal.SIGTERM:
            self.force_exit = self.should_exit  # a second SIGTERM: stop waiting
            self.should_exit = True
            return
        super().handle_exit(sig, frame)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        deadline = time.monotonic() + SHUTDOWN_SECONDS
        for server in self.servers:
            server.close()  # no new connections: a reconnecting client goes elsewhere
        ctx = getattr(self.app.state, "ctx", None)
        if ctx is not None:
            await ctx.drain(grace=DRAIN_SECONDS)
        # one budget for both steps: uvicorn's wait for requests gets what the drain left
        left = max(1, int(deadline - time.monotonic()))  # uvicorn counts whole seconds
        self.config.timeout_graceful_shutdown = left
        # just before uvicorn cancels what is still running, say what that is and where it waits
        report = asyncio.get_running_loop().call_later(left - 0.1, self._report_running)
        try:
            await super().shutdown(sockets)
        finally:
            report.cancel()

    def _report_running(self) -> None:
        for task in list(self.server_state.tasks):
            stack = io.StringIO()
            task.print_stack(limit=12, file=stack)
            log.warning("still running at shutdown, to be cancelled:\n%s", stack.getvalue())


def migrate(url: str) -> None:
    """alembic upgrade head on `url` (creating the SQLite file's folder if needed)."""
    if is_sqlite(url) and url.startswith("sqlite:///"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.attributes["url"] = url
    command.upgrade(config, "head")


def door_for(settings: Settings) -> Door:
    """Who may connect (app/http/connections.py): the cap below this process's open-file limit,
    each address's share of it, the deadline for a request to arrive."""
    limit = open_file_limit()
    cap = cap_for(limit, settings.max_connections)
    what = "at most %d connections at once (open-file limit %d)"
    logging.getLogger("watergate.connections").info(what, cap, limit)
    # one address may hold at most a quarter of them, however the setting reads
    share = min(settings.max_connections_per_address, max(1, cap // 4))
    return Door(
        cap,
        share,
        settings.request_read_seconds,
        TrustedPeers(settings.forwarded_allow_ips),
    )


def server_config(app: FastAPI, settings: Settings) -> uvicorn.Config:
    """How uvicorn serves the app: our protocols, sizes and timeouts, our logging."""
    state = app.state
    return uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        http=HttpProtocol.for_app(state.shedder, door_for(settings), state.penalties),
        ws=WebSocketProtocol.for_app(settings.ws_messages_per_second, settings.ws_message_burst),
        ws_max_size=settings.max_ws_frame_bytes,
        ws_per_message_deflate=False,  # views are small; compressing them cost a fifth of the CPU
        timeout_keep_alive=65,  # outlast clients' idle connections, so none is cut as it is reused
        proxy_headers=False,  # the app applies FORWARDED_ALLOW_IPS itself (app/http/hardening.py)
        timeout_graceful_shutdown=SHUTDOWN_SECONDS,
        log_config=None,  # uvicorn's loggers go to the scrubbing root handler, not their own
        access_log=False,  # the app's request log writes one line a request, with its id
        log_level="info",
    )


def main() -> None:
    settings = Settings()
    # before anything logs: secrets are scrubbed from every line
    logs.configure(json_lines=settings.log_format == "json")
    # a fatal signal (SIGBUS from a SQLite shared-memory file that cannot be written, SIGSEGV
    # in a C extension) kills the process before any handler of ours runs: the interpreter
    # writes the error and every thread's stack to stderr first, so the death is in the log
    faulthandler.enable(all_threads=True)
    if problem := settings.bind_problem():
        sys.exit(problem)  # printed to stderr, exit status 1, before anything is touched
    engine = running(flow.__file__)
    if problem := stale_copy(engine):
        sys.exit(problem)
    logging.getLogger("watergate.engine").info(engine.line())
    migrate(settings.database_url)
    # Everything imported so far (about 100,000 objects: modules, classes, functions) lives as
    # long as the process: moved out of the collector's sight, collections walk only the live
    # matches. With the default thresholds, young collections stay around a millisecond (with
    # a first generation of 50,000 objects they took 40-60 ms and full ones 100-280 ms under load,
    # the p99 of bench.load fell from 148 ms to 41 ms at 200 matches).
    gc.collect()
    gc.freeze()
    app = create_app(settings)
    server = Server(server_config(app, settings), app)
    with contextlib.suppress(KeyboardInterrupt):  # a second Ctrl+C during shutdown
        server.run()
    if not server.started:
        sys.exit(3)  # uvicorn's "startup failed"


if __name__ == "__main__":
    main()
