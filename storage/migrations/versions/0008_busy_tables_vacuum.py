"""PostgreSQL: autovacuum keeps up with the tables every message and deadline rewrites.

Each sent message moves its outbox row out of the partial index of unfinished rows, and
each deadline that ran changes its row: with the default thresholds (20% of the table)
dead index entries pile up between vacuums on a large table and every claim walks over
them. Vacuum these tables after 1% (at least 500 rows) changed. SQLite: nothing to do.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("outbox", "deadlines", "handled_updates", "send_slots")
SETTINGS = (
    "autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 500, "
    "autovacuum_analyze_scale_factor = 0.02, autovacuum_analyze_threshold = 500"
)


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for table in TABLES:
        op.execute(f"ALTER TABLE {table} SET ({SETTINGS})")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    names = ", ".join(part.split("=")[0].strip() for part in SETTINGS.split(","))
    for table in TABLES:
        op.execute(f"ALTER TABLE {table} RESET ({names})")
