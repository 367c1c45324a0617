"""A correspondence round's own time

Issue 46: a correspondence Swiss or table-round tournament's round length in days
(`round_days`), and when the current round's time is up (`round_ends_at`). A tournament made
before keeps its rounds' rule: both stay empty, so its next round still starts only once every
game of the last has ended.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-07 18:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.add_column(sa.Column("round_days", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("round_ends_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_column("round_ends_at")
        batch_op.drop_column("round_days")
