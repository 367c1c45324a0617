"""clock due: matches.due_at, when the deciding seat's clock runs out at the match's version

The sweep used to replay the clocks of every active match every few seconds, which at a few
hundred matches held the interpreter long enough to show in move latency; it now reads only the
rows that are due. Existing rows start unknown (null): the first sweep works theirs out.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 18:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # matches is the parent of every table: altered in place, never recreated (on SQLite a
    # rebuild would cascade-delete its children)
    with op.batch_alter_table("matches", recreate="never") as batch_op:
        batch_op.add_column(sa.Column("due_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_matches_status_due_at", "matches", ["status", "due_at"])


def downgrade() -> None:
    op.drop_index("ix_matches_status_due_at", table_name="matches")
    with op.batch_alter_table("matches", recreate="never") as batch_op:
        batch_op.drop_column("due_at")
