"""people: follows, blocks, direct challenges, notifications, reports, moderation, sanctions

Issue 43 (contract v1.2 "People") in one revision, so the features built on it share one schema:
- follows and blocks between players; a player's `challenges_from` setting, `moderator` flag,
  the notification kinds also sent by Web Push (`push_kinds`), and `created_from`, a keyed hash
  of the address that made the player (issue 40, finding 22: rating farming);
- direct challenges (the waiting match each one made), the bell's notifications;
- reports, the moderation actions taken (the player's history), the sanctions in force, and the
  record of seats abandoned;
- chat lines gain the writer's player (blocks hide lines both ways) and `hidden` (a line the word
  list marked is shown only to its writer).
Every old row keeps its meaning: the new player columns take their defaults, old chat lines have
no known writer and are not hidden.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-07 06:15:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    op.create_table(
        "abandonments",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("player", sa.String(length=32), nullable=False),
        sa.Column("match_id", sa.String(length=32), nullable=True),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_abandonments_match_id_matches"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["player"],
            ["players.id"],
            name=op.f("fk_abandonments_player_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_abandonments")),
    )
    with op.batch_alter_table("abandonments", schema=None) as batch_op:
        batch_op.create_index("ix_abandonments_player_at", ["player", "created_at"], unique=False)

    op.create_table(
        "blocks",
        sa.Column("blocker", sa.String(length=32), nullable=False),
        sa.Column("blocked", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["blocked"], ["players.id"], name=op.f("fk_blocks_blocked_players"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["blocker"], ["players.id"], name=op.f("fk_blocks_blocker_players"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("blocker", "blocked", name=op.f("pk_blocks")),
    )
    with op.batch_alter_table("blocks", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_blocks_blocked"), ["blocked"], unique=False)

    op.create_table(
        "direct_challenges",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("challenger", sa.String(length=32), nullable=False),
        sa.Column("target", sa.String(length=32), nullable=False),
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("clock", sa.String(length=16), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("target_seat", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["challenger"],
            ["players.id"],
            name=op.f("fk_direct_challenges_challenger_players"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_direct_challenges_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["target"],
            ["players.id"],
            name=op.f("fk_direct_challenges_target_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_direct_challenges")),
    )
    with op.batch_alter_table("direct_challenges", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_direct_challenges_challenger"), ["challenger"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_direct_challenges_expires_at"), ["expires_at"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_direct_challenges_match_id"), ["match_id"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_direct_challenges_target"), ["target"], unique=False)

    op.create_table(
        "follows",
        sa.Column("follower", sa.String(length=32), nullable=False),
        sa.Column("followee", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["followee"],
            ["players.id"],
            name=op.f("fk_follows_followee_players"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["follower"],
            ["players.id"],
            name=op.f("fk_follows_follower_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("follower", "followee", name=op.f("pk_follows")),
    )
    with op.batch_alter_table("follows", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_follows_followee"), ["followee"], unique=False)

    op.create_table(
        "moderation_actions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("player", sa.String(length=32), nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("scope", sa.String(length=16), nullable=True),
        sa.Column("until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("by", sa.String(length=64), nullable=False),
        sa.Column("report_ids", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("acknowledged_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["player"],
            ["players.id"],
            name=op.f("fk_moderation_actions_player_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_moderation_actions")),
    )
    with op.batch_alter_table("moderation_actions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_moderation_actions_player"), ["player"], unique=False)

    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("player", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("read_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["player"],
            ["players.id"],
            name=op.f("fk_notifications_player_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notifications")),
    )
    with op.batch_alter_table("notifications", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_notifications_created_at"), ["created_at"], unique=False
        )
        batch_op.create_index("ix_notifications_player_id", ["player", "id"], unique=False)

    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("reporter", sa.String(length=32), nullable=True),
        sa.Column("player", sa.String(length=32), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("text", sa.String(length=500), nullable=True),
        sa.Column("match_id", sa.String(length=32), nullable=True),
        sa.Column("chat_id", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("outcome", sa.String(length=16), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_reports_match_id_matches"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["player"], ["players.id"], name=op.f("fk_reports_player_players"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["reporter"],
            ["players.id"],
            name=op.f("fk_reports_reporter_players"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reports")),
    )
    with op.batch_alter_table("reports", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_reports_created_at"), ["created_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_reports_player"), ["player"], unique=False)
        batch_op.create_index(batch_op.f("ix_reports_reporter"), ["reporter"], unique=False)
        batch_op.create_index(batch_op.f("ix_reports_status"), ["status"], unique=False)

    op.create_table(
        "sanctions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("player", sa.String(length=32), nullable=False),
        sa.Column("scope", sa.String(length=16), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player"], ["players.id"], name=op.f("fk_sanctions_player_players"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sanctions")),
    )
    with op.batch_alter_table("sanctions", schema=None) as batch_op:
        batch_op.create_index("ix_sanctions_player_until", ["player", "until"], unique=False)

    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.add_column(sa.Column("player", sa.String(length=32), nullable=True))
        batch_op.add_column(
            sa.Column("hidden", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.create_foreign_key(
            batch_op.f("fk_chat_messages_player_players"),
            "players",
            ["player"],
            ["id"],
            ondelete="SET NULL",
        )

    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "challenges_from", sa.String(length=16), server_default="everyone", nullable=False
            )
        )
        batch_op.add_column(
            sa.Column("moderator", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.add_column(sa.Column("push_kinds", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("created_from", sa.String(length=64), nullable=True))
        batch_op.create_index(batch_op.f("ix_players_created_from"), ["created_from"], unique=False)


def downgrade() -> None:

    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_players_created_from"))
        batch_op.drop_column("created_from")
        batch_op.drop_column("push_kinds")
        batch_op.drop_column("moderator")
        batch_op.drop_column("challenges_from")

    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_chat_messages_player_players"), type_="foreignkey")
        batch_op.drop_column("hidden")
        batch_op.drop_column("player")

    with op.batch_alter_table("sanctions", schema=None) as batch_op:
        batch_op.drop_index("ix_sanctions_player_until")

    op.drop_table("sanctions")
    with op.batch_alter_table("reports", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_reports_status"))
        batch_op.drop_index(batch_op.f("ix_reports_reporter"))
        batch_op.drop_index(batch_op.f("ix_reports_player"))
        batch_op.drop_index(batch_op.f("ix_reports_created_at"))

    op.drop_table("reports")
    with op.batch_alter_table("notifications", schema=None) as batch_op:
        batch_op.drop_index("ix_notifications_player_id")
        batch_op.drop_index(batch_op.f("ix_notifications_created_at"))

    op.drop_table("notifications")
    with op.batch_alter_table("moderation_actions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_moderation_actions_player"))

    op.drop_table("moderation_actions")
    with op.batch_alter_table("follows", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_follows_followee"))

    op.drop_table("follows")
    with op.batch_alter_table("direct_challenges", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_direct_challenges_target"))
        batch_op.drop_index(batch_op.f("ix_direct_challenges_match_id"))
        batch_op.drop_index(batch_op.f("ix_direct_challenges_expires_at"))
        batch_op.drop_index(batch_op.f("ix_direct_challenges_challenger"))

    op.drop_table("direct_challenges")
    with op.batch_alter_table("blocks", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_blocks_blocked"))

    op.drop_table("blocks")
    with op.batch_alter_table("abandonments", schema=None) as batch_op:
        batch_op.drop_index("ix_abandonments_player_at")

    op.drop_table("abandonments")
