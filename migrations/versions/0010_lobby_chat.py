"""lobby, chat and turn notices: challenges, chat_messages, push_subscriptions, push_keys

Four new tables and nothing else changed: the lobby's open public challenges (one per public
waiting match, with when its creator was last seen connected), the table chat of each match, the
Web Push subscriptions of players, and the server's VAPID key pair.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01 18:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "challenges",
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("creator", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("open_role", sa.String(length=16), nullable=False),
        sa.Column("clock", sa.String(length=16), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_challenges_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["creator"],
            ["players.id"],
            name=op.f("fk_challenges_creator_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_challenges")),
    )
    op.create_index(op.f("ix_challenges_creator"), "challenges", ["creator"], unique=False)
    op.create_index(op.f("ix_challenges_created_at"), "challenges", ["created_at"], unique=False)
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=24), nullable=False),
        sa.Column("text", sa.String(length=500), nullable=False),
        sa.Column("phrase", sa.String(length=16), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_chat_messages_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_messages")),
    )
    op.create_index(op.f("ix_chat_messages_match_id"), "chat_messages", ["match_id"], unique=False)
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("player", sa.String(length=32), nullable=False),
        sa.Column("endpoint", sa.String(length=1024), nullable=False),
        sa.Column("p256dh", sa.String(length=128), nullable=False),
        sa.Column("auth", sa.String(length=64), nullable=False),
        sa.Column("lang", sa.String(length=8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player"],
            ["players.id"],
            name=op.f("fk_push_subscriptions_player_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_subscriptions")),
        sa.UniqueConstraint("endpoint", name=op.f("uq_push_subscriptions_endpoint")),
    )
    op.create_index(
        op.f("ix_push_subscriptions_player"), "push_subscriptions", ["player"], unique=False
    )
    op.create_table(
        "push_keys",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("private_pem", sa.String(length=512), nullable=False),
        sa.Column("public_key", sa.String(length=128), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_keys")),
    )


def downgrade() -> None:
    op.drop_table("push_keys")
    op.drop_index(op.f("ix_push_subscriptions_player"), table_name="push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_index(op.f("ix_chat_messages_match_id"), table_name="chat_messages")
    op.drop_table("chat_messages")
    op.drop_index(op.f("ix_challenges_created_at"), table_name="challenges")
    op.drop_index(op.f("ix_challenges_creator"), table_name="challenges")
    op.drop_table("challenges")
