"""Admin sign-in sessions kept by the server: signing in stores one, signing out deletes it,
"sign out everywhere" deletes them all; every process sees the same table."""

from __future__ import annotations

from datetime import timedelta

from starlette.concurrency import run_in_threadpool

from ..auth import SESSION_SECONDS, new_session_id, plausible_session, session_digest
from ..persistence import sessions as store
from .core import Core


class AdminSessions:
    """Cheap to make (per request): it holds only the database, the clock and the token."""

    def __init__(self, core: Core) -> None:
        self.db, self.core = core.db, core
        self.secret = core.settings.admin_token or ""

    async def open(self) -> str:
        """A new session; its id goes into the cookie, only its digest into the database."""
        session_id = new_session_id()
        await run_in_threadpool(self._open, session_digest(self.secret, session_id))
        return session_id

    def _open(self, digest: str) -> None:
        now = self.core.stamp()
        with self.db.write() as db:
            store.drop_expired_sessions(db, now)  # sign-ins are rare: tidy up then
            store.add_session(db, digest, now, now + timedelta(seconds=SESSION_SECONDS))

    async def valid(self, cookie: str | None) -> bool:
        if not self.secret or cookie is None or not plausible_session(cookie):
            return False
        return await run_in_threadpool(self._alive, session_digest(self.secret, cookie))

    def _alive(self, digest: str) -> bool:
        with self.db.reader() as db:
            return store.session_alive(db, digest, self.core.stamp())

    async def close(self, cookie: str | None) -> None:
        """Sign this session out (nothing happens for a cookie that is not one)."""
        if self.secret and cookie is not None and plausible_session(cookie):
            await run_in_threadpool(self._drop, session_digest(self.secret, cookie))

    def _drop(self, digest: str) -> None:
        with self.db.write() as db:
            store.drop_session(db, digest)

    async def close_all(self) -> int:
        """Sign every session out, on every device; how many there were."""
        return await run_in_threadpool(self._drop_all)

    def _drop_all(self) -> int:
        with self.db.write() as db:
            return store.drop_all_sessions(db)
