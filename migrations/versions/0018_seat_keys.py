"""seat keys: more tokens for a seat, for a signed-in player's other devices

Contract v1.2 "Your seats on every device" (issue 42): `POST /api/matches/{id}/seat` gives a
signed-in player a token for a seat they hold, on whichever device asks. Each is one row: only the
token's hash, the match and seat, and the session (device) that asked; one per session and match.
Deleting the session (signing out, a password change ending the other sessions) deletes its keys;
deleting the match deletes them too. The seat's own token (seats.token_hash) is unchanged.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-07 07:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "seat_keys",
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.String(length=16), nullable=False),
        sa.Column("session_id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_seat_keys_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["player_sessions.id"],
            name=op.f("fk_seat_keys_session_id_player_sessions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("digest", name=op.f("pk_seat_keys")),
        sa.UniqueConstraint(
            "session_id", "match_id", name=op.f("uq_seat_keys_session_id_match_id")
        ),
    )
    with op.batch_alter_table("seat_keys", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_seat_keys_match_id"), ["match_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("seat_keys", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seat_keys_match_id"))

    op.drop_table("seat_keys")
