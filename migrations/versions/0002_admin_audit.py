"""admin audit log and ended_by

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 18:29:20.839567
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    op.create_table(
        "admin_audit",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("actor", sa.String(length=32), nullable=False),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("match_id", sa.String(length=32), nullable=True),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_admin_audit")),
    )
    with op.batch_alter_table("admin_audit", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_admin_audit_created_at"), ["created_at"], unique=False)

    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("ended_by", sa.String(length=16), nullable=True))


def downgrade() -> None:

    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("ended_by")

    with op.batch_alter_table("admin_audit", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_admin_audit_created_at"))

    op.drop_table("admin_audit")
