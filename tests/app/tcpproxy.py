"""A TCP proxy for outage tests: it pipes every client to a real server (Redis, PostgreSQL) and can
cut every connection and refuse new ones, then accept again, so an outage needs no mock."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from types import TracebackType
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

T = TypeVar("T")


class Proxy:
    """Listens on a free loopback port, in its own thread with its own event loop."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.refusing = False
        self.silent = False  # new connections are accepted and then never answered
        self.port = 0
        self._open: set[asyncio.StreamWriter] = set()
        self._clients: set[asyncio.Task[Any]] = set()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: asyncio.Server | None = None

    @classmethod
    def to_url(cls, url: str) -> Proxy:
        """A proxy to the server of `url` (redis://…, postgresql://…)."""
        parts = urlsplit(url)
        assert parts.hostname is not None and parts.port is not None, url
        return cls(parts.hostname, parts.port)

    def url(self, url: str) -> str:
        """`url` with its host and port replaced by this proxy's."""
        parts = urlsplit(url)
        user = parts.netloc.rpartition("@")[0]
        netloc = f"{user}@127.0.0.1:{self.port}" if user else f"127.0.0.1:{self.port}"
        return urlunsplit(parts._replace(netloc=netloc))

    def __enter__(self) -> Proxy:
        self._thread.start()
        self._server = self._call(asyncio.start_server(self._client, "127.0.0.1", 0))
        self.port = int(self._server.sockets[0].getsockname()[1])
        return self

    def __exit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None:
        async def shut() -> None:
            assert self._server is not None
            self._server.close()
            self._drop()
            await asyncio.gather(*self._clients, return_exceptions=True)
            await self._server.wait_closed()

        self._call(shut())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()

    def cut(self) -> None:
        """The server is gone: every connection is reset, and new ones are closed at once."""

        async def cut() -> None:
            self.refusing = True
            self._drop()

        self._call(cut())

    def hang(self) -> None:
        """The server is unreachable without a word (a network partition, a host that stopped):
        every connection is reset, and new ones are accepted but nothing ever comes back."""

        async def hang() -> None:
            self.silent = True
            self._drop()

        self._call(hang())

    def restore(self) -> None:
        """The server is back: new connections are piped again."""

        async def restore() -> None:
            if self.silent:
                self._drop()  # the connections never answered: reset, the clients reconnect
            self.refusing = self.silent = False

        self.silent = False  # new connections are accepted and then never answered

        self._call(restore())

    def _call(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(timeout=10)

    def _drop(self) -> None:
        for writer in list(self._open):
            writer.transport.abort()
        self._open.clear()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._clients.add(task)
        task.add_done_callback(self._clients.discard)
        if self.refusing:
            writer.transport.abort()
            return
        if self.silent:
            self._open.add(writer)  # reset at restore or exit, answered never
            await reader.read()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        pair = (writer, up_writer)
        self._open.update(pair)
        try:
            await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))
        finally:
            for end in pair:
                self._open.discard(end)
                end.transport.abort()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Bytes one way until either end goes; then the other end is closed too."""
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except OSError:
        pass
    finally:
        writer.transport.abort()
