"""Achievements (issue 42): each achievement a person earned, once, and each person's tally
over their rated games. Numbered 0018 so as not to clash with a 0017 made alongside it.

Revision ID: 0018
Revises: 0017
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
        "achievements",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("key", sa.String(length=32), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("earned_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_achievements_game_id_games")
        ),
        sa.PrimaryKeyConstraint("user_id", "key", name=op.f("pk_achievements")),
    )
    op.create_index(op.f("ix_achievements_game_id"), "achievements", ["game_id"])
    op.create_table(
        "achievement_tallies",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("streak", sa.Integer(), nullable=False),
        sa.Column("clean", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_achievement_tallies")),
    )


def downgrade() -> None:
    op.drop_table("achievement_tallies")
    op.drop_index(op.f("ix_achievements_game_id"), table_name="achievements")
    op.drop_table("achievements")
