"""A chat's stored defaults leave the player range to each format: the old defaults
(min_players 3, max_players 10, written out in full with every saved setting) become
None, so a 2023 lobby takes its edition's two players; any other value stays the
admins' own.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD_DEFAULTS = {"min_players": 3, "max_players": 10}
chat_settings = sa.table(
    "chat_settings", sa.column("chat_id", sa.BigInteger()), sa.column("settings", sa.Text())
)


def _rewrite(old: Mapping[str, int | None], new: Mapping[str, int | None]) -> None:
    """Each stored row holding `old`'s value for a player count gets `new`'s instead."""
    bind = op.get_bind()
    rows = bind.execute(sa.select(chat_settings.c.chat_id, chat_settings.c.settings)).all()
    for chat_id, text in rows:
        data = json.loads(text)
        changed = {k: new[k] for k, v in old.items() if k in data and data[k] == v}
        if changed:
            bind.execute(
                chat_settings.update()
                .where(chat_settings.c.chat_id == chat_id)
                .values(
                    settings=json.dumps(
                        {**data, **changed}, separators=(",", ":"), ensure_ascii=False
                    )
                )
            )


def upgrade() -> None:
    _rewrite(OLD_DEFAULTS, dict.fromkeys(OLD_DEFAULTS))


def downgrade() -> None:
    _rewrite(dict.fromkeys(OLD_DEFAULTS), OLD_DEFAULTS)
