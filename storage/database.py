"""The database: PostgreSQL through asyncpg, or an SQLite file through the sqlite3 driver.

Stores write their SQL as plain synchronous SQLAlchemy code, `fn(connection, ...)`, and
run it in one transaction with `run_write` or `run_read`:

- PostgreSQL: on an async engine (asyncpg) with `AsyncConnection.run_sync`, so every
  statement awaits the network without blocking the event loop.
  The few hottest single statements (a usual command, a mark) run on the asyncpg
  connection itself, in autocommit, on a connection kept checked out (`run_driver`,
  storage/pinned.py).
- SQLite: in a worker thread, on a synchronous engine over the standard sqlite3 driver.
  aiosqlite does the same (sqlite3 in a thread) but hops to its thread three or four
  times per statement; one hop per transaction is several times faster (see
  bench/storage.py). Writes go through a single thread, as SQLite has a single writer;
  reads have a few threads of their own and never wait for writes (WAL). Urgent writes
  (the mark of a message Telegram just accepted) go ahead of the writes queued there.
  Checkpoints of the WAL run in a thread of their own, never inside a commit
  (storage/checkpoints.py).

SQLite transactions follow the SQLAlchemy documentation ("Enabling Non-Legacy SQLite
Transactional Modes"): the driver's own BEGIN handling is off (`isolation_level = None`
on each driver connection) and SQLAlchemy's `begin` event emits BEGIN itself. A write
transaction emits BEGIN IMMEDIATE: it takes the write lock first, waiting up to the busy
timeout, so writers in other processes queue instead of failing halfway with "database
is locked". A read transaction emits a plain (deferred) BEGIN: one snapshot, no lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import queue
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Concatenate, ParamSpec, TypeVar

import asyncpg
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, Connection, RootTransaction
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from storage.checkpoints import Checkpointer
from storage.config import database_url, is_sqlite
from storage.pinned import Pinned
from storage.watch import WATCHERS, watched, watched_job

P = ParamSpec("P")
T = TypeVar("T")
BUSY_TIMEOUT_MS = 30_000
_WRITE = "whodunit_write"
_RELAXED = "whodunit_relaxed"  # SQLite: commit without waiting for the disk (see below)


class Disconnected(Exception):
    """The connection broke before the transaction committed; running it again is safe."""


# What asyncpg raises: the server's refusals, a connection that broke (also as a protocol in
# a state it cannot go on from, once the server ended it), the network.
DRIVER_ERRORS = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    OSError,
    TimeoutError,
)


class DriverError(Exception):
    """A statement run on the driver itself (Database.run_driver) failed; `sqlstate` says
    why when the server refused it (None: the connection broke, the outcome is unknown)."""

    def __init__(self, message: str, sqlstate: str | None) -> None:
        super().__init__(message)
        self.sqlstate = sqlstate


class Database:
    """One database, and the two kinds of transaction the stores run their SQL in."""

    def __init__(
        self, url: str | URL | None = None, *, read_threads: int = 4, **engine_args: Any
    ) -> None:
        self.url = database_url(url if isinstance(url, str) or url is None else str(url))
        self.sqlite = is_sqlite(self.url)
        self.async_engine: AsyncEngine | None = None
        if self.sqlite:
            sync_url = self.url.set(drivername="sqlite+pysqlite")
            engine_args.setdefault("pool_size", read_threads + 1)
            args = {"check_same_thread": False, **engine_args.pop("connect_args", {})}
            engine_args.setdefault("hide_parameters", True)  # no card in an error's text
            self.engine: Engine = create_engine(sync_url, connect_args=args, **engine_args)
            _tune_sqlite(self.engine)
            # Urgent writes on a connection of their own: it stays at synchronous=NORMAL
            # (switching one connection between FULL and NORMAL cost two PRAGMAs a mark).
            relaxed_args = {**engine_args, "pool_size": 1}
            self._relaxed_sync = create_engine(sync_url, connect_args=args, **relaxed_args)
            _tune_sqlite(self._relaxed_sync)
            self._writes = WriterThread()
            self._reads = ThreadPoolExecutor(read_threads, thread_name_prefix="whodunit-sqlite")
            self.checkpoints: Checkpointer | None = Checkpointer(self.engine)
        else:
            self.checkpoints = None
            # No pre-ping round trip per transaction: a pooled connection that went stale
            # fails before COMMIT, raises Disconnected, and the service retries.
            engine_args.setdefault("pool_size", 10)
            engine_args.setdefault("hide_parameters", True)  # no card in an error's text
            self.async_engine = create_async_engine(self.url, **engine_args)
            self._async_writer = self.async_engine.execution_options(**{_WRITE: True})
            self._async_single = self.async_engine.execution_options(isolation_level="AUTOCOMMIT")
            # Urgent writes (a message's mark) on connections of their own whose commits do
            # not wait for the WAL to reach the disk (synchronous_commit off): a crash of the
            # bot loses none; a crash of the server may lose the last marks, and those
            # messages are sent again (delivery is at least once anyway).
            relaxed = {"server_settings": {"synchronous_commit": "off"}}
            self._relaxed_engine = create_async_engine(
                self.url,
                pool_size=2,
                max_overflow=8,
                hide_parameters=True,
                connect_args=relaxed,
            )
            self._async_relaxed = self._relaxed_engine.execution_options(**{_WRITE: True})
            # A single statement commits as it runs: one round trip, not three.
            self._async_urgent = self._async_relaxed.execution_options(isolation_level="AUTOCOMMIT")
            self._pinned = {False: Pinned(self._async_single), True: Pinned(self._async_urgent)}
            self.engine = self.async_engine.sync_engine
        self._writer = self.engine.execution_options(**{_WRITE: True})
        relaxed_engine = self._relaxed_sync if self.sqlite else self.engine
        self._relaxed_writer = relaxed_engine.execution_options(**{_WRITE: True, _RELAXED: True})

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    async def run_read(
        self, fn: Callable[Concatenate[Connection, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """fn(connection, ...) in a read transaction: one consistent view, no write lock."""
        return await self._run(False, _transaction(lambda conn: fn(conn, *args, **kwargs)))

    async def run_write(
        self, fn: Callable[Concatenate[Connection, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """fn(connection, ...) in a write transaction (BEGIN IMMEDIATE on SQLite); it
        commits when fn returns and rolls back when fn raises."""
        return await self._run(True, _transaction(lambda conn: fn(conn, *args, **kwargs)))

    async def run_transaction(
        self,
        fn: Callable[[Connection], T],
        *,
        after_commit: Callable[[T], object] | None = None,
        urgent: bool = False,
        autocommit: bool = False,
    ) -> T:
        """Like run_write, with what only some writes need:

        - `after_commit(result)` runs right after COMMIT succeeds, in the same thread or
          greenlet: before SQLite's writer thread takes its next transaction, and before
          PostgreSQL's caller yields to the event loop;
        - `urgent`: ahead of the writes waiting for SQLite's writer thread, committed
          without waiting for the disk (a message's mark: see _tune_sqlite and the
          relaxed engine);
        - `autocommit` (urgent only): on PostgreSQL each statement of fn commits as it
          runs, one round trip instead of three (meant for one UPDATE)."""
        assert urgent or not autocommit, "autocommit is for urgent writes"
        body = _transaction(fn, after_commit)
        if not urgent:
            return await self._run(True, body)
        if autocommit:
            return await self._run(True, body, urgent=True)
        return await self._run(True, body, urgent=self.sqlite, relaxed=True)

    async def run_driver(self, fn: Callable[[Any], Awaitable[T]], *, urgent: bool = False) -> T:
        """PostgreSQL: `await fn(asyncpg connection)` in autocommit, past SQLAlchemy (whose
        execution of a statement costs several times asyncpg's own): for the hottest single
        statements, on the connection kept checked out for them when it is free, else on one
        from the pool. Urgent: on the marks' connections. Any driver error is raised as
        DriverError; one that broke the connection discards it."""
        assert self.async_engine is not None, "PostgreSQL only"
        if not WATCHERS:
            return await self._on_driver(fn, urgent)
        with watched("driver"):
            return await self._on_driver(fn, urgent)

    async def _on_driver(self, fn: Callable[[Any], Awaitable[T]], urgent: bool) -> T:
        pinned = self._pinned[urgent]
        if pinned.free:  # the usual case: no checkout from the pool (storage.pinned)
            async with pinned.lend() as (conn, driver):
                return await _on_driver(conn, driver, fn)
        engine = self._async_urgent if urgent else self._async_single
        async with engine.connect() as conn:
            pooled = await conn.get_raw_connection()
            return await _on_driver(conn, pooled.driver_connection, fn)

    async def run_connection(self, fn: Callable[[Connection], T], *, write: bool = True) -> T:
        """fn(connection) on a connection with no transaction begun (fn begins its own)."""
        return await self._run(write, fn)

    async def _run(
        self,
        write: bool,
        fn: Callable[[Connection], T],
        urgent: bool = False,
        relaxed: bool = False,
    ) -> T:
        if not WATCHERS:
            return await self._unwatched(write, fn, urgent, relaxed)
        with watched("write" if write else "read"):
            return await self._unwatched(write, fn, urgent, relaxed)

    async def _unwatched(
        self, write: bool, fn: Callable[[Connection], T], urgent: bool, relaxed: bool
    ) -> T:
        if self.async_engine is not None:
            engine = self._async_writer if write else self.async_engine
            engine = self._async_relaxed if relaxed else engine
            engine = self._async_urgent if urgent else engine
            async with engine.connect() as conn:
                return await conn.run_sync(fn)
        if write:
            writer = self._relaxed_writer if urgent else self._writer
            job = functools.partial(_on_connection, writer, fn)
            submit = self._writes.submit_urgent if urgent else self._writes.submit
            return await asyncio.wrap_future(submit(job))
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._reads, _on_connection, self.engine, fn)

    async def dispose(self) -> None:
        if self.async_engine is not None:
            for pinned in self._pinned.values():
                await pinned.close()
            await self.async_engine.dispose()
            await self._relaxed_engine.dispose()
            return
        loop = asyncio.get_running_loop()
        for pool in (self._writes, self._reads):
            await loop.run_in_executor(None, functools.partial(pool.shutdown, wait=True))
        if self.checkpoints is not None:
            await loop.run_in_executor(None, self.checkpoints.stop)
        self.engine.dispose()
        self._relaxed_sync.dispose()


class WriterThread:
    """SQLite's one writer thread: jobs in the order given, urgent ones first."""

    def __init__(self) -> None:
        self._queue: queue.PriorityQueue[tuple[int, int, Callable[[], Any] | None, Any]]
        self._queue = queue.PriorityQueue()
        self._order = itertools.count()
        self._thread = threading.Thread(target=self._work, name="whodunit-sqlite-write")
        self._thread.daemon = True
        self._thread.start()

    def submit(self, job: Callable[[], T]) -> Future[T]:
        """Run `job` after the jobs already queued (as an executor's submit)."""
        return self._put(1, job)

    def submit_urgent(self, job: Callable[[], T]) -> Future[T]:
        """Run `job` before every job not yet started, but earlier urgent ones."""
        return self._put(0, job)

    def _put(self, priority: int, job: Callable[[], T]) -> Future[T]:
        future: Future[T] = Future()
        self._queue.put((priority, next(self._order), job, future))
        return future

    def shutdown(self, wait: bool = True) -> None:
        """Stop after the jobs already queued."""
        self._queue.put((2, next(self._order), None, None))
        if wait:
            self._thread.join()

    def _work(self) -> None:
        while True:
            _, _, job, future = self._queue.get()
            if job is None:
                return
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(job())
            except BaseException as exc:  # handed to the awaiting coroutine
                future.set_exception(exc)


async def _on_driver(conn: AsyncConnection, driver: Any, fn: Callable[[Any], Awaitable[T]]) -> T:
    """`await fn(driver)`; a driver error raised as DriverError, the connection invalidated
    when it broke (or the statement was cancelled halfway)."""
    try:
        return await fn(driver)
    except DRIVER_ERRORS as exc:
        refused = isinstance(exc, asyncpg.PostgresError) and not driver.is_closed()
        if not refused:  # the connection broke: the outcome is unknown
            await conn.invalidate()
        sqlstate = getattr(exc, "sqlstate", None) if refused else None
        raise DriverError(str(exc), sqlstate) from exc
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            await conn.invalidate()  # the driver may be mid-statement: never lend it again
        raise


def _transaction(
    fn: Callable[[Connection], T], after_commit: Callable[[T], object] | None = None
) -> Callable[[Connection], T]:
    """fn(conn) wrapped in BEGIN ... COMMIT (ROLLBACK if it raises)."""

    def body(conn: Connection) -> T:
        transaction = conn.begin()
        try:
            result = fn(conn)
        except DBAPIError as exc:
            _rollback(transaction)
            if exc.connection_invalidated:  # before COMMIT: certainly nothing was written
                raise Disconnected(str(exc.orig)) from exc
            raise
        except BaseException:
            _rollback(transaction)
            raise
        transaction.commit()  # an error here leaves the outcome unknown: never retried
        if after_commit is not None:
            after_commit(result)
        return result

    return body


def _rollback(transaction: RootTransaction) -> None:
    with contextlib.suppress(DBAPIError):  # if the connection is gone, so is the transaction
        transaction.rollback()


def _on_connection(engine: Engine, fn: Callable[[Connection], T]) -> T:
    """A job of SQLite's threads: fn on a connection of `engine`."""
    if not WATCHERS:
        with engine.connect() as conn:
            return fn(conn)
    with watched_job(fn), engine.connect() as conn:
        return fn(conn)


def _tune_sqlite(engine: Engine) -> None:
    """WAL, busy timeout, foreign keys on every connection; BEGIN emitted by us."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Stop the driver from emitting BEGIN (and COMMIT before DDL) on its own.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA wal_autocheckpoint = 0")  # storage.checkpoints does it
        cursor.execute("PRAGMA synchronous = FULL")  # a command is on disk when acknowledged
        _record.info["synchronous"] = "FULL"
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        options = conn.get_execution_options()
        write = options.get(_WRITE, False)
        if write:
            # Urgent writes (a message's mark) commit without an fsync of their own: the WAL
            # reaches the disk with the next command's commit (FULL) or checkpoint. A crash
            # of the process loses none of them; a power cut may lose the last marks, and
            # those messages are sent again (delivery is at least once anyway).
            level = "NORMAL" if options.get(_RELAXED, False) else "FULL"
            info = conn.connection.info
            if info.get("synchronous") != level:
                conn.exec_driver_sql(f"PRAGMA synchronous = {level}")
                info["synchronous"] = level
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")
