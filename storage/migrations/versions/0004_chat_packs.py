"""A chat's own card pack.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("chat_settings") as batch:
        batch.add_column(sa.Column("pack", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("chat_settings") as batch:
        batch.drop_column("pack")
