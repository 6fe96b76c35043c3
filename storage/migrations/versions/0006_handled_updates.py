"""Telegram updates whose game command ran, so that a redelivered update runs nothing.

Revision ID: 0006
Revises: 0005
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
        "handled_updates",
        sa.Column("update_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("step", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("handled_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("update_id", "step", name=op.f("pk_handled_updates")),
    )
    op.create_index(
        op.f("ix_handled_updates_handled_at"), "handled_updates", ["handled_at"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_handled_updates_handled_at"), table_name="handled_updates")
    op.drop_table("handled_updates")
