"""Sanctions in force and the refusal they bring (contract v1.2 "Sanctions"): a player under a
ban is answered `403 banned {"until", "reason", "scope"}` by the calls the ban covers (lobby,
quick pairing, rated play, tournaments), and a muted player `403 muted` by chat. Moderation,
the chat's word list and the abandonment record impose them, and tell the player on the bell
(`started`); the lobby, the matches and the chat check them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Final

from sqlalchemy.orm import Session

from ..errors import ApiError
from ..persistence import notifications
from ..persistence import sanctions as store
from ..persistence.sql import Sql
from ..push.changes import Notified

# What a ban may cover; a mute is the scope "chat".
BAN_SCOPES = ("lobby", "pairing", "rated", "tournaments")
SCOPES = (*BAN_SCOPES, "chat")
STARTED: Final = "sanction"  # the bell's kind for a ban or a mute that begins


class Banned(ApiError):
    """403 banned (or muted, for chat) with when it ends and why: the player sees both."""

    def __init__(self, scope: str, until: datetime, reason: str) -> None:
        code = "muted" if scope == "chat" else "banned"
        what = "You are muted in chat" if scope == "chat" else f"You are banned from {scope}"
        super().__init__(403, code, f"{what} until {until.isoformat()}: {reason}")
        self.scope, self.until, self.reason = scope, until, reason

    def body(self) -> dict[str, str]:
        return {
            **super().body(),
            "scope": self.scope,
            "until": self.until.isoformat(),
            "reason": self.reason,
        }


def refuse_if_sanctioned(db: Session, player: str, scopes: tuple[str, ...], now: datetime) -> None:
    """Raise `Banned` for the longest sanction of these scopes in force, if any. Inside the
    caller's transaction, so a ban imposed a moment ago is seen."""
    running = store.in_force(db, player, scopes, now)
    if running:
        first = running[0]
        raise Banned(first.scope, first.until, first.reason)


def started(
    sql: Sql, player: str, scopes: Sequence[str], until: datetime, now: datetime
) -> Notified:
    """In the transaction that imposes them: the player's bell line that sanctions of these
    scopes began, what they close and until when; the change to publish after the commit. Never
    who imposed them nor the moderator's words (which might name whoever reported): the account
    page says why."""
    data = {"scopes": list(scopes), "until": until.isoformat()}
    return Notified(player, notifications.add_on(sql, player, STARTED, data, now))
