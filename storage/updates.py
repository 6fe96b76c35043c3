"""Handled updates: a Telegram update delivered again after a crash runs no command twice.

The bot makes a mark for each update it handles (`UpdateMark`) and passes it to each game
command that update runs (Store.execute's `update` argument); each takes the next step of
the mark (`UpdateMark.next_step`) and records (update id, step) in the command's own
transaction. When the update comes again (the process died
after the commit and before Telegram was told the offset), the same step's row is there:
`record` inserts nothing, `ensure_new` finds the row and the command's transaction rolls
back, writing nothing. The primary key settles a race: the second writer's insert waits
for the first's commit, then inserts nothing. No read before the command: a redelivered
update is rare, and looking for it first cost every command a round trip.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.engine import Connection

from storage.database import Database
from storage.models import GameRecord, HandledUpdateRecord
from storage.sql import insert_for, rowcount

# Telegram keeps an unconfirmed update for 24 hours; a row older than that is never needed.
KEEP = timedelta(days=2)


@dataclass(frozen=True)
class UpdateStep:
    """One game command of one update."""

    update_id: int
    step: int


@dataclass
class UpdateMark:
    """An update being handled, and how many game commands it ran so far."""

    update_id: int
    steps: int = 0

    def next_step(self) -> UpdateStep:
        """The step of the update's next game command."""
        step = UpdateStep(self.update_id, self.steps)
        self.steps += 1
        return step


class AlreadyHandled(Exception):
    """This step of this update already ran (and committed) on `game_id`."""

    def __init__(self, game_id: int, last_seq: int) -> None:
        super().__init__(game_id)
        self.game_id = game_id
        self.last_seq = last_seq


def ensure_new(conn: Connection, step: UpdateStep) -> None:
    """Raise AlreadyHandled if this step already ran."""
    h, g = HandledUpdateRecord, GameRecord
    query = (
        select(h.game_id, g.last_seq)
        .join(g, g.id == h.game_id)
        .where(h.update_id == step.update_id, h.step == step.step)
    )
    row = conn.execute(query).first()
    if row is not None:
        raise AlreadyHandled(row.game_id, row.last_seq)


def record(conn: Connection, step: UpdateStep, game_id: int, now: datetime) -> bool:
    """Record the step as run, in the command's transaction; False if it already ran."""
    values = {"update_id": step.update_id, "step": step.step, "game_id": game_id}
    statement = _record_statement(conn.dialect.name)
    return rowcount(conn, statement, values | {"handled_at": now}) == 1


@cache
def _record_statement(dialect: str) -> Any:
    return insert_for(dialect, HandledUpdateRecord).on_conflict_do_nothing()


def record_or_raise(conn: Connection, step: UpdateStep | None, game_id: int, now: datetime) -> None:
    """Record the update's step in the command's transaction; AlreadyHandled if it ran."""
    if step is not None and not record(conn, step, game_id, now):
        ensure_new(conn, step)  # raises AlreadyHandled
        raise AssertionError(f"update {step.update_id} neither new nor recorded")


def handled_among(conn: Connection, update_ids: Iterable[int]) -> set[int]:
    """Those of `update_ids` that already ran a game command."""
    ids = list(update_ids)
    if not ids:
        return set()
    h = HandledUpdateRecord
    query = select(h.update_id).where(h.update_id.in_(ids)).distinct()
    return set(conn.execute(query).scalars())


def newest(conn: Connection) -> int | None:
    """The highest update id that ran a game command, if any."""
    found: int | None = conn.execute(select(func.max(HandledUpdateRecord.update_id))).scalar()
    return found


def prune(conn: Connection, now: datetime) -> int:
    """Forget handled updates older than Telegram could send again; how many went."""
    h = HandledUpdateRecord
    return conn.execute(delete(h).where(h.handled_at < now - KEEP)).rowcount or 0


class HandledUpdates:
    """Questions about handled updates, for the bot's intake."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def among(self, update_ids: Iterable[int]) -> set[int]:
        """Those of `update_ids` that already ran a game command."""
        return await self.db.run_read(handled_among, list(update_ids))

    async def newest(self) -> int | None:
        """The highest update id that ran a game command (updates above it are new)."""
        return await self.db.run_read(newest)

    async def prune(self, now: datetime) -> int:
        """Forget handled updates older than Telegram could send again."""
        return await self.db.run_write(prune, now)
