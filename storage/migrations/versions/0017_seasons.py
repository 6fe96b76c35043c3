"""Seasons (issue 42): each chat's new leaderboards. A rating belongs to a chat's season
(every rating so far to season 1; those across every chat stay there), and `seasons`
says where each new one begins among the rated games.

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

KEY = ["chat_id", "family", "pool", "subject"]


def upgrade() -> None:
    with op.batch_alter_table("ratings", recreate="auto") as batch:
        batch.add_column(
            sa.Column(
                "season",
                sa.Integer(),
                server_default=sa.text("1"),
                autoincrement=False,
                nullable=False,
            )
        )
        batch.drop_constraint("pk_ratings", type_="primary")
        batch.create_primary_key("pk_ratings", ["chat_id", "season", *KEY[1:]])
    op.create_table(
        "seasons",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("after_seq", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_by", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("chat_id", "number", name=op.f("pk_seasons")),
    )


def downgrade() -> None:
    op.drop_table("seasons")
    op.execute(sa.text("DELETE FROM ratings WHERE season <> 1"))
    with op.batch_alter_table("ratings", recreate="auto") as batch:
        batch.drop_constraint("pk_ratings", type_="primary")
        batch.create_primary_key("pk_ratings", KEY)
        batch.drop_column("season")
