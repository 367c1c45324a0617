"""Turn notices by Web Push (correspondence play): when it becomes a seat's turn and the seat has
no live socket anywhere, every browser its player subscribed is sent an encrypted, VAPID-signed
notice. Changes are queued (bounded) and looked at by one supervised background task, which
hands each notice to a delivery of its own: deliveries run concurrently, at most SEND_THREADS
sends at once on threads of their own (never the database's), each send cut off after
SEND_DEADLINE_S, so a slow push service delays nobody else's notice (issue 40, finding 8). A
failed send is retried a few times, and a subscription the push service calls gone (404/410) is
dropped. Every delivery ends with one outcome, counted in `watergate_turn_notices_total`; a
failure is logged with its outcome and cause, never with the endpoint (a capability) or keys."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import threading
import time
from collections.abc import Coroutine
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid02
from starlette.concurrency import run_in_threadpool

from ..clocks import decider
from ..errors import ApiError
from ..games import site
from ..names import LOCALES_DIR
from ..persistence import notifications
from ..persistence import push as push_repo
from ..persistence.push import Subscription
from ..persistence.records import PlayerRow
from ..push.changes import Change, MatchChanged, Moved
from ..pushtargets import Blocked, Guard, Refused, Target, checked_endpoint, pinned_session
from ..supervise import finish, supervise
from .access import current
from .core import Core
from .matches import player_required
from .players import player_of
from .turnwatch import TurnWatch

log = logging.getLogger("watergate.turns")
QUEUE: Final = 1000  # changes waiting to be looked at; beyond, notices are dropped (logged)
TRIES: Final = 3  # sends of one notice to one browser, the first included
RETRY_S: Final = 1.0  # the wait before the second try, doubled before each next one
SEND_THREADS: Final = 8  # sends under way at once (each blocks a thread of the sender's own)
SEND_DEADLINE_S = 5.0  # one send, from its start to the push service's answer (tests shorten it)
CONNECT_TIMEOUT_S: Final = 3.0  # the HTTP library's own bounds, so a thread is freed soon after
READ_TIMEOUT_S: Final = 4.0
DELIVERIES: Final = 1000  # notices waiting for a send or a retry; beyond, dropped (counted)
RETRIED: Final = ("failed", "unreachable")  # a push service's 429/5xx, or no connection
TTL_S: Final = 86_400  # a push service keeps an undelivered notice this long
CLAIMS_S: Final = 12 * 3600  # how long a notice's VAPID signature is valid
LANGS: Final = ("en", "pt-BR", "de")
GONE: Final = (404, 410)
CLOSE_GRACE_S: Final = 3.0


@dataclass(frozen=True)
class Notice:
    """What a browser is told: its service worker shows title and body, and opens `url`."""

    match_id: str
    title: str
    body: str
    url: str

    def payload(self) -> bytes:
        body = {"type": "turn", "match_id": self.match_id, "title": self.title, "url": self.url}
        return json.dumps({**body, "body": self.body}).encode()


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def public_key_of(vapid: Vapid02) -> str:
    """The application server key browsers subscribe with: the uncompressed point, base64url."""
    point = vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return b64url(point)


@cache
def _strings(lang: str) -> dict[str, str]:
    found: dict[str, str] = json.loads((LOCALES_DIR / f"{lang}.json").read_text())["push"]
    return found


class InvalidSubscription(ApiError):
    """422 invalid_subscription, with what is wrong (`reason`: `endpoint`, `keys`, or the
    endpoint's `backslash`, `userinfo`, `port`, `address`, `scheme`, `host`, `path`, ...)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(422, "invalid_subscription", message)
        self.reason = reason

    def body(self) -> dict[str, str]:
        return {**super().body(), "reason": self.reason}


def checked_subscription(hosts: tuple[str, ...], raw: dict[str, Any]) -> Subscription:
    """A browser's subscription as PushSubscription.toJSON() gives it, checked: the server will
    POST to its endpoint, so only https to a known push service (app/pushtargets.py; plain http
    and a port only for a loopback address PUSH_HOSTS lists, as tests use)."""
    endpoint, keys = raw.get("endpoint"), raw.get("keys")
    if not isinstance(endpoint, str) or not isinstance(keys, dict):
        raise InvalidSubscription("endpoint", "A subscription has an endpoint and keys.")
    try:
        checked_endpoint(endpoint, hosts)
    except Refused as refused:
        raise InvalidSubscription(refused.reason, refused.message) from None
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if not (isinstance(p256dh, str) and 80 <= len(p256dh) <= 128):
        raise InvalidSubscription("keys", "keys.p256dh must be a P-256 public key.")
    if not (isinstance(auth, str) and 16 <= len(auth) <= 64):
        raise InvalidSubscription("keys", "keys.auth must be the 16-byte secret.")
    lang = raw.get("lang")
    return Subscription(endpoint, p256dh, auth, lang if lang in LANGS else "en")


class TurnNotices:
    def __init__(self, core: Core) -> None:
        self.core = core
        self.vapid: Vapid02 | None = None
        self.public_key = ""
        self._queue: asyncio.Queue[tuple[str, int]] = asyncio.Queue(QUEUE)  # (match, version)
        self._turns = TurnWatch("turn_notices", caches=core.metrics.caches)
        self._dropped = 0
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        self._slots = asyncio.Semaphore(SEND_THREADS)  # a slot is held until its thread is free
        self._sender: ThreadPoolExecutor | None = None  # made with the first notice
        self._deliveries: set[asyncio.Task[None]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None  # the app's, from start()
        self._local = threading.local()  # each sender thread's HTTP session
        self._sessions: list[Any] = []
        self._sessions_lock = threading.Lock()
        self._guard = Guard(core.settings.push_host_names)

    async def start(self) -> None:
        """The VAPID key (the setting, or the stored one, or a new one stored for every process
        to share), then the sender. The private key is never logged."""
        self._loop = asyncio.get_running_loop()
        self.vapid = await run_in_threadpool(self._key)
        self.public_key = public_key_of(self.vapid)
        self._task = supervise("turn notices", self._run, stop=self._stop)

    def _key(self) -> Vapid02:
        configured = self.core.settings.vapid_private_key
        if configured:
            return Vapid02.from_string(configured.strip())
        with self.core.db.reader() as db:
            stored = push_repo.stored_key(db)
        if stored is None:
            made = Vapid02()
            made.generate_keys()
            pem = made.private_pem().decode()
            with self.core.db.write() as db:
                push_repo.keep_key(db, pem, public_key_of(made), self.core.stamp())
            with self.core.db.reader() as db:
                stored = push_repo.stored_key(db)
            assert stored is not None
        return Vapid02.from_pem(stored[0].encode())

    def on_change(self, change: Change) -> None:
        """A listener of this process's published changes: a move, or a seat taken, may have
        made it someone's turn."""
        if not isinstance(change, Moved | MatchChanged):
            return
        known = self.core.cache.info(change.match_id)
        if known is not None and (known.has_bot() or not any(s.player_id for s in known.seats)):
            return  # against the computer one plays live; guests have no subscriptions
        version = change.version if isinstance(change, Moved) else 0
        try:
            self._queue.put_nowait((change.match_id, version))
        except asyncio.QueueFull:
            self._dropped += 1
            if self._dropped == 1 or self._dropped % 1000 == 0:
                log.warning("turn notices: queue full, %d dropped so far", self._dropped)

    # ---- subscriptions ------------------------------------------------------------------------

    async def subscribe(self, player: str | None, raw: dict[str, Any]) -> None:
        sub = checked_subscription(self.core.settings.push_host_names, raw)
        await run_in_threadpool(self._subscribe, player, sub)

    def _subscribe(self, player: str | None, sub: Subscription) -> None:
        with self.core.db.write() as db:
            me = _required(player_of(db, player))
            push_repo.subscribe(db, me, sub, self.core.stamp())

    async def unsubscribe(self, player: str | None, endpoint: str) -> None:
        await run_in_threadpool(self._unsubscribe, player, endpoint)

    def _unsubscribe(self, player: str | None, endpoint: str) -> None:
        with self.core.db.write() as db:
            if not push_repo.unsubscribe(db, _required(player_of(db, player)), endpoint):
                raise ApiError(404, "not_found", "No such subscription.")

    # ---- sending ------------------------------------------------------------------------------

    async def _run(self) -> None:
        while not self._stop.is_set():
            match_id, version = await self._queue.get()
            if match_id:  # not the wake-up of close()
                await self._look(match_id, version)

    async def _look(self, match_id: str, version: int) -> None:
        """Tell the seat whose turn has begun, if nobody sits at it now. After a move the match
        is read from memory (the process that accepted it holds it): moves never wait for, nor
        cost, a database read here."""
        found = self.core.cache.get(match_id)
        if found is None or not version or found[1].version < version:
            found = await run_in_threadpool(current, self.core, match_id)
        if found is None:
            return
        info, entry = found
        seat = decider(entry) if info.status == "active" else None
        if not self._turns.new_turn(match_id, seat) or seat is None or info.kind(seat) != "human":
            return
        player = info.seat(seat).player_id
        if player is None:
            return  # a guest: no subscriptions
        if seat in await self.core.renderer.presence.online(match_id):
            return  # at the table: the tab's own title and favicon tell them
        # whoever moved last (at a table of N the one before this seat), else the other seat
        mover = entry.actors[-1] if entry.actors and entry.actors[-1] != seat else None
        opponent = next((s for s in info.seats if s.name == mover), None) or next(
            (s for s in info.seats if s.name != seat), None
        )
        name = (opponent.player_name if opponent else None) or "?"
        for sub in await run_in_threadpool(self._subscriptions, player):
            strings = _strings(sub.lang)
            notice = Notice(
                match_id, strings["title"], strings["body"].format(opponent=name),
                f"{site(info.game).prefix}/match/{match_id}",
            )  # fmt: skip
            self._spawn(sub, notice)

    def _subscriptions(self, player: str) -> list[Subscription]:
        with self.core.db.reader() as db:
            if "your_turn" not in notifications.push_kinds(db, player):
                return []  # the player chose the bell only for turns (issue 43)
            return push_repo.subscriptions_of(db, player)

    def spawn(self, sub: Subscription, notice: Notice) -> None:
        """Send `notice` to one browser, as a turn notice is (the bell's notices use it)."""
        self._spawn(sub, notice)

    def later(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run `work` (finding what to send) as a delivery: cancelled at close like one."""
        task = asyncio.create_task(work, name="notice")
        self._deliveries.add(task)
        task.add_done_callback(self._deliveries.discard)
        return task

    def _spawn(self, sub: Subscription, notice: Notice) -> None:
        """A delivery of its own, so that the next turn is looked at meanwhile."""
        if len(self._deliveries) >= DELIVERIES:
            self._ended("dropped", "too many notices waiting")
            return
        task = asyncio.create_task(self._deliver(sub, notice), name="turn notice")
        self._deliveries.add(task)
        task.add_done_callback(self._deliveries.discard)

    async def _deliver(self, sub: Subscription, notice: Notice) -> None:
        """Send with retries (the service's 429/5xx, or no connection); drop a gone browser.
        Whatever goes wrong ends as an outcome: nothing escapes to stop the other notices."""
        outcome, detail = "error", ""
        try:
            delay = RETRY_S
            for attempt in range(1, TRIES + 1):
                outcome, detail = await self._attempt(sub, notice)
                if outcome not in RETRIED or attempt == TRIES:
                    break
                await asyncio.sleep(delay)  # a backoff, not a synchronisation
                delay *= 2
            if outcome == "gone":
                await run_in_threadpool(self._drop, sub.endpoint)
        except asyncio.CancelledError:
            raise
        except Exception as err:  # a bug or the database: counted and logged, never raised
            outcome, detail = "error", type(err).__name__
        self._ended(outcome, detail)

    async def _attempt(self, sub: Subscription, notice: Notice) -> tuple[str, str]:
        """One send on a sender thread, waited for at most SEND_DEADLINE_S. Its slot is freed
        when the thread is, not when we stop waiting, so the bound on threads holds."""
        if self._sender is None:
            self._sender = ThreadPoolExecutor(SEND_THREADS, thread_name_prefix="turn-notice")
        await self._slots.acquire()
        try:
            running = self._sender.submit(self._send, sub, notice)
        except BaseException:
            self._slots.release()
            raise
        running.add_done_callback(self._freed)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(running), SEND_DEADLINE_S)
        except TimeoutError:
            return "timeout", f"no answer within {SEND_DEADLINE_S:g} s"

    def _freed(self, done: Future[tuple[str, str]]) -> None:
        """(On the sender thread) the send is over: its slot is free again."""
        assert self._loop is not None
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
            self._loop.call_soon_threadsafe(self._slots.release)

    def _ended(self, outcome: str, detail: str) -> None:
        self.core.metrics.noticed(outcome)
        if outcome == "sent":
            return
        if outcome == "gone":
            log.info("turn notice: the push service says the browser is gone; dropped it")
        else:  # never the endpoint (a capability) nor the keys: the outcome and its cause
            log.warning("turn notice not delivered: %s (%s)", outcome, detail)

    def _session(self) -> Any:
        """This sender thread's HTTP session (requests' sessions are not for sharing between
        threads): it connects only to addresses the guard checked, and follows no redirect."""
        session = getattr(self._local, "session", None)
        if session is None:
            session = pinned_session(self._guard)
            self._local.session = session
            with self._sessions_lock:
                self._sessions.append(session)
        return session

    def _send(self, sub: Subscription, notice: Notice) -> tuple[str, str]:
        """(On a sender thread) one POST to the push service: (outcome, cause). Never raises.
        The endpoint is checked again as it is sent (a subscription stored under other rules,
        or written by anything but `subscribe`, gets nothing), and the URL requested is the one
        rebuilt from the checked parts. pywebpush (and requests under it) is imported with the
        first notice: a second of every start on a busy machine, for a feature many processes
        never use."""
        try:
            target = checked_endpoint(sub.endpoint, self.core.settings.push_host_names)
        except Refused as refused:
            return "refused", refused.reason
        try:
            return self._post(target, sub, notice)
        except Exception as err:  # the message may quote the endpoint: only the type is told
            return "error", f"{type(err).__name__}, {target.host}"

    def _post(self, target: Target, sub: Subscription, notice: Notice) -> tuple[str, str]:
        import requests
        from pywebpush import WebPusher

        keys = {"p256dh": sub.p256dh, "auth": sub.auth}
        body = WebPusher({"endpoint": target.url, "keys": keys}).encode(notice.payload())["body"]
        claims = {
            "sub": self.core.settings.vapid_subject,
            "aud": target.audience,
            "exp": int(time.time()) + CLAIMS_S,
        }
        assert self.vapid is not None
        headers = {"Content-Encoding": "aes128gcm", "TTL": str(TTL_S), **self.vapid.sign(claims)}
        try:
            with self._session().post(
                target.url,
                data=body,
                headers=headers,
                timeout=(CONNECT_TIMEOUT_S, READ_TIMEOUT_S),
                allow_redirects=False,  # a push service answers; it never sends us elsewhere
            ) as response:
                status = int(response.status_code)
        except Blocked as blocked:
            return "blocked", f"{blocked}, {target.host}"
        except requests.Timeout as err:
            return "timeout", f"{type(err).__name__}, {target.host}"
        except (requests.RequestException, OSError) as err:
            return "unreachable", f"{type(err).__name__}, {target.host}"
        return judged(status), f"status {status}, {target.host}"

    def _drop(self, endpoint: str) -> None:
        with self.core.db.write() as db:
            push_repo.drop(db, endpoint)

    async def close(self) -> None:
        """Stop after the change under way (its worker thread may be using the database, which
        closes next), cancelling only if it takes longer than the grace; deliveries still
        waiting are cancelled, and sends under way are left to their HTTP timeouts."""
        self._stop.set()
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(("", 0))
        await finish(self._task, CLOSE_GRACE_S)
        for task in list(self._deliveries):
            task.cancel()
        await asyncio.gather(*self._deliveries, return_exceptions=True)
        if self._sender is not None:
            self._sender.shutdown(wait=False, cancel_futures=True)
        with self._sessions_lock:
            for session in self._sessions:
                session.close()


def judged(status: int) -> str:
    """A push service's answer as an outcome: a redirect is never followed (rejected)."""
    if 200 <= status < 300:
        return "sent"
    if status in GONE:
        return "gone"
    if status == 429 or status >= 500:
        return "failed"  # retried
    return "rejected"


def _required(player: PlayerRow | None) -> str:
    if player is None:
        raise player_required()
    return str(player.id)
