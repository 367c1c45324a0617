"""Account credentials: what a username and a password may be (stable 422 codes), and argon2id
hashing with pwdlib. A sign-in verifies exactly once whether or not the username exists (against
a dummy hash when it does not), so its timing does not tell which usernames are taken.

Hashing is the most expensive thing a request can ask for, and anyone can ask (issue 40,
finding 3: 24 wrong sign-ins at once made creating a match take seconds and the process grow by
800 MB). So it runs on a small executor of its own, never on the threads that serve the
database: `max(1, cores - 1)` threads by default, so a flood of sign-ins can hold at most all
cores but one, at a lower CPU priority than the rest of the process, and a bounded queue in
front of it; a sign-in that finds the queue full is answered `503 busy` with Retry-After
(held about a second first, at no cost, so a flood retrying at once is slowed) instead of
queueing. Each hash uses one lane (parallelism 1: one core) and a memory cost sized to the
host: at most a sixteenth of its memory hashing at once, between OWASP's minimum (19 MiB, 2
passes) and 64 MiB (one pass from 46 MiB on, OWASP's equal-strength setting). A stored hash
with other parameters still verifies (argon2 reads them from the hash) and is replaced with one
of the current parameters when its owner signs in."""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import random
import re
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Final, TypeVar

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

from .errors import ApiError

USERNAME: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{2,19}$")  # 3-20, ASCII: no look-alikes
PASSWORD_MIN: Final = 10
PASSWORD_MAX: Final = 256  # argon2 takes any length; a megabyte one would only cost us CPU

# argon2id's memory cost in KiB. OWASP's password storage cheat sheet: at least 19 MiB with 2
# passes, or 46 MiB with 1 (equal strength), one lane. RFC 9106's second choice uses 64 MiB.
MIN_MEMORY_KIB: Final = 19 * 1024
ONE_PASS_KIB: Final = 46 * 1024
MAX_MEMORY_KIB: Final = 64 * 1024
MEMORY_SHARE: Final = 16  # at most this fraction of the host's memory hashing at once
# The hashing threads' niceness (Linux: per thread): when they and the event loop or the database
# threads want the same core, the scheduler gives it to the latter about nine times in ten, so a
# flood of sign-ins slows sign-ins rather than the games; an idle core still hashes at full speed
NICENESS: Final = 10
QUEUE: Final = 8  # sign-ins waiting for a hashing thread; one more is answered 503 busy
RETRY_AFTER_S: Final = 1
# A busy refusal is answered after about this long (between half and one and a half of it, no
# CPU spent meanwhile; at most HELD_MAX at once, beyond that at once), as spectator refusals are:
# a flood that retries the moment it is refused is slowed to one try a second per connection
# instead of costing the event loop a refusal every millisecond.
BUSY_HOLD_S: Final = 1.0
HELD_MAX: Final = 1000

T = TypeVar("T")


def invalid_username() -> ApiError:
    return ApiError(
        422,
        "invalid_username",
        "A username is 3-20 letters, digits, '_' or '-' (starting with a letter or digit).",
    )


def checked_username(raw: str) -> tuple[str, str]:
    """(the username as typed, its key: lower case, unique among accounts), or 422."""
    name = raw.strip()
    if not USERNAME.match(name):
        raise invalid_username()
    return name, name.lower()


def checked_password(raw: str) -> str:
    if len(raw) < PASSWORD_MIN:
        raise ApiError(
            422, "password_too_short", f"A password has at least {PASSWORD_MIN} characters."
        )
    if len(raw) > PASSWORD_MAX:
        raise ApiError(
            422, "password_too_long", f"A password has at most {PASSWORD_MAX} characters."
        )
    return raw


def bad_credentials() -> ApiError:
    return ApiError(401, "bad_credentials", "Wrong username or password.")


def busy() -> ApiError:
    return ApiError(
        503,
        "busy",
        "Too many sign-ins are being checked right now; try again in a moment.",
        headers={"Retry-After": str(RETRY_AFTER_S)},
    )


# ---- the host ---------------------------------------------------------------------------------


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return None


def host_cores() -> int:
    """The cores this process may use: its CPU affinity, and a cgroup's CPU quota if lower."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    found = cores or 1
    quota = (_read("/sys/fs/cgroup/cpu.max") or "max").split()
    if quota and quota[0] != "max" and len(quota) == 2 and int(quota[1]) > 0:
        found = min(found, max(1, math.ceil(int(quota[0]) / int(quota[1]))))
    return found


def host_memory() -> int:
    """The bytes of memory this process may use: the machine's, or a cgroup's limit if lower."""
    try:
        found = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        found = 1 << 30
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        limit = _read(path)
        if limit and limit.isdigit():
            found = min(found, int(limit))
    return found


@dataclass(frozen=True)
class Cost:
    """argon2id's parameters: memory in KiB, passes, lanes."""

    memory_kib: int
    time_cost: int
    parallelism: int = 1


def cost_for(threads: int, memory_bytes: int, memory_kib: int = 0) -> Cost:
    """The cost of one hash when `threads` hash at once on a host with `memory_bytes`: a
    sixteenth of the memory shared by the threads, within [OWASP's minimum, 64 MiB]; one pass
    from 46 MiB on, two below. `memory_kib` (PASSWORD_HASH_MEMORY_KIB) overrides the share."""
    share = memory_kib or memory_bytes // MEMORY_SHARE // max(1, threads) // 1024
    memory = max(MIN_MEMORY_KIB, min(MAX_MEMORY_KIB, share))
    return Cost(memory, 1 if memory >= ONE_PASS_KIB else 2)


def hash_threads(configured: int = 0) -> int:
    """PASSWORD_HASH_THREADS, or all cores but one (at least one)."""
    return configured or max(1, host_cores() - 1)


# ---- hashing ----------------------------------------------------------------------------------


def _lower_priority() -> None:
    """(On each hashing thread as it starts) a lower CPU priority for this thread alone; where
    threads have no priority of their own, nothing."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICENESS)


class Passwords:
    """The app's password hashing: argon2id at `cost`, on `threads` threads of its own with
    `queue` more waiting at most."""

    def __init__(self, threads: int, queue: int, cost: Cost) -> None:
        self.cost, self.threads, self.capacity = cost, threads, threads + queue
        argon2 = Argon2Hasher(
            time_cost=cost.time_cost, memory_cost=cost.memory_kib, parallelism=cost.parallelism
        )
        self.hasher = PasswordHash((argon2,))
        self.executor = ThreadPoolExecutor(
            threads, thread_name_prefix="password-hash", initializer=_lower_priority
        )
        self._lock = threading.Lock()
        self.pending = 0  # hashes running or waiting (each leaves once its thread is done)
        self.hold_s = BUSY_HOLD_S  # tests answer at once
        self.held = 0  # refusals being held (on the event loop only)
        self._dummy: str | None = None

    @classmethod
    def for_host(cls, threads: int = 0, queue: int = QUEUE, memory_kib: int = 0) -> Passwords:
        count = hash_threads(threads)
        return cls(count, queue, cost_for(count, host_memory(), memory_kib))

    async def hash(self, password: str) -> str:
        """The argon2id hash to keep (salted)."""
        return await self._run(self.hasher.hash, password)

    async def verify(self, password: str, stored: str | None) -> bool:
        ok, _ = await self.verify_and_update(password, stored)
        return ok

    async def verify_and_update(self, password: str, stored: str | None) -> tuple[bool, str | None]:
        """Whether the password matches the stored hash, and a new hash to keep when the stored
        one has other parameters than the current ones (None otherwise). With no stored hash (no
        such account) the same work is done against a dummy hash and the answer is no."""
        return await self._run(self._verify, password, stored)

    def _verify(self, password: str, stored: str | None) -> tuple[bool, str | None]:
        if len(password) > PASSWORD_MAX:  # no password is this long: same work, and no
            password, stored = password[:PASSWORD_MAX], None
        if stored is None:
            self.hasher.verify(password, self.dummy())
            return False, None
        return self.hasher.verify_and_update(password, stored)

    def dummy(self) -> str:
        """A hash of nothing anyone knows, with the same parameters as real ones (made on a
        hashing thread, the first time a stranger's username is tried)."""
        if self._dummy is None:
            self._dummy = self.hasher.hash("no account has this password: it only costs the same")
        return self._dummy

    async def check_room(self) -> None:
        """503 busy if the queue is full, before a request does anything else (a read of the
        database) only to be refused at its hash: a flood's refusals must stay cheap."""
        if self.pending >= self.capacity:
            await self._refuse()

    async def _refuse(self) -> None:
        """Raise 503 busy, after holding the refusal a while (see BUSY_HOLD_S)."""
        if self.hold_s > 0 and self.held < HELD_MAX:
            self.held += 1
            try:
                await asyncio.sleep(self.hold_s * random.uniform(0.5, 1.5))
            finally:
                self.held -= 1
        raise busy()

    async def _run(self, work: Callable[..., T], *args: object) -> T:
        """`work` on a hashing thread, or 503 busy when the queue is full. A hash keeps its
        place until its thread is done, even when its request is gone meanwhile."""
        with self._lock:
            full = self.pending >= self.capacity
            if not full:
                self.pending += 1
        if full:
            await self._refuse()
        try:
            running = self.executor.submit(work, *args)
        except BaseException:
            self._done()
            raise
        running.add_done_callback(lambda _: self._done())
        return await asyncio.wrap_future(running)

    def _done(self) -> None:
        with self._lock:
            self.pending -= 1

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
