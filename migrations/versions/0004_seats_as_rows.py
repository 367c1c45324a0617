"""seats as rows, a game per match

A match records its game. Every seat is a row (name, kind human|bot, token hash once claimed,
player, last seen) instead of the matches.editor_kind / nixon_kind columns; invites point at a seat
name; a rematch's per-seat claimed flags are its new match's seat rows (a token hash once claimed)
instead of rematches.claimed_editor / claimed_nixon.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 09:05:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SEATS = ("editor", "nixon")  # the only game before this revision was Watergate


def upgrade() -> None:
    # matches is the parent of every other table: it is altered in place (never recreated, which
    # on SQLite would cascade-delete the children), so columns are added and dropped natively
    with op.batch_alter_table("matches", recreate="never") as batch_op:
        batch_op.add_column(
            sa.Column("game", sa.String(length=32), server_default="watergate", nullable=False)
        )

    with op.batch_alter_table("seats") as batch_op:
        batch_op.alter_column("role", new_column_name="name", type_=sa.String(length=16))
        batch_op.add_column(sa.Column("kind", sa.String(length=8), server_default="human"))
        batch_op.add_column(sa.Column("player", sa.String(length=64), nullable=True))
        batch_op.alter_column("token_hash", existing_type=sa.String(length=64), nullable=True)
        batch_op.drop_constraint("uq_seats_match_id_role", type_="unique")
    for seat in SEATS:
        # computer seats, and people's seats not claimed yet (a pending invite or rematch)
        op.execute(
            sa.text(
                "INSERT INTO seats (match_id, name, kind, token_hash, created_at)"
                f" SELECT m.id, :seat, m.{seat}_kind, NULL, m.created_at FROM matches m"
                " WHERE NOT EXISTS (SELECT 1 FROM seats s WHERE s.match_id = m.id"
                " AND s.name = :seat)"
            ).bindparams(seat=seat)
        )
    with op.batch_alter_table("seats") as batch_op:
        batch_op.alter_column(
            "kind", existing_type=sa.String(length=8), server_default=None, nullable=False
        )
        batch_op.create_unique_constraint(op.f("uq_seats_match_id_name"), ["match_id", "name"])

    with op.batch_alter_table("invites") as batch_op:
        batch_op.alter_column("role", new_column_name="seat", type_=sa.String(length=16))

    with op.batch_alter_table("rematches") as batch_op:
        batch_op.drop_column("claimed_editor")
        batch_op.drop_column("claimed_nixon")

    with op.batch_alter_table("matches", recreate="never") as batch_op:
        batch_op.drop_column("editor_kind")
        batch_op.drop_column("nixon_kind")


def downgrade() -> None:
    with op.batch_alter_table("matches", recreate="never") as batch_op:
        for seat in SEATS:
            batch_op.add_column(
                sa.Column(
                    f"{seat}_kind", sa.String(length=8), server_default="human", nullable=False
                )
            )
    for seat in SEATS:
        op.execute(
            sa.text(
                f"UPDATE matches SET {seat}_kind = COALESCE((SELECT s.kind FROM seats s"
                " WHERE s.match_id = matches.id AND s.name = :seat), 'human')"
            ).bindparams(seat=seat)
        )

    with op.batch_alter_table("rematches") as batch_op:
        batch_op.add_column(
            sa.Column("claimed_editor", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.add_column(
            sa.Column("claimed_nixon", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    for old, new in (("editor", "nixon"), ("nixon", "editor")):  # roles swap in a rematch
        op.execute(
            sa.text(
                f"UPDATE rematches SET claimed_{old} = EXISTS (SELECT 1 FROM seats s"
                " WHERE s.match_id = rematches.new_match_id AND s.name = :new"
                " AND s.token_hash IS NOT NULL)"
            ).bindparams(new=new)
        )

    with op.batch_alter_table("invites") as batch_op:
        batch_op.alter_column("seat", new_column_name="role", type_=sa.String(length=8))

    op.execute(sa.text("DELETE FROM seats WHERE token_hash IS NULL"))
    with op.batch_alter_table("seats") as batch_op:
        batch_op.drop_constraint("uq_seats_match_id_name", type_="unique")
        batch_op.alter_column("token_hash", existing_type=sa.String(length=64), nullable=False)
        batch_op.drop_column("player")
        batch_op.drop_column("kind")
        batch_op.alter_column("name", new_column_name="role", type_=sa.String(length=8))
    with op.batch_alter_table("seats") as batch_op:
        batch_op.create_unique_constraint(op.f("uq_seats_match_id_role"), ["match_id", "role"])

    with op.batch_alter_table("matches", recreate="never") as batch_op:
        batch_op.drop_column("game")
