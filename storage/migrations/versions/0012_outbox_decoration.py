"""Outbox rows that only tell (an index's edit) give way to later ones of their chat.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A constant default: no table rewrite on either backend (the outbox may be long).
    op.add_column(
        "outbox", sa.Column("decoration", sa.Boolean(), server_default=sa.false(), nullable=False)
    )


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("decoration")
