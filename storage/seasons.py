"""A chat's seasons: each new one starts the chat's leaderboards afresh (the ratings across
every chat go on). A season begins in the raters' turn (storage.rating_lock.lock), once
every game ended before it is taken in, after the last of them: every rated game falls on
one side of it, in the stored ratings as in a recompute."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, insert, select
from sqlalchemy.engine import Connection

from storage.database import Database
from storage.rating_lock import lock
from storage.rating_math import FIRST_SEASON
from storage.rating_models import SeasonRecord
from storage.ratings import last_rated, rate_all_pending


class Seasons:
    """Each chat's current season, and the start of a new one."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def current(self, chat_id: int) -> int:
        """The chat's season now (FIRST_SEASON until an admin starts another)."""
        return await self.db.run_read(_current, chat_id)

    async def start(self, chat_id: int, number: int, by: int, at: datetime) -> bool:
        """Begin season `number` in the chat, if it is the one after the current; False
        (nothing changed) when it is not: it began already, or another did since."""
        return await self.db.run_write(_start, chat_id, number, by, at)


def _current(conn: Connection, chat_id: int) -> int:
    s = SeasonRecord
    latest = conn.execute(select(func.max(s.number)).where(s.chat_id == chat_id)).scalar_one()
    return FIRST_SEASON if latest is None else int(latest)


def _start(conn: Connection, chat_id: int, number: int, by: int, at: datetime) -> bool:
    lock(conn)
    if number != _current(conn, chat_id) + 1:
        return False
    rate_all_pending(conn)
    row = {
        "chat_id": chat_id,
        "number": number,
        "after_seq": last_rated(conn),
        "started_at": at,
        "started_by": by,
    }
    conn.execute(insert(SeasonRecord), row)
    return True
