"""accounts: sessions per device, optional accounts on players, ratings and their history

A player's token moves from players.token_hash to player_sessions (one row per device, so each
can be revoked): every existing player keeps its token as its first session, so browsers that
hold one go on working. players gains an optional account (username, its folded form kept
unique, an argon2 password hash) and deleted_at. ratings holds a Glicko-2 rating per player and
game; rating_history one row per rated match and player.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 18:00:00
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 500


SESSIONS = sa.table(
    "player_sessions",
    sa.column("id", sa.String),
    sa.column("player_id", sa.String),
    sa.column("token_hash", sa.String),
    sa.column("created_at"),  # untyped: copied as read (SQLite hands back its own text)
)


def upgrade() -> None:
    conn = op.get_bind()
    players = conn.execute(sa.text("SELECT id, token_hash, created_at FROM players")).all()
    # players is referred to by seats: SQLite rebuilds it, which migrations may do (env.py runs
    # them without foreign-key enforcement and checks every reference before committing)
    with op.batch_alter_table("players") as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_players_token_hash"), type_="unique")
        batch_op.drop_column("token_hash")
        batch_op.add_column(sa.Column("username", sa.String(length=24), nullable=True))
        batch_op.add_column(sa.Column("username_key", sa.String(length=24), nullable=True))
        batch_op.add_column(sa.Column("password_hash", sa.String(length=255), nullable=True))
        batch_op.add_column(sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.create_unique_constraint(batch_op.f("uq_players_username_key"), ["username_key"])
    op.create_table(
        "player_sessions",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_player_sessions_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_sessions")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_player_sessions_token_hash")),
    )
    op.create_index(
        op.f("ix_player_sessions_player_id"), "player_sessions", ["player_id"], unique=False
    )
    # every player's token becomes its first session: the browsers holding one go on working
    for start in range(0, len(players), BATCH):
        rows = [
            {"id": secrets.token_hex(12), "player_id": p, "token_hash": t, "created_at": c}
            for p, t, c in players[start : start + BATCH]
        ]
        op.bulk_insert(SESSIONS, rows)
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_ratings_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", "game", name=op.f("pk_ratings")),
    )
    op.create_index("ix_ratings_game_rating", "ratings", ["game", "rating"], unique=False)
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_rating_history_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_rating_history_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_history")),
        sa.UniqueConstraint(
            "player_id", "match_id", name=op.f("uq_rating_history_player_id_match_id")
        ),
    )
    op.create_index(
        "ix_rating_history_player_id_game",
        "rating_history",
        ["player_id", "game", "id"],
        unique=False,
    )


def downgrade() -> None:
    """Back to one token per player: each keeps its oldest session's (its first device); the
    accounts, ratings and other sessions are dropped. A deleted player, which has no session,
    gets a token nobody holds."""
    op.drop_index("ix_rating_history_player_id_game", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_game_rating", table_name="ratings")
    op.drop_table("ratings")
    conn = op.get_bind()
    found = conn.execute(
        sa.text("SELECT player_id, token_hash FROM player_sessions ORDER BY created_at DESC, id")
    ).all()
    oldest = dict(found)  # the last written wins: each player's oldest
    op.drop_index(op.f("ix_player_sessions_player_id"), table_name="player_sessions")
    op.drop_table("player_sessions")
    with op.batch_alter_table("players") as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_players_username_key"), type_="unique")
        batch_op.drop_column("deleted_at")
        batch_op.drop_column("password_hash")
        batch_op.drop_column("username_key")
        batch_op.drop_column("username")
        batch_op.add_column(sa.Column("token_hash", sa.String(length=64), nullable=True))
    for (player_id,) in conn.execute(sa.text("SELECT id FROM players")).all():
        digest = oldest.get(player_id) or secrets.token_hex(32)
        conn.execute(
            sa.text("UPDATE players SET token_hash = :t WHERE id = :p"),
            {"t": digest, "p": player_id},
        )
    with op.batch_alter_table("players") as batch_op:
        batch_op.alter_column("token_hash", existing_type=sa.String(length=64), nullable=False)
        batch_op.create_unique_constraint(batch_op.f("uq_players_token_hash"), ["token_hash"])
