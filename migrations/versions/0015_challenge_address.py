"""a challenge's creator address: the lobby's open challenges are capped per address

Issue 40 (finding 5): one player from eleven addresses filled all 100 places of the lobby in
2.3 s. Open challenges are now capped per player and per client address; `challenges.address`
is the creator's address as the rate limits count it (IPv6 by /64), kept only while the
challenge is open (null for challenges opened before: they count for no address).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-07 03:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("challenges") as batch_op:
        batch_op.add_column(sa.Column("address", sa.String(length=64), nullable=True))
        batch_op.create_index("ix_challenges_address", ["address"])


def downgrade() -> None:
    with op.batch_alter_table("challenges") as batch_op:
        batch_op.drop_index("ix_challenges_address")
        batch_op.drop_column("address")
