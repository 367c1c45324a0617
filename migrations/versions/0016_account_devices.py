"""account devices: the browsers that have signed in to each account (a hash of their cookie)

A sign-in from a browser that has signed in to the account before (it holds a device cookie the
server gave it then) is counted per device rather than against the slower limit every unknown
browser shares, so a guesser spreading over many addresses cannot lock the owner out of their
own account (issue 40, finding 10). One row per (account, device), only the SHA-256 of the
cookie's value; deleted with the player.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07 04:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "account_devices",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_account_devices_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", "digest", name=op.f("pk_account_devices")),
    )


def downgrade() -> None:
    op.drop_table("account_devices")
