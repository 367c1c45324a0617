"""a match's seats version: every process sees at once that a table's seats changed

A match's facts (its seats: who is a person, who the computer, which seat is taken) are cached
in each process. A seat changes when a person takes it or leaves a table and the computer takes
it over; until now only a message through Redis told the other processes, so in between (or
with the message lost) another process could accept a move from a leaver's token. The match row
now counts its seats' changes (`seats_version`, bumped in the same transaction as the change);
a process whose cached seats are of another count reads them again under the row's lock.
Existing matches start at 0.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07 03:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch_op:
        batch_op.add_column(
            sa.Column("seats_version", sa.Integer(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch_op:
        batch_op.drop_column("seats_version")
