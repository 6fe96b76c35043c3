"""PostgreSQL: the connection `Database.run_driver` keeps checked out (storage.pinned).

The hottest statements (a usual command, a mark) run on one connection kept out of the
pool; these tests check that it is reused without a checkout, that a statement never waits
for it, and that a broken or cancelled one is never lent again.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import event

from storage.database import Database, DriverError
from tests.support.postgres import terminate_connections


@pytest.fixture
async def db(pg_database: str) -> AsyncIterator[Database]:
    opened = Database(pg_database)
    try:
        yield opened
    finally:
        await opened.dispose()


async def _pid(driver: Any) -> int:
    return int(await driver.fetchval("SELECT pg_backend_pid()"))


def _checkouts(db: Database) -> list[int]:
    """A list that grows by one at each checkout from the commands' pool."""
    assert db.async_engine is not None
    seen: list[int] = []
    event.listen(db.async_engine.sync_engine.pool, "checkout", lambda *_: seen.append(1))
    return seen


async def test_statements_reuse_the_kept_connection_without_a_checkout(db: Database) -> None:
    first = await db.run_driver(_pid)
    checkouts = _checkouts(db)
    pids = [await db.run_driver(_pid) for _ in range(5)]
    assert pids == [first] * 5, "every statement ran on the same server connection"
    assert checkouts == [], "no checkout from the pool once the connection is kept"
    marks = {await db.run_driver(_pid, urgent=True) for _ in range(3)}
    assert len(marks) == 1 and first not in marks, "the marks keep a connection of their own"


async def test_a_statement_never_waits_for_the_kept_connection(db: Database) -> None:
    kept = await db.run_driver(_pid)

    async def slow(driver: Any) -> int:
        await driver.execute("SELECT pg_sleep(1)")
        return await _pid(driver)

    sleeping = asyncio.create_task(db.run_driver(slow))
    await asyncio.sleep(0.2)  # the kept connection is busy sleeping now
    other = await db.run_driver(_pid)
    assert not sleeping.done(), "the second statement did not wait for the first"
    assert other != kept, "it ran on a connection from the pool"
    assert await sleeping == kept
    assert await db.run_driver(_pid) == kept, "the kept connection is lent again once free"


async def test_a_broken_kept_connection_is_replaced(db: Database, pg_database: str) -> None:
    kept = await db.run_driver(_pid)
    await asyncio.to_thread(terminate_connections, pg_database)  # as a server restart would
    with pytest.raises(DriverError) as failed:
        await db.run_driver(_pid)
    assert failed.value.sqlstate is None, "a broken connection: the outcome is unknown"
    fresh = await db.run_driver(_pid)
    assert fresh != kept
    assert await db.run_driver(_pid) == fresh, "the new connection is the kept one now"


async def test_a_refused_statement_keeps_the_connection(db: Database) -> None:
    kept = await db.run_driver(_pid)

    async def refused(driver: Any) -> None:
        await driver.execute("SELECT 1/0")

    with pytest.raises(DriverError) as failed:
        await db.run_driver(refused)
    assert failed.value.sqlstate == "22012", "the server's reason is kept"
    assert await db.run_driver(_pid) == kept, "a refusal does not break the connection"


async def test_a_cancelled_statement_never_lends_its_connection_again(db: Database) -> None:
    kept = await db.run_driver(_pid)

    async def long(driver: Any) -> None:
        await driver.execute("SELECT pg_sleep(30)")

    task = asyncio.create_task(db.run_driver(long))
    await asyncio.sleep(0.2)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    fresh = await asyncio.wait_for(db.run_driver(_pid), timeout=10)
    assert fresh != kept, "the cancelled statement's connection was dropped"


async def test_dispose_gives_the_kept_connections_back(pg_database: str) -> None:
    db = Database(pg_database)
    await db.run_driver(_pid)
    await db.run_driver(_pid, urgent=True)
    assert db.async_engine is not None
    assert db.async_engine.pool.checkedout() == 1  # type: ignore[attr-defined]
    await db.dispose()
    assert db.async_engine.pool.checkedout() == 0  # type: ignore[attr-defined]
