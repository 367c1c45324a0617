"""secret seeds: matches.seed holds up to 256 bits, as text

From rules version 2 every match is dealt by SHA-256 in counter mode from a 256-bit secret seed,
which no database integer column holds; the column becomes the seed's decimal digits. Existing
seeds (53 bits, rules version 1) are copied unchanged and keep replaying with SplitMix64.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 10:20:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # matches is the parent of every table: altered in place, never recreated (on SQLite a
    # rebuild would cascade-delete its children)
    with op.batch_alter_table("matches", recreate="never") as batch_op:
        batch_op.add_column(
            sa.Column("seed_text", sa.String(length=80), server_default="0", nullable=False)
        )
    op.execute(sa.text("UPDATE matches SET seed_text = CAST(seed AS VARCHAR(80))"))
    with op.batch_alter_table("matches", recreate="never") as batch_op:
        batch_op.drop_column("seed")
    with op.batch_alter_table("matches", recreate="never") as batch_op:
        batch_op.alter_column(
            "seed_text", new_column_name="seed", existing_type=sa.String(length=80)
        )


def downgrade() -> None:
    bind = op.get_bind()
    big = bind.execute(sa.text("SELECT COUNT(*) FROM matches WHERE LENGTH(seed) > 18")).scalar()
    if big:
        raise RuntimeError(
            f"{big} matches have seeds wider than 64 bits (rules version 2); "
            "revision 0004 cannot store them"
        )
    with op.batch_alter_table("matches", recreate="never") as batch_op:
        batch_op.add_column(
            sa.Column("seed_int", sa.BigInteger(), server_default="0", nullable=False)
        )
    op.execute(sa.text("UPDATE matches SET seed_int = CAST(seed AS BIGINT)"))
    with op.batch_alter_table("matches", recreate="never") as batch_op:
        batch_op.drop_column("seed")
    with op.batch_alter_table("matches", recreate="never") as batch_op:
        batch_op.alter_column("seed_int", new_column_name="seed", existing_type=sa.BigInteger())
