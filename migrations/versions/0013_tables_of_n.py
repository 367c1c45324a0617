"""tables of N seats: a seat's leaving, a challenge's table size, a table rematch's answers

Contract v1.2 seats two to five at a Nations table. A person who leaves a table of three or more
(resigns, runs out of time, abandons it) is replaced by the computer and ranks last: the seat row
records when and why (`left_at`, `left_reason`, and `left_log`: how long the log was then,
where the table's log says so) and keeps the leaver as its player. The lobby
matches challenges by their table size (`challenges.players`, 2 for every existing one). A table's
rematch starts when every person has accepted: `rematches.answers` holds each seat's answer
(null for offers made before: a duel's, which the other seat's accept starts as before).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-07 01:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch_op:
        batch_op.add_column(sa.Column("left_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("left_reason", sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column("left_log", sa.Integer(), nullable=True))
    with op.batch_alter_table("challenges") as batch_op:
        batch_op.add_column(sa.Column("players", sa.Integer(), nullable=False, server_default="2"))
    with op.batch_alter_table("rematches") as batch_op:
        batch_op.add_column(sa.Column("answers", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rematches") as batch_op:
        batch_op.drop_column("answers")
    with op.batch_alter_table("challenges") as batch_op:
        batch_op.drop_column("players")
    with op.batch_alter_table("seats") as batch_op:
        batch_op.drop_column("left_log")
        batch_op.drop_column("left_reason")
        batch_op.drop_column("left_at")
