"""Tournaments

Issue 46, contract v1.2 "Tournaments": a tournament (its game, format, clock, start, length or
rounds, limits, status), each player's entry in it (score, streak, what pairing respects, the
game they play now), each game (an ordinary match) and the players on its seats with what each
scored, and what admins did to it. Only new tables: nothing stored before changes.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-07 14:47:03.777157
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("format", sa.String(length=16), nullable=False),
        sa.Column("clock", sa.String(length=16), nullable=False),
        sa.Column("players_per_game", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("minutes", sa.Integer(), nullable=True),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("max_players", sa.Integer(), nullable=False),
        sa.Column("min_rating", sa.Integer(), nullable=True),
        sa.Column("min_games", sa.Integer(), nullable=True),
        sa.Column("join_code", sa.String(length=32), nullable=True),
        sa.Column("creator", sa.String(length=32), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("paused", sa.Boolean(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["creator"],
            ["players.id"],
            name=op.f("fk_tournaments_creator_players"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tournaments_created_at"), ["created_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_tournaments_creator"), ["creator"], unique=False)
        batch_op.create_index(batch_op.f("ix_tournaments_starts_at"), ["starts_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_tournaments_status"), ["status"], unique=False)

    op.create_table(
        "tournament_events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tournament_id", sa.String(length=32), nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("by", sa.String(length=64), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_events_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_events")),
    )
    with op.batch_alter_table("tournament_events", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tournament_events_tournament_id"), ["tournament_id"], unique=False
        )

    op.create_table(
        "tournament_games",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tournament_id", sa.String(length=32), nullable=False),
        sa.Column("match_id", sa.String(length=32), nullable=True),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_tournament_games_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_games_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_games")),
        sa.UniqueConstraint("match_id", name=op.f("uq_tournament_games_match_id")),
    )
    with op.batch_alter_table("tournament_games", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tournament_games_tournament_id"), ["tournament_id"], unique=False
        )

    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.String(length=32), nullable=False),
        sa.Column("player", sa.String(length=32), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("streak", sa.Integer(), nullable=False),
        sa.Column("vp", sa.Integer(), nullable=False),
        sa.Column("first_seats", sa.Integer(), nullable=False),
        sa.Column("second_seats", sa.Integer(), nullable=False),
        sa.Column("last_seat", sa.Integer(), nullable=True),
        sa.Column("last_opponent", sa.String(length=32), nullable=True),
        sa.Column("match_id", sa.String(length=32), nullable=True),
        sa.Column("ready_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("present", sa.Boolean(), nullable=False),
        sa.Column("withdrawn", sa.Boolean(), nullable=False),
        sa.Column("removed", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player"],
            ["players.id"],
            name=op.f("fk_tournament_players_player_players"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_players_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "player", name=op.f("pk_tournament_players")),
    )
    with op.batch_alter_table("tournament_players", schema=None) as batch_op:
        batch_op.create_index("ix_tournament_players_player", ["player"], unique=False)

    op.create_table(
        "tournament_seats",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.String(length=16), nullable=False),
        sa.Column("berserk", sa.Boolean(), nullable=False),
        sa.Column("outcome", sa.String(length=8), nullable=True),
        sa.Column("points", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["tournament_games.id"],
            name=op.f("fk_tournament_seats_game_id_tournament_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player"],
            ["players.id"],
            name=op.f("fk_tournament_seats_player_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "player", name=op.f("pk_tournament_seats")),
    )
    with op.batch_alter_table("tournament_seats", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tournament_seats_player"), ["player"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("tournament_seats", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_seats_player"))

    op.drop_table("tournament_seats")
    with op.batch_alter_table("tournament_players", schema=None) as batch_op:
        batch_op.drop_index("ix_tournament_players_player")

    op.drop_table("tournament_players")
    with op.batch_alter_table("tournament_games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_games_tournament_id"))

    op.drop_table("tournament_games")
    with op.batch_alter_table("tournament_events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_events_tournament_id"))

    op.drop_table("tournament_events")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournaments_status"))
        batch_op.drop_index(batch_op.f("ix_tournaments_starts_at"))
        batch_op.drop_index(batch_op.f("ix_tournaments_creator"))
        batch_op.drop_index(batch_op.f("ix_tournaments_created_at"))

    op.drop_table("tournaments")
