"""PostgreSQL: one pooled connection kept checked out for the hottest single statements.

Checking a connection out of SQLAlchemy's pool and back in costs the bot about a tenth of a
millisecond of CPU each time (the pool's bookkeeping and its greenlet hops), as much as the
round trip of a small statement; a usual update runs three such statements (its command and
two marks). So `Database.run_driver` keeps one connection of each of its engines checked out
and runs statements on it while it is free; a statement that finds it busy checks another
out of the pool as before. A connection that broke under a statement is invalidated
(storage.database); the next statement to borrow it drops it and checks out a fresh one.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine


class Pinned:
    """One connection of `engine` kept checked out, lent to one statement at a time."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._conn: AsyncConnection | None = None
        self._driver: Any = None
        self._busy = False

    @property
    def free(self) -> bool:
        return not self._busy

    @contextlib.asynccontextmanager
    async def lend(self) -> AsyncIterator[tuple[AsyncConnection, Any]]:
        """The connection and its asyncpg connection, for one statement (only when free)."""
        assert not self._busy, "lend only a free connection"
        self._busy = True
        try:
            if self._conn is None or self._conn.invalidated or self._conn.closed:
                await self._drop()
                conn = await self._engine.connect()
                try:
                    pooled = await conn.get_raw_connection()
                except BaseException:
                    await conn.close()
                    raise
                self._conn, self._driver = conn, pooled.driver_connection
            yield self._conn, self._driver
        finally:  # a connection the statement broke was invalidated: replaced at next lend
            self._busy = False

    async def close(self) -> None:
        """Give the connection back to the pool (at dispose)."""
        await self._drop()

    async def _drop(self) -> None:
        conn, self._conn, self._driver = self._conn, None, None
        if conn is not None:
            with contextlib.suppress(Exception):  # a broken connection is gone anyway
                await conn.close()
