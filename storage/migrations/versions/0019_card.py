"""The profile card (issue 42): for each rated game's seat holder, the day or turn at
whose end their notebook forced the envelope and that of their accusation. Numbered 0019
so as not to clash with the migrations made alongside it; it follows 0018 (achievements).

Revision ID: 0019
Revises: 0018
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "notebook_moments",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("family", sa.String(length=16), nullable=False),
        sa.Column("forced", sa.Integer(), nullable=True),
        sa.Column("accused", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_notebook_moments_game_id_games")
        ),
        sa.PrimaryKeyConstraint("game_id", "user_id", name=op.f("pk_notebook_moments")),
    )
    op.create_index(
        op.f("ix_notebook_moments_user_id"), "notebook_moments", ["user_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_notebook_moments_user_id"), table_name="notebook_moments")
    op.drop_table("notebook_moments")
