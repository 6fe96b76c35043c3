"""Storage tests run twice: on a fresh SQLite file and on a fresh PostgreSQL database.

PostgreSQL: WHODUNIT_TEST_POSTGRES_URL (default: the local server, database `test`) names
a server; each test run creates its own database there and drops it at the end. An
unreachable server skips the PostgreSQL half locally and fails the run when CI=true.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy.engine import make_url

from storage.migrate import upgrade
from storage.models import Base
from storage.service import Store

DEFAULT_PG = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
PG_URL = os.environ.get("WHODUNIT_TEST_POSTGRES_URL", DEFAULT_PG)
BACKENDS = ["sqlite", "postgres"]


def _dsn(url: str) -> str:
    """The asyncpg DSN of an SQLAlchemy URL."""
    plain = make_url(url).set(drivername="postgresql")
    return plain.render_as_string(hide_password=False)


async def _admin(sql: str) -> None:
    conn = await asyncpg.connect(_dsn(PG_URL), timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def create_pg_database() -> str:
    """A new, empty database on the test server; its SQLAlchemy URL."""
    name = f"whodunit_test_{uuid.uuid4().hex[:12]}"
    asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    return make_url(PG_URL).set(database=name).render_as_string(hide_password=False)


def drop_pg_database(url: str) -> None:
    name = make_url(url).database
    asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def terminate_connections(url: str) -> None:
    """Close every server connection to the database of `url`, as a server restart would."""
    name = make_url(url).database
    sql = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
    asyncio.run(_admin(f"{sql} WHERE datname = '{name}' AND pid <> pg_backend_pid()"))


@pytest.fixture(scope="session")
def pg_server() -> str:
    """The PostgreSQL server URL, or skip (fail under CI) when it cannot be reached."""
    try:
        asyncio.run(_admin("SELECT 1"))
    except (OSError, asyncpg.PostgresError, TimeoutError) as exc:
        message = f"PostgreSQL unreachable at {PG_URL}: {exc!r}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    return PG_URL


@pytest.fixture(scope="session")
def pg_database(pg_server: str) -> Iterator[str]:
    """One fresh, migrated database for this test run, dropped at the end."""
    url = create_pg_database()
    try:
        asyncio.run(upgrade(url))
        yield url
    finally:
        drop_pg_database(url)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite file that each test copies (faster than migrating each time)."""
    path = tmp_path_factory.mktemp("template") / "whodunit.db"
    asyncio.run(upgrade(f"sqlite:///{path}"))
    return path


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A migrated, empty database of the backend under test."""
    if backend == "sqlite":
        path = tmp_path / "whodunit.db"
        shutil.copy(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite:///{path}"
    url: str = request.getfixturevalue("pg_database")
    tables = ", ".join(t.name for t in Base.metadata.sorted_tables)
    asyncio.run(_truncate(url, tables))
    return url


async def _truncate(url: str, tables: str) -> None:
    conn = await asyncpg.connect(_dsn(url))
    try:
        await conn.execute(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")
    finally:
        await conn.close()


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    opened = await Store.open(db_url, migrate=False)
    try:
        yield opened
    finally:
        await opened.close()
