"""lifecycle

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29 18:33:21.074429
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    op.create_table(
        "rematches",
        sa.Column("old_match_id", sa.String(length=32), nullable=False),
        sa.Column("offered_by", sa.String(length=8), nullable=False),
        sa.Column("offered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("new_match_id", sa.String(length=32), nullable=True),
        sa.Column("claimed_editor", sa.Boolean(), nullable=False),
        sa.Column("claimed_nixon", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["old_match_id"],
            ["matches.id"],
            name=op.f("fk_rematches_old_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("old_match_id", name=op.f("pk_rematches")),
    )
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("spectator_key", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("activated_at", sa.DateTime(timezone=True), nullable=True))

    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:

    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("last_seen_at")

    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("activated_at")
        batch_op.drop_column("spectator_key")

    op.drop_table("rematches")
