"""Personal API tokens (contract v1.2 "Bots", issue 45): an account makes tokens with scopes on
its account page (each shown once), lists them with their last use, and revokes them; a program
then calls the bot API with `Authorization: Bearer <token>`. `caller` checks a token and a scope
for every such call (401 unauthorized for an unknown or revoked token, 403 missing_scope)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from ..auth import new_token, token_hash
from ..errors import ApiError, checked_id, not_found
from ..persistence import accounts as account_rows
from ..persistence import api_tokens as store
from ..persistence.models import Player
from .core import Core
from .players import player_of
from .ratings import account_required

TOKEN_CAP: Final = 20  # working tokens per account
# a token's last use is written at most this often: a bot acting every second would otherwise
# write a row a second for a figure shown to the minute
TOUCH_EVERY: Final = timedelta(minutes=1)


@dataclass(frozen=True)
class MadeToken:
    token_id: str
    token: str  # shown this once
    label: str
    scopes: tuple[str, ...]


@dataclass(frozen=True)
class TokenInfo:
    token_id: str
    label: str
    scopes: tuple[str, ...]
    created_at: datetime
    last_used_at: datetime | None


@dataclass(frozen=True)
class Caller:
    """Who a bearer token acts for."""

    player_id: str
    token_id: str
    bot: bool


def bad_token() -> ApiError:
    return ApiError(401, "unauthorized", "A valid API token is required (Authorization: Bearer).")


def missing_scope(scope: str) -> ApiError:
    return ApiError(403, "missing_scope", f"This token lacks the scope {scope}.")


def caller(db: Session, bearer: str | None, scope: str, now: datetime) -> Caller:
    """The account a token acts for, if it is working and has `scope` (its use recorded)."""
    if not bearer:
        raise bad_token()
    row = store.working(db, token_hash(bearer))
    if row is None:
        raise bad_token()
    if scope not in row.scopes:
        raise missing_scope(scope)
    if row.last_used_at is None or now - row.last_used_at >= TOUCH_EVERY:
        store.used(db, row.id, now)
    player = db.get(Player, row.player)
    if player is None or player.deleted_at is not None:
        raise bad_token()
    return Caller(player.id, row.id, player.bot)


class ApiTokens:
    def __init__(self, core: Core) -> None:
        self.core = core

    def _account(self, db: Session, player_token: str | None) -> str:
        me = player_of(db, player_token)  # 401 unknown_player
        if me is None or account_rows.account_of(db, me.id) is None:
            raise account_required()
        return me.id

    async def create(
        self, player_token: str | None, label: str, scopes: tuple[str, ...]
    ) -> MadeToken:
        def run() -> MadeToken:
            token, token_id = new_token(), secrets.token_hex(8)
            with self.core.db.write() as db:
                player = self._account(db, player_token)
                if store.live_count(db, player) >= TOKEN_CAP:
                    raise ApiError(
                        429, "too_many_tokens", f"An account has at most {TOKEN_CAP} tokens."
                    )
                store.add(
                    db,
                    store.ApiToken(
                        id=token_id,
                        player=player,
                        label=label,
                        scopes=sorted(set(scopes)),
                        digest=token_hash(token),
                        created_at=self.core.stamp(),
                    ),
                )
            return MadeToken(token_id, token, label, tuple(sorted(set(scopes))))

        return await run_in_threadpool(run)

    async def listed(self, player_token: str | None) -> list[TokenInfo]:
        def run() -> list[TokenInfo]:
            with self.core.db.reader() as db:
                rows = store.listed(db, self._account(db, player_token))
                return [
                    TokenInfo(r.id, r.label, tuple(r.scopes), r.created_at, r.last_used_at)
                    for r in rows
                ]

        return await run_in_threadpool(run)

    async def revoke(self, player_token: str | None, token_id: str) -> None:
        def run() -> None:
            with self.core.db.write() as db:
                player = self._account(db, player_token)
                if not store.revoke(db, player, checked_id(token_id, "token"), self.core.stamp()):
                    raise not_found("token")

        await run_in_threadpool(run)
