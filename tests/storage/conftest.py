"""Storage tests run twice: on a fresh SQLite file and on a fresh PostgreSQL database.

PostgreSQL: WHODUNIT_TEST_POSTGRES_URL (default: the local server, database `test`) names
a server; each test run creates its own database there and drops it at the end. An
unreachable server skips the PostgreSQL half locally and fails the run when CI=true.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest

from storage.migrate import upgrade
from storage.models import Base
from storage.service import Store
from tests.support.postgres import create_pg_database, drop_pg_database, dsn

BACKENDS = ["sqlite", "postgres"]


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
    asyncio.run(truncate(url, tables))
    return url


async def truncate(url: str, tables: str) -> None:
    conn = await asyncpg.connect(dsn(url))
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
