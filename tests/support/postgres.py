"""The PostgreSQL test server: its URL, and databases created and dropped on it.

WHODUNIT_TEST_POSTGRES_URL names the server (default: the local one, database `test`).
"""

from __future__ import annotations

import asyncio
import os
import uuid

import asyncpg
from sqlalchemy.engine import make_url

from tests.support.services import unreachable

DEFAULT_PG = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
PG_URL = os.environ.get("WHODUNIT_TEST_POSTGRES_URL", DEFAULT_PG)


def dsn(url: str) -> str:
    """The asyncpg DSN of an SQLAlchemy URL."""
    plain = make_url(url).set(drivername="postgresql")
    return plain.render_as_string(hide_password=False)


async def admin_sql(sql: str, url: str = PG_URL) -> None:
    """Run one statement on the test server's own database."""
    conn = await asyncpg.connect(dsn(url), timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def require_server(url: str = PG_URL, *, ci: bool | None = None) -> str:
    """The server's URL once it answers; else skip the test, or fail it under CI (CI=true):
    a CI run must not pass with the PostgreSQL half silently left out."""
    try:
        asyncio.run(admin_sql("SELECT 1", url))
    except (OSError, asyncpg.PostgresError, TimeoutError) as exc:
        unreachable(f"PostgreSQL unreachable at {url}: {exc!r}", ci=ci)
    return url


def create_pg_database() -> str:
    """A new, empty database on the test server; its SQLAlchemy URL."""
    name = f"whodunit_test_{uuid.uuid4().hex[:12]}"
    asyncio.run(admin_sql(f'CREATE DATABASE "{name}"'))
    return make_url(PG_URL).set(database=name).render_as_string(hide_password=False)


def drop_pg_database(url: str) -> None:
    name = make_url(url).database
    asyncio.run(admin_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def terminate_connections(url: str) -> None:
    """Close every server connection to the database of `url`, as a server restart would."""
    name = make_url(url).database
    sql = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
    asyncio.run(admin_sql(f"{sql} WHERE datname = '{name}' AND pid <> pg_backend_pid()"))
