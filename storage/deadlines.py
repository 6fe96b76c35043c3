"""Deadline rows: the engine's pending deadlines of each game, for the scheduler.

`sync_deadlines` runs in every command's transaction and makes a game's rows equal
`engine.deadlines(state)`: a deadline no longer pending disappears, a moved one (pause,
resume, extension) gets its new time. The scheduler reads the next ones, claims the due
ones (a lease; FOR UPDATE SKIP LOCKED on PostgreSQL) and runs each through
Store.execute; the engine ignores a stale or early deadline command.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from engine.codec import command_from_dict, command_to_dict
from engine.commands import Command
from engine.deadlines import deadlines
from engine.state import Game
from storage.database import Database
from storage.models import DeadlineRecord
from storage.sql import dumps, loads

PENDING = "pending"
DONE = "done"


@dataclass(frozen=True)
class DeadlineRow:
    """A stored deadline: run `command` for `game_id` at `due_at`."""

    id: int
    game_id: int
    key: str
    due_at: datetime
    command: dict[str, Any]
    status: str
    claimed_by: str | None
    lease_until: datetime | None

    def engine_command(self) -> Command:
        return command_from_dict(self.command)


def _row(r: Any) -> DeadlineRow:
    return DeadlineRow(
        id=r.id,
        game_id=r.game_id,
        key=r.key,
        due_at=r.due_at,
        command=loads(r.command),
        status=r.status,
        claimed_by=r.claimed_by,
        lease_until=r.lease_until,
    )


async def sync_deadlines(
    conn: AsyncConnection, game_id: int, state: Game | None, now: datetime
) -> None:
    """Make the game's deadline rows match engine.deadlines(state)."""
    d = DeadlineRecord
    wanted = {x.key: (x.at, dumps(command_to_dict(x.command))) for x in deadlines(state)}
    query = select(d.id, d.key, d.due_at, d.command).where(d.game_id == game_id)
    stored = {r.key: r for r in (await conn.execute(query)).all()}
    gone = [r.id for key, r in stored.items() if key not in wanted]
    if gone:
        await conn.execute(delete(d).where(d.id.in_(gone)))
    new = [
        {"game_id": game_id, "key": key, "due_at": at, "command": command}
        | {"status": PENDING, "updated_at": now}
        for key, (at, command) in wanted.items()
        if key not in stored
    ]
    if new:
        await conn.execute(insert(DeadlineRecord), new)
    for key, (at, command) in wanted.items():
        old = stored.get(key)
        if old is not None and (old.due_at != at or old.command != command):
            moved = dict(due_at=at, command=command, status=PENDING, updated_at=now)
            await conn.execute(
                update(d).where(d.id == old.id).values(claimed_by=None, lease_until=None, **moved)
            )


class DeadlineStore:
    """What the scheduler asks of the deadline rows."""

    db: Database

    async def next_deadlines(self, limit: int = 100) -> list[DeadlineRow]:
        """The earliest pending deadlines (to plan timers), due ones included."""
        d = DeadlineRecord
        query = select(d).where(d.status == PENDING).order_by(d.due_at, d.id).limit(limit)
        async with self.db.read() as conn:
            return [_row(r) for r in (await conn.execute(query)).all()]

    async def overdue_deadlines(self, now: datetime, limit: int = 100) -> list[DeadlineRow]:
        """Pending deadlines whose time has come (missed while down, or due right now)."""
        d = DeadlineRecord
        query = (
            select(d)
            .where(d.status == PENDING, d.due_at <= now)
            .order_by(d.due_at, d.id)
            .limit(limit)
        )
        async with self.db.read() as conn:
            return [_row(r) for r in (await conn.execute(query)).all()]

    async def claim_due_deadlines(
        self,
        worker: str,
        now: datetime,
        limit: int = 20,
        lease: timedelta = timedelta(seconds=60),
    ) -> list[DeadlineRow]:
        """Claim due deadlines nobody holds (or whose holder's lease ran out), earliest first."""
        d = DeadlineRecord
        free = or_(d.lease_until.is_(None), d.lease_until <= now)
        candidates = (
            select(d.id)
            .where(d.status == PENDING, d.due_at <= now, free)
            .order_by(d.due_at, d.id)
            .limit(limit)
        )
        if self.db.dialect == "postgresql":
            candidates = candidates.with_for_update(of=d, skip_locked=True)
        chosen = candidates.cte("chosen")
        claim = (
            update(d)
            .where(d.id.in_(select(chosen.c.id)))
            .values(claimed_by=worker, lease_until=now + lease)
            .returning(d)
        )
        async with self.db.write() as conn:
            rows = [_row(r) for r in (await conn.execute(claim)).all()]
        return sorted(rows, key=lambda r: (r.due_at, r.id))

    async def complete_deadline(self, row: DeadlineRow) -> bool:
        """The claimed deadline ran. If the command moved or removed it, this changes nothing;
        if the engine ignored it and it is still there unchanged, it is set done, so a
        deadline the engine does not act on cannot fire forever."""
        d = DeadlineRecord
        query = (
            update(d)
            .where(d.id == row.id, d.due_at == row.due_at, d.status == PENDING)
            .values(status=DONE, claimed_by=None, lease_until=None)
        )
        async with self.db.write() as conn:
            return bool((await conn.execute(query)).rowcount)

    async def release_deadline(self, row: DeadlineRow) -> bool:
        """Give a claimed deadline back at once (the run failed and should be retried)."""
        d = DeadlineRecord
        query = (
            update(d)
            .where(d.id == row.id, d.claimed_by == row.claimed_by)
            .values(claimed_by=None, lease_until=None)
        )
        async with self.db.write() as conn:
            return bool((await conn.execute(query)).rowcount)
