"""Migrations: they build exactly the models' schema, run twice harmlessly, and at start."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from storage.config import DEFAULT_URL, ENV_VAR, database_url
from storage.database import Database
from storage.games import Store
from storage.migrate import current, upgrade
from storage.models import Base
from tests.storage.conftest import create_pg_database, drop_pg_database


def _differences(connection: Connection) -> list[Any]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, Base.metadata))


def _indexes(connection: Connection) -> set[str]:
    inspector = inspect(connection)
    return {ix["name"] for t in inspector.get_table_names() for ix in inspector.get_indexes(t)}


async def test_models_and_migrations_agree(db_url: str) -> None:
    db = Database(db_url)
    try:
        async with db.read() as conn:
            assert await conn.run_sync(_differences) == []
            indexes = await conn.run_sync(_indexes)
    finally:
        await db.dispose()
    declared = {ix.name for table in Base.metadata.tables.values() for ix in table.indexes}
    assert declared <= indexes  # including the partial and expression ones autogenerate skips


@pytest.fixture
def fresh_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Any:
    """An empty database, not yet migrated."""
    if backend == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path}/fresh.db"
        return
    request.getfixturevalue("pg_server")
    url = create_pg_database()
    yield url
    drop_pg_database(url)


async def test_concurrent_upgrades_queue_and_repeat_harmlessly(fresh_url: str) -> None:
    assert await current(fresh_url) is None
    await asyncio.gather(upgrade(fresh_url), upgrade(fresh_url), upgrade(fresh_url))
    await upgrade(fresh_url)
    assert await current(fresh_url) == "0001"
    store = await Store.open(fresh_url)  # migrates at start: nothing left to do
    await store.close()


def test_the_default_url_is_a_file_under_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(ENV_VAR, raising=False)
    url = database_url()
    assert url.render_as_string() == DEFAULT_URL
    assert (tmp_path / "data").is_dir()
    monkeypatch.setenv(ENV_VAR, "postgresql://bot@db/whodunit")
    assert database_url().drivername == "postgresql+asyncpg"
    monkeypatch.setenv(ENV_VAR, "sqlite:///elsewhere/x.db")
    assert database_url().drivername == "sqlite+aiosqlite"
    assert (tmp_path / "elsewhere").is_dir()


async def test_sqlite_is_tuned_for_several_writers(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/tuned.db"
    seen: list[str] = []
    db = Database(url)
    from sqlalchemy import event

    @event.listens_for(db.engine.sync_engine, "before_cursor_execute")
    def _log(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    try:
        async with db.write() as conn:
            mode = (await conn.execute(text("PRAGMA journal_mode"))).scalar()
            busy = (await conn.execute(text("PRAGMA busy_timeout"))).scalar()
            keys = (await conn.execute(text("PRAGMA foreign_keys"))).scalar()
        async with db.read() as conn:
            await conn.execute(text("SELECT 1"))
    finally:
        await db.dispose()
    assert (mode, keys) == ("wal", 1) and busy >= 5000
    assert seen[0] == "BEGIN IMMEDIATE" and "BEGIN" in seen[4:]


async def test_two_sqlite_writers_wait_for_each_other(tmp_path: Path) -> None:
    """Two engines (as two processes would): the second writer waits, then succeeds."""
    url = f"sqlite+aiosqlite:///{tmp_path}/two.db"
    one, two = Database(url), Database(url)
    try:
        async with one.write() as conn:
            await conn.execute(text("CREATE TABLE t (n INTEGER)"))
        order: list[str] = []

        async def first() -> None:
            async with one.write() as conn:
                await conn.execute(text("INSERT INTO t VALUES (1)"))
                order.append("first holds the lock")
                await asyncio.sleep(0.3)
            order.append("first committed")

        async def second() -> None:
            await asyncio.sleep(0.05)
            async with two.write() as conn:
                order.append("second got the lock")
                count = (await conn.execute(text("SELECT count(*) FROM t"))).scalar()
                await conn.execute(text("INSERT INTO t VALUES (:n)"), {"n": count + 1})

        await asyncio.gather(first(), second())
        assert order == ["first holds the lock", "first committed", "second got the lock"]
        async with two.read() as conn:
            assert (await conn.execute(text("SELECT n FROM t ORDER BY n"))).scalars().all() == [
                1,
                2,
            ]
    finally:
        await one.dispose()
        await two.dispose()
