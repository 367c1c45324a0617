"""admin sessions kept by the server

Signing out of the admin console now ends the session on the server, and "sign out everywhere"
ends them all: each signed-in browser is a row holding only HMAC-SHA-256(admin token, session
id), never the id itself. The signed cookies of revision 0005 are not carried over (they held no
row); admins sign in once more after the upgrade.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 14:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "admin_sessions",
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("digest", name=op.f("pk_admin_sessions")),
    )
    with op.batch_alter_table("admin_sessions", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_admin_sessions_expires_at"), ["expires_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("admin_sessions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_admin_sessions_expires_at"))
    op.drop_table("admin_sessions")
