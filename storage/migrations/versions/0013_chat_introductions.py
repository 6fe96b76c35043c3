"""The bot introduces itself once in a group it is added to, and says once what rights it lacks.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("chat_settings") as batch:
        batch.add_column(sa.Column("introduced_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("rights_told", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("chat_settings") as batch:
        batch.drop_column("rights_told")
        batch.drop_column("introduced_at")
