"""The rows of people between themselves (issue 43, contract v1.2 "People"): who follows and who
blocks whom, direct challenges, the bell's notifications, reports, what moderators did, the
sanctions in force, and the record of seats abandoned. Apart from `models.py` because none of
them is part of a match's state: a match never reads them while it is played."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from .db import Base
from .models import UTCDateTime, utcnow

# Who may send a player a direct challenge (players.challenges_from).
CHALLENGES_FROM = ("everyone", "registered", "friends", "nobody")


class Follow(Base):
    """`follower` follows `followee`; two rows each way make them friends."""

    __tablename__ = "follows"

    follower: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    followee: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Block(Base):
    """`blocker` blocked `blocked`: no challenge, join, pairing, follow or chat between them.
    Only the blocker ever reads the row (nobody learns who blocked them)."""

    __tablename__ = "blocks"

    blocker: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    blocked: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class DirectChallenge(Base):
    """One player's challenge to another: the waiting match it made (the challenger's seat is
    taken, the target's seat waits) and what became of it."""

    __tablename__ = "direct_challenges"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    challenger: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), index=True
    )
    target: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer, default=2)
    clock: Mapped[str] = mapped_column(String(16))
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    target_seat: Mapped[str] = mapped_column(String(16))  # the seat the target takes on accepting
    # open | accepted | declined | canceled | expired
    status: Mapped[str] = mapped_column(String(16), default="open")
    reason: Mapped[str | None] = mapped_column(String(16), nullable=True)  # a decline's reason
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    answered_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class Notification(Base):
    """One line of a player's bell: its kind (challenge, your_turn, …) and what it points at."""

    __tablename__ = "notifications"
    __table_args__ = (Index("ix_notifications_player_id", "player", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(32))
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    read_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class Report(Base):
    """A report of a player: by another player, or filed by the chat word list (`reporter`
    null). The reported player never reads it; its reporter sees its status."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter: Mapped[str | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL"), nullable=True, index=True
    )
    player: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    reason: Mapped[str] = mapped_column(String(16))  # abuse | name | cheating | stalling | other
    text: Mapped[str | None] = mapped_column(String(500), nullable=True)
    match_id: Mapped[str | None] = mapped_column(
        ForeignKey("matches.id", ondelete="SET NULL"), nullable=True
    )
    chat_id: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the line reported
    status: Mapped[str] = mapped_column(String(16), default="open", index=True)  # open | closed
    outcome: Mapped[str | None] = mapped_column(String(16), nullable=True)  # dismissed | actioned
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    resolved_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class ModerationAction(Base):
    """What a moderator (or the admin, or the site itself) did to a player, with who, when and
    why: the player's moderation history. A warning waits for the player to acknowledge it."""

    __tablename__ = "moderation_actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    action: Mapped[str] = mapped_column(String(16))  # dismiss | warn | mute | ban | reset_name …
    scope: Mapped[str | None] = mapped_column(String(16), nullable=True)
    until: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    reason: Mapped[str] = mapped_column(String(500))
    by: Mapped[str] = mapped_column(String(64))  # a moderator's player id, "admin" or "site"
    report_ids: Mapped[list[int]] = mapped_column(JSON, default=list)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    acknowledged_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class Sanction(Base):
    """A restriction in force until `until`: `scope` is chat (a mute), lobby, pairing, rated or
    tournaments. `source` says where it came from: a moderator, the word list, abandonment."""

    __tablename__ = "sanctions"
    __table_args__ = (Index("ix_sanctions_player_until", "player", "until"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    scope: Mapped[str] = mapped_column(String(16))
    until: Mapped[datetime] = mapped_column(UTCDateTime)
    reason: Mapped[str] = mapped_column(String(500))
    source: Mapped[str] = mapped_column(String(16))  # moderator | word_list | abandonment
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Abandonment(Base):
    """A seat its player let run out of time in a live game, or abandoned: repeated within a
    day they bring a ban (contract v1.2 "Sanctions")."""

    __tablename__ = "abandonments"
    __table_args__ = (Index("ix_abandonments_player_at", "player", "created_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    match_id: Mapped[str | None] = mapped_column(
        ForeignKey("matches.id", ondelete="SET NULL"), nullable=True
    )
    reason: Mapped[str] = mapped_column(String(16))  # clock | abandoned
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
