"""Who may hold a connection to this process, and how long a request may take to arrive (issue
40, finding 9). Half-sent requests and handshakes were never timed out, so 1,100 of them held
every file the process could open (its limit was 1,024): accepting failed, and every honest
request failed for as long as the attacker kept them open.

Under `python -m app` the HTTP protocol (app/protocols.py) asks the Door at each connection:
- at most `cap` connections at once, below the process's open-file limit (RLIMIT_NOFILE, read at
  start, less a reserve for the database, Redis, logs and the computer's workers); one more is
  answered `503 too_many_connections` and closed at once, so the file is free again at once;
- at most `per_address` of them from one address, unless that address is a trusted proxy
  (FORWARDED_ALLOW_IPS: its clients are told apart only by its headers), else `429
  too_many_connections`: one address cannot take them all;
- a request's head and body must arrive within `read_seconds` of its first byte (of the
  connection's opening, for its first request; a websocket handshake is a request's head), else
  `408 request_timeout` and the connection is closed.
A proxy in front keeps its own, tighter limits (README, Deployment)."""

from __future__ import annotations

import json
import logging
import resource
from collections import Counter
from dataclasses import dataclass, field

from ..addresses import TrustedPeers, address_key

log = logging.getLogger("watergate.connections")

UNLIMITED_CAP = 100_000  # with no open-file limit at all
RESERVE_FILES = 128  # besides a tenth of the limit: the database, Redis, logs, workers, modules


def cap_for(limit: int, wanted: int) -> int:
    """The connections a process whose open-file limit is `limit` may hold (`wanted`, if set,
    when that is lower): the limit less a reserve, so accepting never fails for want of a file."""
    room = UNLIMITED_CAP if limit in (resource.RLIM_INFINITY, -1) else limit
    room = max(1, room - RESERVE_FILES - room // 10)
    return min(wanted, room) if wanted > 0 else room


def open_file_limit() -> int:
    """The process's soft limit on open files (RLIMIT_NOFILE)."""
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def _answer(status: str, code: str, message: str, retry_after: int | None) -> bytes:
    body = json.dumps({"code": code, "message": message}).encode()
    head = [
        f"HTTP/1.1 {status}",
        "content-type: application/json",
        f"content-length: {len(body)}",
        "connection: close",
    ]
    if retry_after is not None:
        head.append(f"retry-after: {retry_after}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


FULL = _answer(
    "503 Service Unavailable", "too_many_connections", "The server is full; try again.", 5
)
YOURS_FULL = _answer(
    "429 Too Many Requests",
    "too_many_connections",
    "Too many connections from your address; close some first.",
    5,
)
TIMED_OUT = _answer(
    "408 Request Timeout", "request_timeout", "The request did not arrive in time.", None
)


class Ticket:
    """One admitted connection: released once, by whichever protocol ends it."""

    __slots__ = ("address", "door")

    def __init__(self, door: Door, address: str | None) -> None:
        self.door: Door | None = door
        self.address = address

    def release(self) -> None:
        door, self.door = self.door, None
        if door is not None:
            door.left(self.address)


@dataclass
class Door:
    cap: int
    per_address: int  # 0: no share
    read_seconds: float
    trusted: TrustedPeers
    open: int = 0
    by_address: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)  # by code, for the log line

    def admit(self, host: str | None) -> Ticket | bytes:
        """A ticket for a new connection from `host`, or the answer that refuses it."""
        if self.open >= self.cap:
            self._refused("full")
            return FULL
        address = None if host is None or host in self.trusted else address_key(host)
        if address is not None and self.per_address:
            if self.by_address[address] >= self.per_address:
                self._refused("address")
                return YOURS_FULL
            self.by_address[address] += 1
        self.open += 1
        return Ticket(self, address)

    def left(self, address: str | None) -> None:
        self.open -= 1
        if address is not None and self.per_address:
            self.by_address[address] -= 1
            if self.by_address[address] <= 0:
                del self.by_address[address]

    def _refused(self, why: str) -> None:
        """One warning per power of two refusals of a kind, not one per connection."""
        self.refused[why] += 1
        count = self.refused[why]
        if count & (count - 1) == 0:
            what = "connections refused (%s): %d so far; %d open of %d"
            log.warning(what, why, count, self.open, self.cap)
