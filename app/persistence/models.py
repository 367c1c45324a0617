"""ORM rows: a match is its game, seed, options, rules version and ordered actions; one row per
seat (who plays it, its token hash once claimed, the player on it); invites point at a seat;
a player is a name (with an optional account: username and password hash) and its sessions
(the hashes of its tokens, one per device); ratings per player and game, with their history."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    TypeDecorator,
    UniqueConstraint,
    false,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.engine.default import DefaultExecutionContext
from sqlalchemy.orm import Mapped, mapped_column

from engine.core.fairness import commitment

from .db import Base


class SeedText(TypeDecorator[int]):
    """A secret seed of up to 256 bits, stored as its decimal digits (no database integer type
    holds it; text keeps it exact everywhere)."""

    impl = String(80)
    cache_ok = True

    def process_bind_param(self, value: int | None, dialect: Dialect) -> str | None:
        return None if value is None else str(value)

    def process_result_value(self, value: str | None, dialect: Dialect) -> int | None:
        return None if value is None else int(value)


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC timestamps on every database (SQLite stores them naive)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def utcnow() -> datetime:
    return datetime.now(UTC)


def row_commitment(context: DefaultExecutionContext) -> str:
    """The inserted row's commitment to its own seed (engine.core.fairness): computed wherever a
    match row is inserted, so no row is ever without one, and never written again."""
    row = context.get_current_parameters()  # type: ignore[no-untyped-call]  # untyped upstream
    return commitment(str(row["id"]), int(row["seed"]))


class Match(Base):
    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), default="watergate", server_default="watergate")
    seed: Mapped[int] = mapped_column(SeedText)
    # published from the first view; the seed itself only once the match has ended
    commitment: Mapped[str] = mapped_column(String(64), default=row_commitment)
    rules_version: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    status: Mapped[str] = mapped_column(String(16), index=True)  # waiting | active | finished
    version: Mapped[int] = mapped_column(Integer, default=0)
    round: Mapped[int] = mapped_column(Integer, default=1)
    winner: Mapped[str | None] = mapped_column(String(16), nullable=True)
    win_reason: Mapped[str | None] = mapped_column(String(32), nullable=True)
    ended_by: Mapped[str | None] = mapped_column(String(16), nullable=True)  # host | editor | nixon
    spectator_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    activated_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    # When the deciding seat's clock runs out at this version: the sweep reads only the rows
    # due by now (or not known yet: null) instead of replaying every active match's clocks.
    # NEVER for a match without a clock. Never later than the true moment (app.clocks.due_at).
    due_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # How many times the seats changed (taken, or a leaver's given to the computer), counted in
    # the transaction that changes them: a process whose cached seats are of another count reads
    # them again, whether or not the message that a seat changed has reached it.
    seats_version: Mapped[int] = mapped_column(Integer, default=0, server_default=false())

    __table_args__ = (Index("ix_matches_status_due_at", "status", "due_at"),)


class Seat(Base):
    """One seat of a match, by the game's seat name. A person's seat has its token's hash once
    claimed (null while the invite or rematch waits); a computer seat never has one."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("match_id", "name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(16))  # a seat of the match's game: editor, nixon, p1
    kind: Mapped[str] = mapped_column(String(8))  # human | bot
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    # the player who took the seat with a player token; null for a guest, the computer, a free seat
    player: Mapped[str | None] = mapped_column(ForeignKey("players.id"), index=True, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_seen_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # A person who left a table of three or more (resigned, ran out of time, abandoned it): the
    # seat's kind became "bot" and the computer plays it to the end; `player` still names the
    # leaver, who ranks last (contract v1.2).
    left_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    left_reason: Mapped[str | None] = mapped_column(String(16), nullable=True)
    left_log: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the log's length then


class Player(Base):
    """A lasting identity: its public name; with an account also a username (unique by its
    folded form) and an argon2 password hash. A deleted player keeps its row (its seats refer
    to it) with everything but its id wiped."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(24))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    username: Mapped[str | None] = mapped_column(String(24), nullable=True)
    username_key: Mapped[str | None] = mapped_column(String(24), unique=True, nullable=True)
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # who may send this player a direct challenge: everyone | registered | friends | nobody
    challenges_from: Mapped[str] = mapped_column(
        String(16), default="everyone", server_default="everyone"
    )
    # an account a moderator: granted by the admin token, so moderation needs no admin secret
    moderator: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # the notification kinds also sent by Web Push (null: the default set)
    push_kinds: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    # a keyed hash of the address that made the player: two rated players made from one
    # address within a day do not rate each other (issue 40, finding 22)
    created_from: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    # a bot account (contract v1.2 "Bots"): plays through the bot API only; set once, for good
    bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class PlayerSession(Base):
    """One device's hold on a player: only the hash of its token; revoked by deleting it."""

    __tablename__ = "player_sessions"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)  # public: names it to revoke
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class AccountDevice(Base):
    """A browser that has signed in to an account: only the hash of its device cookie. Its
    sign-ins to that account are counted on their own, not against the limit every unknown
    browser shares (contract: accounts; issue 40, finding 10)."""

    __tablename__ = "account_devices"

    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    seen_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class PlayerRating(Base):
    """A player's Glicko-2 rating in one game (matches.game)."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_game_rating", "game", "rating"),)

    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class RatingChange(Base):
    """A player's rating after one rated match: the points of the profile's chart."""

    __tablename__ = "rating_history"
    __table_args__ = (
        UniqueConstraint("player_id", "match_id"),
        Index("ix_rating_history_player_id_game", "player_id", "game", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(32))
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Invite(Base):
    __tablename__ = "invites"

    code: Mapped[str] = mapped_column(String(64), primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    seat: Mapped[str] = mapped_column(String(16))  # the seat the invited person takes
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class MatchAction(Base):
    __tablename__ = "match_actions"
    __table_args__ = (UniqueConstraint("match_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)  # 1, 2, 3 …: the match version after this action
    role: Mapped[str] = mapped_column(String(8))
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class AdminAudit(Base):
    """Every admin action that changes data: who, what, when."""

    __tablename__ = "admin_audit"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    actor: Mapped[str] = mapped_column(String(32))
    action: Mapped[str] = mapped_column(String(32))
    match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)


class Rematch(Base):
    """A rematch offered after a match. Once accepted, each old seat claims its new seat once: the
    per-seat claimed flag is the new match's seat row (its token hash is set when claimed)."""

    __tablename__ = "rematches"

    old_match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    offered_by: Mapped[str] = mapped_column(String(8))
    offered_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    new_match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # a table's answers so far, seat -> "accepted" | "declined" (the offering seat accepted by
    # offering); the new match is made when every person's seat has accepted
    answers: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class Challenge(Base):
    """A public waiting match as the lobby lists it, while it is open: gone once its seat is
    taken, its creator cancels it, or its creator has been away too long (the match itself
    stays, a private waiting match whose invite still works). `seen_at` is when a process last
    saw the creator connected (a lobby socket, or their own seat's), so every process agrees."""

    __tablename__ = "challenges"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    creator: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(32))
    open_role: Mapped[str] = mapped_column(String(16))  # the first seat a joiner takes
    players: Mapped[int] = mapped_column(Integer, default=2, server_default="2")  # the table's size
    clock: Mapped[str] = mapped_column(String(16))  # the clock choice: none, realtime-15, …
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    seen_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # the creator's client address as the limits count it (IPv6 by /64), kept only while the
    # challenge is open: the open challenges per address are capped (issue 40, finding 5)
    address: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)


class ChatMessage(Base):
    """One table chat line: who said it (seat and name as they were then), what, when."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(24))
    text: Mapped[str] = mapped_column(String(500))
    # a preset quick phrase's key (each reader sees it in their language); `text` is its English
    phrase: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # the player who wrote it (null for a guest seat or a line older than issue 43): blocks
    # hide lines both ways by it
    player: Mapped[str | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL"), nullable=True
    )
    # marked by the word list: shown only to its writer (shadow-hidden)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class PushSubscription(Base):
    """A browser's Web Push subscription for a player's turn notices (its endpoint and keys)."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    endpoint: Mapped[str] = mapped_column(String(1024), unique=True)
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    lang: Mapped[str] = mapped_column(String(8), default="en")  # the notice's language
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class PushKey(Base):
    """The server's VAPID key pair, made on the first start (one row), so that every process
    signs with the same key and subscriptions outlive restarts."""

    __tablename__ = "push_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    private_pem: Mapped[str] = mapped_column(String(512))
    public_key: Mapped[str] = mapped_column(String(128))  # uncompressed point, base64url
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class MatchAnalysis(Base):
    """A finished match's post-game analysis: every judged decision, both seats' (each seat is
    answered only its own)."""

    __tablename__ = "match_analyses"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    moves: Mapped[list[Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class SeatKey(Base):
    """One more token for a seat, given to a signed-in player's other device (contract v1.2
    "Your seats on every device"): only its hash, tied to the session that asked for it, so
    ending that session (signing out, a password change) takes the seat's key away with it."""

    __tablename__ = "seat_keys"
    __table_args__ = (UniqueConstraint("session_id", "match_id"),)

    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    seat: Mapped[str] = mapped_column(String(16))
    # looked up by session through the unique (session_id, match_id)
    session_id: Mapped[str] = mapped_column(ForeignKey("player_sessions.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
