"""The async engine: SQLite tuned for several writers (WAL, BEGIN IMMEDIATE), or PostgreSQL.

SQLite: the sqlite3 driver's own transaction handling is switched off
(`isolation_level = None` on each driver connection) and SQLAlchemy's `begin` event
emits BEGIN itself, as the SQLAlchemy SQLite documentation recommends
("Enabling Non-Legacy SQLite Transactional Modes"). A write transaction emits
BEGIN IMMEDIATE: it takes the write lock first, waiting up to the busy timeout, so two
writers queue instead of failing halfway with "database is locked". A read transaction
emits a plain (deferred) BEGIN, which in WAL mode never blocks and sees one snapshot.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import event
from sqlalchemy.engine import URL, Connection
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from storage.config import database_url, is_sqlite

P = ParamSpec("P")
T = TypeVar("T")
BUSY_TIMEOUT_MS = 30_000
_WRITE = "whodunit_write"


class Database:
    """One async engine and the two kinds of transaction the stores use."""

    def __init__(self, url: str | URL | None = None, **engine_args: Any) -> None:
        self.url = database_url(url if isinstance(url, str) or url is None else str(url))
        self.sqlite = is_sqlite(self.url)
        if not self.sqlite:
            engine_args.setdefault("pool_pre_ping", True)
            engine_args.setdefault("pool_size", 10)
        self.engine: AsyncEngine = create_async_engine(self.url, **engine_args)
        if self.sqlite:
            _tune_sqlite(self.engine)
        self._writer = self.engine.execution_options(**{_WRITE: True})
        # SQLite has one writer at a time: queue this process's writers here, in order,
        # rather than in SQLite's busy handler (which polls); other processes still
        # wait for each other through the busy timeout.
        self._write_lock = asyncio.Lock() if self.sqlite else None

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction (BEGIN IMMEDIATE on SQLite); commits unless an error escapes."""
        async with AsyncExitStack() as stack:
            if self._write_lock is not None:
                await stack.enter_async_context(self._write_lock)
            conn = await stack.enter_async_context(self._writer.begin())
            yield conn

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncConnection]:
        """A read transaction: one consistent view, no write lock."""
        async with self.engine.begin() as conn:
            yield conn

    async def run_write(
        self, fn: Callable[Concatenate[Connection, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """Run fn(connection, ...) in a write transaction; plain synchronous SQLAlchemy code."""
        async with self.write() as conn:
            return await conn.run_sync(fn, *args, **kwargs)

    async def run_read(
        self, fn: Callable[Concatenate[Connection, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """Run fn(connection, ...) in a read transaction."""
        async with self.read() as conn:
            return await conn.run_sync(fn, *args, **kwargs)

    async def dispose(self) -> None:
        await self.engine.dispose()


def _tune_sqlite(engine: AsyncEngine) -> None:
    """WAL, busy timeout, foreign keys on every connection; BEGIN emitted by us."""

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Stop the driver from emitting BEGIN (and COMMIT before DDL) on its own.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = FULL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Connection) -> None:
        write = conn.get_execution_options().get(_WRITE, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")
