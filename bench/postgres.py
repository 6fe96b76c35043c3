"""The PostgreSQL server the benchmarks use, and a fresh database on it for one run."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg
from sqlalchemy.engine import make_url

PG_URL = os.environ.get(
    "WHODUNIT_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)


def plain_dsn(url: str) -> str:
    """A SQLAlchemy URL as asyncpg takes it."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def admin_sql(sql: str) -> None:
    """Run one statement on the server's own database (CREATE/DROP DATABASE)."""
    conn = await asyncpg.connect(plain_dsn(PG_URL), timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def settle(urls: list[str]) -> None:
    """Let the server catch up with what set-up wrote: VACUUM ANALYZE each database (else
    autovacuum and the checkpointer do it during the first measured phase), then one
    CHECKPOINT (the dirty pages written now, not then)."""
    for url in urls:
        conn = await asyncpg.connect(plain_dsn(url), timeout=5)
        try:
            await conn.execute("VACUUM (ANALYZE)")
        finally:
            await conn.close()
    if urls:
        await admin_sql("CHECKPOINT")


@asynccontextmanager
async def fresh_database() -> AsyncIterator[str]:
    """A new, empty database for one benchmark run (its SQLAlchemy URL), dropped after."""
    name = f"whodunit_bench_{uuid.uuid4().hex[:8]}"
    await admin_sql(f'CREATE DATABASE "{name}"')
    try:
        yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        await admin_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
