"""Ratings (issue 42): each rating by scope, the games rated in order, and each person's
leaderboard choices. Numbered 0016 so as not to clash with a 0015 made alongside it; it
follows 0014, the head when it was written.

Revision ID: 0016
Revises: 0014
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("family", sa.String(length=16), nullable=False),
        sa.Column("pool", sa.String(length=16), nullable=False),
        sa.Column("subject", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("mu", sa.Float(precision=53), nullable=False),
        sa.Column("sigma", sa.Float(precision=53), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("accused_right", sa.Integer(), nullable=False),
        sa.Column("accused_wrong", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("chat_id", "family", "pool", "subject", name=op.f("pk_ratings")),
    )
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_rated_games_game_id_games")
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_rated_games")),
        sa.UniqueConstraint("seq", name=op.f("uq_rated_games_seq")),
    )
    op.create_table(
        "leaderboard_choices",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("hidden", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("everywhere", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_leaderboard_choices")),
    )


def downgrade() -> None:
    op.drop_table("leaderboard_choices")
    op.drop_table("rated_games")
    op.drop_table("ratings")
