"""Use cases of accounts: signing up (a new player, or the caller's anonymous one upgraded so
its name and matches carry over), signing in on another device (a new session), signing out,
listing and revoking sessions, changing the password, and a player deleting itself."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.exc import IntegrityError
from starlette.concurrency import run_in_threadpool

from ..auth import new_player_id, new_token, plausible_token, token_hash
from ..errors import ApiError, checked_id, not_found
from ..names import checked_name
from ..passwords import Passwords, bad_credentials, checked_password, checked_username
from ..persistence import accounts as store
from ..persistence import challenges, privacy
from ..persistence import players as player_rows
from ..push.changes import MatchChanged
from .core import Core
from .farming import remember_origin
from .players import player_of, unknown_player
from .unplayed import end_unplayed


@dataclass(frozen=True)
class SignedIn:
    """An account's player on this device: the token is known here only, in this answer."""

    player_id: str
    name: str
    username: str
    player_token: str
    device: str  # this browser's device cookie (set as a cookie, never in the body)


@dataclass(frozen=True)
class AccountInfo:
    """What a player learns about itself (never its hashes)."""

    player_id: str
    name: str
    username: str | None
    sessions: tuple[store.SessionRow, ...]


def device_of(cookie: str | None) -> str:
    """The browser's device cookie if it sent a plausible one, else a new one for it."""
    return cookie if cookie is not None and plausible_token(cookie) else new_token()


def username_taken() -> ApiError:
    return ApiError(409, "username_taken", "That username is taken; please choose another.")


class Accounts:
    """Every hash and verification runs on `passwords`' threads; the database's own threads
    (run_in_threadpool) only ever wait for the database."""

    def __init__(self, core: Core) -> None:
        self.core = core
        settings = core.settings
        self.passwords = Passwords.for_host(
            settings.password_hash_threads,
            settings.password_hash_queue,
            settings.password_hash_memory_kib,
        )

    def close(self) -> None:
        self.passwords.close()

    async def sign_up(
        self,
        token: str | None,
        username: str,
        password: str,
        name: str | None,
        device: str | None = None,
        address: str | None = None,
    ) -> SignedIn:
        """An account for the caller's player (X-Player-Token), or for a new player named
        `name` (the username by default). The hash is made before the transaction: it is
        the slow part and holds no lock. The browser becomes a known device of the account."""
        shown, key = checked_username(username)
        digest = await self.passwords.hash(checked_password(password))
        new_name = checked_name(name if name is not None else shown) if token is None else None
        args = (token, shown, key, digest, new_name, device_of(device), address)
        return await run_in_threadpool(self._sign_up, *args)

    def _sign_up(
        self,
        token: str | None,
        username: str,
        key: str,
        digest: str,
        name: str | None,
        device: str,
        address: str | None = None,
    ) -> SignedIn:
        try:
            with self.core.db.write() as db:
                if store.account_by_key(db, key) is not None:
                    raise username_taken()
                player = player_of(db, token)
                if player is None:
                    assert name is not None
                    token, now = new_token(), self.core.stamp()
                    player_id = new_player_id()
                    player_rows.add_player(db, player_id, name, now)
                    remember_origin(db, self.core.settings, player_id, address)  # #40, 22
                    player_rows.add_session(db, new_player_id(), player_id, token_hash(token), now)
                    player = player_rows.player_by_id(db, player_id)
                    assert player is not None
                elif player.has_account:
                    raise ApiError(409, "has_account", "This player already has an account.")
                store.set_account(db, player.id, username, key, digest)
                store.remember_device(db, player.id, token_hash(device), self.core.stamp())
        except IntegrityError:  # the same username taken between our look and our write
            raise username_taken() from None
        assert token is not None
        return SignedIn(player.id, player.name, username, token, device)

    async def sign_in(self, username: str, password: str, device: str | None = None) -> SignedIn:
        """A new session for the account: verified exactly once whether or not it exists; a
        hash with parameters other than the current ones is replaced by a current one. The
        browser becomes (or stays) a known device of the account."""
        key = username.strip().lower()[:64]
        await self.passwords.check_room()
        account = await run_in_threadpool(self._account_by_key, key)
        stored = account.password_hash if account else None
        ok, rehashed = await self.passwords.verify_and_update(password, stored)
        if not ok:
            raise bad_credentials()
        assert account is not None
        return await run_in_threadpool(self._open_session, account, rehashed, device_of(device))

    def _account_by_key(self, key: str) -> store.AccountRow | None:
        with self.core.db.reader() as db:
            return store.account_by_key(db, key)

    def _open_session(
        self, account: store.AccountRow, rehashed: str | None, device: str
    ) -> SignedIn:
        token = new_token()
        with self.core.db.write() as db:
            if store.account_of(db, account.player_id) is None:
                raise bad_credentials()  # deleted while we verified
            now = self.core.stamp()
            player_rows.add_session(db, new_player_id(), account.player_id, token_hash(token), now)
            store.trim_sessions(db, account.player_id)
            store.remember_device(db, account.player_id, token_hash(device), now)
            if rehashed is not None:  # only if the hash we checked is still the one kept
                store.replace_password(db, account.player_id, account.password_hash, rehashed)
        return SignedIn(account.player_id, account.name, account.username, token, device)

    async def known_device(self, username: str, device: str | None) -> bool:
        """Whether this browser (its device cookie) has signed in to the account before."""
        if not plausible_token(device):
            return False
        assert device is not None
        return await run_in_threadpool(self._known_device, username.strip().lower()[:64], device)

    def _known_device(self, key: str, device: str) -> bool:
        with self.core.db.reader() as db:
            account = store.account_by_key(db, key)
            return account is not None and store.device_known(
                db, account.player_id, token_hash(device)
            )

    async def sign_out(self, token: str | None) -> None:
        await run_in_threadpool(self._sign_out, token)

    def _sign_out(self, token: str | None) -> None:
        with self.core.db.write() as db:
            player = player_of(db, token)
            if player is None:
                raise unknown_player()
            session_id = store.session_id_of(db, token_hash(token or ""))
            assert session_id is not None
            store.end_session(db, player.id, session_id)

    async def about(self, token: str | None) -> AccountInfo:
        return await run_in_threadpool(self._about, token)

    def _about(self, token: str | None) -> AccountInfo:
        with self.core.db.reader() as db:
            player = player_of(db, token)
            if player is None:
                raise unknown_player()
            account = store.account_of(db, player.id)
            sessions = store.sessions_of(db, player.id, token_hash(token or ""))
        username = account.username if account else None
        return AccountInfo(player.id, player.name, username, tuple(sessions))

    async def revoke(self, token: str | None, session_id: str) -> None:
        """End one of the caller's sessions (another device, or this one)."""
        await run_in_threadpool(self._revoke, token, checked_id(session_id, "session"))

    def _revoke(self, token: str | None, session_id: str) -> None:
        with self.core.db.write() as db:
            player = player_of(db, token)
            if player is None:
                raise unknown_player()
            if not store.end_session(db, player.id, session_id):
                raise not_found("session")

    async def change_password(
        self, token: str | None, old: str, new: str, device: str | None = None
    ) -> None:
        """A new password, given the current one. Every other session of the account ends
        (whoever knew the old password may have signed in somewhere with it), and every other
        browser stops being a known device; the caller's own session and browser stay."""
        account = await run_in_threadpool(self._account_of, token)
        if not await self.passwords.verify(old, account.password_hash):
            raise bad_credentials()
        digest = await self.passwords.hash(checked_password(new))
        kept = token_hash(device) if device is not None and plausible_token(device) else None
        await run_in_threadpool(self._set_password, account.player_id, token or "", digest, kept)

    def _set_password(self, player_id: str, token: str, digest: str, device: str | None) -> None:
        with self.core.db.write() as db:
            if player_of(db, token) is None:  # signed out (or revoked) while we hashed
                raise unknown_player()
            store.set_password(db, player_id, digest)
            store.end_other_sessions(db, player_id, token_hash(token))
            store.forget_devices(db, player_id, device)

    def _account_of(self, token: str | None) -> store.AccountRow:
        with self.core.db.reader() as db:
            player = player_of(db, token)
            if player is None:
                raise unknown_player()
            account = store.account_of(db, player.id)
        if account is None:
            raise ApiError(409, "no_account", "This player has no account.")
        return account

    async def delete(self, token: str | None, password: str | None) -> None:
        """The caller's player deletes itself (an account gives its password): its sessions,
        account and ratings go; its matches stay, shown with "Deleted player"."""
        player, account = await run_in_threadpool(self._player_and_account, token)
        if account is not None and not await self.passwords.verify(
            password or "", account.password_hash
        ):
            raise bad_credentials()
        tables, unplayed = await run_in_threadpool(self._delete, player)
        for match_id in tables:
            self.core.cache.drop_info(match_id)
        for match_id in tables:
            await self.core.publish(MatchChanged(match_id))
        await end_unplayed(self.core, unplayed)  # its direct challenges' waiting matches

    def _player_and_account(self, token: str | None) -> tuple[str, store.AccountRow | None]:
        with self.core.db.reader() as db:
            player = player_of(db, token)
            if player is None:
                raise unknown_player()
            return player.id, store.account_of(db, player.id)

    def _delete(self, player_id: str) -> tuple[list[str], list[str]]:
        with self.core.db.write() as db:
            when: datetime = self.core.stamp()
            store.wipe_player(db, player_id, when)
            # issue 43: its open direct challenges closed (their waiting matches end unplayed),
            # then its follows, blocks, bell lines and challenges go
            unplayed = challenges.close_all_of(db, player_id, when)
            privacy.forget_people(db, player_id)
            return store.matches_of(db, player_id), unplayed
