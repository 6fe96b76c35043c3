"""Alembic environment: runs on the connection storage.migrate hands over (no alembic.ini)."""

from __future__ import annotations

from typing import Any, Literal

from alembic import context
from alembic.autogenerate.api import AutogenContext

from storage.models import Base, UTCDateTime


def _render_item(kind: str, item: Any, autogen_context: AutogenContext) -> str | Literal[False]:
    """New revisions spell our UTC datetime type as the plain DateTime it stores."""
    if kind == "type" and isinstance(item, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


config = context.config
connection = config.attributes.get("connection")
if connection is None or context.is_offline_mode():
    raise RuntimeError("run migrations through storage.migrate (whodunit db upgrade)")

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=True,  # SQLite alters tables by copying them
    compare_type=True,
    render_item=_render_item,
)
with context.begin_transaction():
    context.run_migrations()
