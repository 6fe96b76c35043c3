"""Deadline rows: the engine's pending deadlines of each game, for the scheduler.

Every command's write makes a game's rows equal `engine.deadlines(state)`
(`wanted_rows`, `deadline_changes`; written by storage.command_write's backends): a
deadline no longer pending disappears, a moved one (pause, resume, extension) gets its new
time. The scheduler reads the next ones, claims the due
ones (a lease, storage.leases) and runs each through Store.execute; the engine ignores a
stale or early deadline command.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, or_, select, update
from sqlalchemy.engine import Connection

from engine import REGISTRY
from engine.codec import Codec, command_to_dict
from engine.commands import Command
from engine.deadlines import deadlines
from engine.state import Game
from storage.database import Database
from storage.leases import lease_rows
from storage.models import DeadlineRecord, DeadlineStatus
from storage.sql import dumps, loads, rowcount


@dataclass(frozen=True)
class DeadlineRow:
    """A stored deadline: run `command` for `game_id` at `due_at`."""

    id: int
    game_id: int
    key: str
    due_at: datetime
    command: dict[str, Any]
    status: DeadlineStatus
    claimed_by: str | None
    lease_until: datetime | None

    def engine_command(self, codec: Codec = REGISTRY.codec) -> Command:
        """The stored command, read with a registry's names (the shipped one's unless told)."""
        return codec.command_from_dict(self.command)


def _row(r: Any) -> DeadlineRow:
    return DeadlineRow(
        id=r.id,
        game_id=r.game_id,
        key=r.key,
        due_at=r.due_at,
        command=loads(r.command),
        status=DeadlineStatus(r.status),
        claimed_by=r.claimed_by,
        lease_until=r.lease_until,
    )


Wanted = dict[str, tuple[datetime, str]]


def wanted_rows(state: Game | None) -> Wanted:
    """The deadline rows a state calls for: key -> (due_at, command JSON)."""
    return {d.key: (d.at, dumps(command_to_dict(d.command))) for d in deadlines(state)}


def due_times(rows: Wanted) -> dict[str, datetime]:
    """When each of a game's deadline rows falls due: key -> due_at."""
    return {key: at for key, (at, _) in rows.items()}


def stored_deadlines(conn: Connection, game_id: int) -> Wanted:
    """The game's deadline rows as stored: key -> (due_at, command JSON)."""
    d = DeadlineRecord
    query = select(d.key, d.due_at, d.command).where(d.game_id == game_id)
    return {r.key: (r.due_at, r.command) for r in conn.execute(query).all()}


def deadline_changes(wanted: Wanted, had: Wanted) -> tuple[list[str], Wanted]:
    """The keys of rows to delete, and the rows to insert or move, to go from had to wanted."""
    gone = [key for key in had if key not in wanted]
    changed = {key: row for key, row in wanted.items() if had.get(key) != row}
    return gone, changed


def _select(conn: Connection, query: Any) -> list[DeadlineRow]:
    return [_row(r) for r in conn.execute(query).all()]


def _upcoming(query: Any, limit: int) -> Any:
    """`query` (of deadline columns) limited to the earliest `limit` pending deadlines."""
    d = DeadlineRecord
    return query.where(d.status == DeadlineStatus.PENDING).order_by(d.due_at, d.id).limit(limit)


def _claim(
    conn: Connection, worker: str, now: datetime, limit: int, lease: timedelta
) -> list[DeadlineRow]:
    d = DeadlineRecord
    free = or_(d.lease_until.is_(None), d.lease_until <= now)
    due = and_(d.status == DeadlineStatus.PENDING, d.due_at <= now, free)
    order = [d.due_at, d.id]
    claimed = lease_rows(
        conn, d, due, order_by=order, limit=limit, worker=worker, now=now, lease=lease
    )
    return sorted((_row(r) for r in claimed), key=lambda r: (r.due_at, r.id))


class Deadlines:
    """What the scheduler asks of the deadline rows."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def upcoming(self, limit: int = 100) -> list[DeadlineRow]:
        """The earliest pending deadlines (to plan timers), due ones included."""
        return await self.db.run_read(_select, _upcoming(select(DeadlineRecord), limit))

    async def upcoming_times(self, limit: int = 100) -> list[tuple[int, str, datetime]]:
        """(game, key, due_at) of the earliest pending deadlines: what timers are planned
        from, read every sweep, so without each row's command to decode."""
        d = DeadlineRecord
        query = _upcoming(select(d.game_id, d.key, d.due_at), limit)

        def read(conn: Connection) -> list[tuple[int, str, datetime]]:
            return [(game, key, due) for game, key, due in conn.execute(query)]

        return await self.db.run_read(read)

    async def claim_due(
        self,
        worker: str,
        now: datetime,
        limit: int = 20,
        lease: timedelta = timedelta(seconds=60),
    ) -> list[DeadlineRow]:
        """Claim due deadlines nobody holds (or whose holder's lease ran out), earliest first."""
        return await self.db.run_write(_claim, worker, now, limit, lease)

    async def postpone(self, row: DeadlineRow, until: datetime) -> bool:
        """A claimed deadline runs at `until` instead (the message that starts its clock is
        still on its way: bot.scheduler); one a command moved or removed meanwhile is left
        as it is. The game's next write sets it back to the engine's moment."""
        d = DeadlineRecord
        query = (
            update(d)
            .where(d.id == row.id, d.due_at == row.due_at, d.status == DeadlineStatus.PENDING)
            .values(due_at=until, claimed_by=None, lease_until=None)
        )
        return bool(await self.db.run_write(rowcount, query))

    async def complete(self, row: DeadlineRow) -> bool:
        """The claimed deadline ran. If the command moved or removed it, this changes nothing;
        if the engine ignored it and it is still there unchanged, it is set done, so a
        deadline the engine does not act on cannot fire forever."""
        d = DeadlineRecord
        query = (
            update(d)
            .where(d.id == row.id, d.due_at == row.due_at, d.status == DeadlineStatus.PENDING)
            .values(status=DeadlineStatus.DONE, claimed_by=None, lease_until=None)
        )
        return bool(await self.db.run_write(rowcount, query))
