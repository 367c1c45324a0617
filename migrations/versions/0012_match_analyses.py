"""match analyses: one row per analysed finished match, deleted with its match

The post-game analysis (contract v1.1) is computed once per finished match, in the background,
and kept: a match never changes after its end, so neither does its analysis.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01 23:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "match_analyses",
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_match_analyses_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_match_analyses")),
    )


def downgrade() -> None:
    op.drop_table("match_analyses")
