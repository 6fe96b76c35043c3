"""Bot processes: heartbeats (to tell downtime from lateness) and the claims they hold."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select, update
from sqlalchemy.engine import Connection

from storage.database import Database
from storage.models import DeadlineRecord, HeartbeatRecord, OutboxRecord, OutboxStatus
from storage.sql import insert_for, rowcount


class Workers:
    """Who is alive, and giving back what a dead process had claimed."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def beat(self, worker: str, now: datetime) -> datetime | None:
        """Record that `worker` is alive at `now`; in the same transaction, the latest
        heartbeat of any other process (when a bot last ran beside or before this one)."""
        h = HeartbeatRecord
        insert = insert_for(self.db.dialect, h).values(worker=worker, seen_at=now)
        query = insert.on_conflict_do_update(index_elements=["worker"], set_={"seen_at": now})
        others = select(func.max(h.seen_at)).where(h.worker != worker)

        def write(conn: Connection) -> datetime | None:
            conn.execute(query)
            found: datetime | None = conn.execute(others).scalar()
            return found

        return await self.db.run_write(write)

    async def claim_holders(self) -> set[str]:
        """Workers that hold an outbox row or a deadline right now."""

        def holders(conn: Connection) -> set[str]:
            found: set[str] = set()
            for model in (OutboxRecord, DeadlineRecord):
                query = select(model.claimed_by).where(model.claimed_by.is_not(None)).distinct()
                found.update(w for w in conn.execute(query).scalars() if w is not None)
            return found

        return await self.db.run_read(holders)

    async def release_claims(self, worker: str) -> int:
        """Give back everything a (dead) worker claimed, without waiting for its leases."""

        def release(conn: Connection) -> int:
            o, d = OutboxRecord, DeadlineRecord
            claimed = (o.claimed_by == worker) & (o.status == OutboxStatus.CLAIMED)
            outbox = update(o).where(claimed)
            outbox = outbox.values(status=OutboxStatus.PENDING, claimed_by=None, lease_until=None)
            composing = (o.claimed_by == worker) & (o.status == OutboxStatus.OWED)
            owed = update(o).where(composing).values(claimed_by=None, lease_until=None)
            deadlines = update(d).where(d.claimed_by == worker)
            deadlines = deadlines.values(claimed_by=None, lease_until=None)
            return rowcount(conn, outbox) + rowcount(conn, owed) + rowcount(conn, deadlines)

        return await self.db.run_write(release)
