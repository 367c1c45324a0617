"""fairness commitment: matches.commitment, the published SHA-256 commitment to the seed

Every match publishes from its first view a commitment to its secret seed (engine.core.fairness,
scheme v1) and reveals the seed once it has ended. The commitment is stored so it can never
change; existing matches get theirs computed here from their own id and seed.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02 09:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# scheme v1 is frozen (every stored commitment depends on it), so the migration may use it
from engine.core.fairness import commitment

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 500


def upgrade() -> None:
    # matches is the parent of every table: altered in place, never recreated (on SQLite a
    # rebuild would cascade-delete its children), so the new NOT NULL column needs a default
    with op.batch_alter_table("matches", recreate="never") as batch_op:
        batch_op.add_column(
            sa.Column("commitment", sa.String(length=64), server_default="", nullable=False)
        )
    bind = op.get_bind()
    rows = bind.execute(sa.text("SELECT id, seed FROM matches")).all()
    fill = sa.text("UPDATE matches SET commitment = :commitment WHERE id = :id")
    for start in range(0, len(rows), BATCH):
        bind.execute(
            fill,
            [
                {"id": match_id, "commitment": commitment(match_id, int(seed))}
                for match_id, seed in rows[start : start + BATCH]
            ],
        )
    if bind.dialect.name == "postgresql":
        # a row inserted without its commitment is refused; SQLite cannot drop a column default
        # without rebuilding the table, and the app always writes the column (models.py)
        op.alter_column("matches", "commitment", server_default=None)


def downgrade() -> None:
    with op.batch_alter_table("matches", recreate="never") as batch_op:
        batch_op.drop_column("commitment")
