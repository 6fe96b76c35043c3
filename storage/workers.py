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

    async def beat(self, worker: str, now: datetime) -> None:
        """Record that `worker` is alive at `now`."""
        insert = insert_for(self.db.dialect, HeartbeatRecord).values(worker=worker, seen_at=now)
        query = insert.on_conflict_do_update(index_elements=["worker"], set_={"seen_at": now})
        await self.db.run_write(lambda conn: conn.execute(query))

    async def last_seen(self, *, excluding: str | None = None) -> datetime | None:
        """The latest heartbeat of any process (but `excluding`): when a bot last ran."""
        h = HeartbeatRecord
        query = select(func.max(h.seen_at))
        if excluding is not None:
            query = query.where(h.worker != excluding)
        found: datetime | None = await self.db.run_read(lambda conn: conn.execute(query).scalar())
        return found

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
            deadlines = update(d).where(d.claimed_by == worker)
            deadlines = deadlines.values(claimed_by=None, lease_until=None)
            return rowcount(conn, outbox) + rowcount(conn, deadlines)

        return await self.db.run_write(release)
