"""players: anonymous, lasting identities on seats

A player is a public name and the SHA-256 of its secret token (never the token). seats.player,
unused until now, becomes a reference to players.id with an index (a player's matches are found
by it); any value it held names no player, so it is cleared first.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02 09:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=24), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_players_token_hash")),
    )
    op.execute(sa.text("UPDATE seats SET player = NULL"))  # nothing wrote it before
    # seats is a child table only (nothing refers to it), so SQLite may rebuild it
    with op.batch_alter_table("seats") as batch_op:
        batch_op.alter_column(
            "player", existing_type=sa.String(length=64), type_=sa.String(length=32)
        )
        batch_op.create_index(batch_op.f("ix_seats_player"), ["player"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_seats_player_players"), "players", ["player"], ["id"]
        )


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_seats_player_players"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_seats_player"))
        batch_op.alter_column(
            "player", existing_type=sa.String(length=32), type_=sa.String(length=64)
        )
    op.execute(sa.text("UPDATE seats SET player = NULL"))  # revision 0006 knows no players
    op.drop_table("players")
