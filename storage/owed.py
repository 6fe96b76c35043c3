"""Messages owed but composed later: outbox rows stored `owed` by the command that owes
them (its planner's item names a `compose` kind), whose text the bot works out after the
commit (the story of a game: a replay of its whole log, too slow for the transaction).

An owed row is neither claimed by a sender nor holds back its chat. It waits for the owed
rows before it in its chat (a game's story, then the achievements told after it), so a
chat's owed messages are composed, and so sent, in their order. A worker claims it
(a lease, storage.leases: FOR UPDATE SKIP LOCKED on PostgreSQL) to compose it, and
`compose` turns it into an ordinary pending row in one update — only while it is still
owed, so two workers or a restart racing over it queue it once. A composer that dies
leaves its claim to run out (or to `Workers.release_claims`), and the next one composes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, exists, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import aliased

from storage.database import Database
from storage.leases import lease_rows
from storage.models import OutboxRecord, OutboxStatus
from storage.sql import dumps, loads, rowcount

LEASE = timedelta(seconds=60)
TRIES = 10  # claims of one row before its composer gives it up (each failure waits a LEASE)


@dataclass(frozen=True)
class OwedRow:
    """An owed row claimed to be composed: its payload names the `compose` kind."""

    id: int
    key: str
    game_id: int | None
    chat_id: int
    topic_id: int
    payload: dict[str, Any]
    tries: int  # this claim included


def _free(now: datetime) -> Any:
    """Owed rows nobody is composing at `now` (or whose composer's lease ran out), with no
    owed row before them in their chat."""
    o, earlier = OutboxRecord, aliased(OutboxRecord)
    free = or_(o.lease_until.is_(None), o.lease_until <= now)
    first = ~exists().where(
        earlier.chat_id == o.chat_id, earlier.id < o.id, earlier.status == OutboxStatus.OWED
    )
    return and_(o.status == OutboxStatus.OWED, o.next_attempt_at <= now, free, first)


def _any_free(conn: Connection, now: datetime) -> bool:
    return conn.execute(select(OutboxRecord.id).where(_free(now)).limit(1)).first() is not None


def _claim(conn: Connection, worker: str, now: datetime, limit: int) -> list[OwedRow]:
    o = OutboxRecord
    rows = lease_rows(
        conn,
        o,
        _free(now),
        order_by=[o.id],
        limit=limit,
        worker=worker,
        now=now,
        lease=LEASE,
        attempts=o.attempts + 1,
    )
    found = [
        OwedRow(r.id, r.key, r.game_id, r.chat_id, r.topic_id, loads(r.payload), r.attempts)
        for r in rows
    ]
    return sorted(found, key=lambda r: r.id)


class OwedMessages:
    """The composer's side of the owed rows."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def claim(self, worker: str, now: datetime, limit: int = 10) -> list[OwedRow]:
        """Owed rows nobody is composing (or whose composer's lease ran out), oldest first.
        Asked at every sweep: a read first, so a sweep with nothing owed writes nothing."""
        if not await self.db.run_read(_any_free, now):
            return []
        return await self.db.run_write(_claim, worker, now, limit)

    async def compose(self, row: OwedRow, payload: dict[str, Any], now: datetime) -> bool:
        """The row's message, composed: pending from now, for any sender. False when it was
        composed already (another worker was first): nothing changes."""
        o = OutboxRecord
        query = (
            update(o)
            .where(o.id == row.id, o.status == OutboxStatus.OWED)
            .values(
                payload=dumps(payload),
                decoration=bool(payload.get("decoration")),
                status=OutboxStatus.PENDING,
                attempts=0,  # the sender's tries start now
                next_attempt_at=now,
                claimed_by=None,
                lease_until=None,
            )
        )
        return bool(await self.db.run_write(rowcount, query))

    async def give_up(self, row: OwedRow, reason: str) -> bool:
        """Nothing to tell after all (the game is gone), or it failed TRIES times: the row is
        settled as failed."""
        o = OutboxRecord
        query = (
            update(o)
            .where(o.id == row.id, o.status == OutboxStatus.OWED)
            .values(status=OutboxStatus.FAILED, last_error=reason)
            .values(claimed_by=None, lease_until=None)
        )
        return bool(await self.db.run_write(rowcount, query))
