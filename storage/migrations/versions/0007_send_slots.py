"""The outbound limiter's slots and pauses, shared by the workers through PostgreSQL.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "send_slots",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("at", sa.Float(precision=53), nullable=False),
        sa.Column("answered", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_send_slots")),
    )
    op.create_index("ix_send_slots_chat_id_at", "send_slots", ["chat_id", "at"], unique=False)
    op.create_table(
        "send_pauses",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("until", sa.Float(precision=53), nullable=False),
        sa.PrimaryKeyConstraint("chat_id", name=op.f("pk_send_pauses")),
    )


def downgrade() -> None:
    op.drop_table("send_pauses")
    op.drop_index("ix_send_slots_chat_id_at", table_name="send_slots")
    op.drop_table("send_slots")
