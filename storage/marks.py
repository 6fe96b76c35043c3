"""Marking messages sent: each mark is written at once, and marks that arrive while one is
being written go together in the next transaction (a group commit, never a wait).

A mark may also claim the next row of its chat for the same sender, in the same
transaction, when that sender knows rows wait behind the one it sent: the chat's next
message then needs no claim of its own. On PostgreSQL the marks written together, claims
included, are one statement on the driver (storage.marks_driver), not a transaction.

The mark of an edit may be lazy: an edit made twice shows the same, so a crash before its
mark costs nothing visible. A lazy mark joins the next transaction that writes marks, or
is written after LAZY_SECONDS, or at once when `flush()` is called (a row of its chat is
waiting behind it).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from sqlalchemy import bindparam, update
from sqlalchemy.engine import Connection

from storage.claims import Mark, Marked, claim_in_chats
from storage.database import Database
from storage.marks_driver import fits, marks_on_driver
from storage.models import OutboxRecord, OutboxStatus
from storage.sql import rowcount

__all__ = ["LAZY_SECONDS", "Mark", "Marked", "Marks"]
LAZY_SECONDS = 0.5


class Marks:
    """The marks of one process, written as they come, together when they meet."""

    def __init__(self, db: Database, lease: timedelta = timedelta(seconds=60)) -> None:
        self.db = db
        self.lease = lease
        self._waiting: list[Mark] = []
        self._writer: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._flushed = False  # flush() asked for the waiting lazy marks to be written now
        self.on_driver = True  # PostgreSQL: a mark that claims next in one statement
        self.transactions = 0  # for benchmarks: how many transactions wrote the marks
        self.written = 0

    @property
    def waiting(self) -> int:
        """How many marks wait to be written (lazy ones for their moment, or a write)."""
        return len(self._waiting)

    async def mark(self, mark: Mark) -> Marked:
        """Write the mark (with the marks that meet it); after its COMMIT, its outcome."""
        self._waiting.append(mark)
        if not mark.lazy:
            self.flush()
        elif self._timer is None and (self._writer is None or self._writer.done()):
            self._timer = asyncio.get_running_loop().call_later(LAZY_SECONDS, self.flush)
        return await asyncio.shield(mark.done)

    def flush(self) -> None:
        """Write the waiting marks now (unless a write is under way: they join the next)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._flushed = True
        if self._waiting and (self._writer is None or self._writer.done()):
            self._writer = asyncio.get_running_loop().create_task(self._write_waiting())

    async def _write_waiting(self) -> None:
        while self._waiting:
            if not self._flushed and all(mark.lazy for mark in self._waiting):
                # Only lazy marks came during the last write: they wait for the next mark
                # (or flush, or their moment) as they would have with no write under way.
                if self._timer is None:
                    loop = asyncio.get_running_loop()
                    self._timer = loop.call_later(LAZY_SECONDS, self.flush)
                return
            self._flushed = False
            batch, self._waiting = self._waiting, []
            try:
                results = await self._write(batch)
            except Exception as error:  # each waiting sender decides what to do
                for mark in batch:
                    if not mark.done.done():
                        mark.done.set_exception(error)
                continue
            for mark, result in zip(batch, results, strict=True):
                if not mark.done.done():
                    mark.done.set_result(result)

    async def _write(self, batch: list[Mark]) -> list[Marked]:
        self.transactions += 1
        self.written += len(batch)

        def after(_: object) -> None:
            for mark in batch:
                if mark.committed is not None:
                    mark.committed()

        def body(conn: Connection) -> list[Marked]:
            return _write_marks(conn, batch, self.lease)

        if self.db.dialect == "postgresql" and self.on_driver and fits(batch):
            # One statement (the claims of the chats' next rows in it).
            marked = await self.db.run_driver(
                lambda driver: marks_on_driver(driver, batch, self.lease), urgent=True
            )
            after(None)
            return marked
        if len(batch) == 1 and batch[0].next_for is None:  # one UPDATE: autocommit on PG
            return await self.db.run_transaction(
                body, after_commit=after, urgent=True, autocommit=True
            )
        return await self.db.run_transaction(body, after_commit=after, urgent=True)


@functools.cache
def _mark_statement() -> Any:
    """The mark of one row, built once: parameters row, message, at."""
    o = OutboxRecord
    return (
        update(o)
        .where(o.id == bindparam("row"), o.status.in_(OutboxStatus.unfinished()))
        .values(
            claimed_by=None,
            lease_until=None,
            status=OutboxStatus.SENT,
            sent_message_id=bindparam("message"),
            sent_at=bindparam("at"),
            last_error=None,
        )
    )


def _write_marks(conn: Connection, batch: Sequence[Mark], lease: timedelta) -> list[Marked]:
    statement = _mark_statement()
    settled = []
    for mark in batch:
        mark.asked_next = mark.next_for is not None
        params = {"row": mark.row_id, "message": mark.message_id, "at": mark.now}
        settled.append(rowcount(conn, statement, params) == 1)
    wanted = {m.next_for[1]: (m.next_for[0], m.now) for m in batch if m.next_for is not None}
    claimed = claim_in_chats(conn, wanted, lease) if wanted else {}
    results: list[Marked] = []
    for mark, ok in zip(batch, settled, strict=True):
        chat = mark.next_for[1] if mark.next_for is not None else None
        results.append((ok, claimed.pop(chat, []) if chat is not None else []))
    return results
