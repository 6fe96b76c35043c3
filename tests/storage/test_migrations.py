"""Migrations: they build exactly the models' schema, run twice harmlessly, and at start."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import event, inspect, text
from sqlalchemy.engine import Connection

from engine.codec import to_dict
from engine.settings import Settings
from storage.config import DEFAULT_URL, ENV_VAR, database_url
from storage.database import Database
from storage.migrate import current, upgrade, upgrade_database
from storage.models import Base
from storage.service import Store
from tests.support.formats import player_range
from tests.support.postgres import create_pg_database, drop_pg_database


def _differences(connection: Connection) -> list[Any]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, Base.metadata))


def _indexes(connection: Connection) -> set[str]:
    inspector = inspect(connection)
    return {
        ix["name"]
        for t in inspector.get_table_names()
        for ix in inspector.get_indexes(t)
        if ix["name"] is not None
    }


async def test_models_and_migrations_agree(db_url: str) -> None:
    db = Database(db_url)
    try:
        assert await db.run_read(_differences) == []
        indexes = await db.run_read(_indexes)
    finally:
        await db.dispose()
    declared = {ix.name for table in Base.metadata.tables.values() for ix in table.indexes}
    assert declared <= indexes  # the partial indexes too, which autogenerate does not compare


@pytest.fixture
def fresh_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Any:
    """An empty database, not yet migrated."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path}/fresh.db"
        return
    request.getfixturevalue("pg_server")
    url = create_pg_database()
    yield url
    drop_pg_database(url)


async def test_concurrent_upgrades_queue_and_repeat_harmlessly(fresh_url: str) -> None:
    assert await current(fresh_url) is None
    await asyncio.gather(upgrade(fresh_url), upgrade(fresh_url), upgrade(fresh_url))
    await upgrade(fresh_url)
    assert await current(fresh_url) == _head()
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
    assert database_url().get_backend_name() == "sqlite"
    assert (tmp_path / "elsewhere").is_dir()
    with pytest.raises(ValueError):
        database_url("mysql://x/y")
    with pytest.raises(ValueError):
        database_url("sqlite://")


async def test_sqlite_marks_commit_without_waiting_for_the_disk(tmp_path: Path) -> None:
    """An urgent write (a message's mark) runs at synchronous NORMAL, the next command's
    write at FULL again: commands are on disk when acknowledged, marks with them."""
    db = Database(f"sqlite:///{tmp_path}/marks.db")

    def level(conn: Connection) -> Any:
        return conn.exec_driver_sql("PRAGMA synchronous").scalar()

    try:
        urgent = await db.run_transaction(level, urgent=True, autocommit=True)
        command = await db.run_write(level)
        together = await db.run_transaction(level, urgent=True)
    finally:
        await db.dispose()
    assert (urgent, command, together) == (1, 2, 1)  # NORMAL, FULL, NORMAL


async def test_sqlite_is_tuned_for_several_writers(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path}/tuned.db")
    seen: list[str] = []

    @event.listens_for(db.engine, "before_cursor_execute")
    def _log(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    def pragmas(conn: Connection) -> tuple[Any, ...]:
        names = ("journal_mode", "busy_timeout", "foreign_keys", "synchronous")
        return tuple(conn.exec_driver_sql(f"PRAGMA {name}").scalar() for name in names)

    try:
        mode, busy, keys, synchronous = await db.run_write(pragmas)
        await db.run_read(lambda conn: conn.execute(text("SELECT 1")))
    finally:
        await db.dispose()
    assert (mode, keys, synchronous) == ("wal", 1, 2) and busy >= 5000
    assert seen == [
        "BEGIN IMMEDIATE",
        "PRAGMA journal_mode",
        "PRAGMA busy_timeout",
        "PRAGMA foreign_keys",
        "PRAGMA synchronous",
        "BEGIN",
        "SELECT 1",
    ]


async def test_two_sqlite_writers_wait_for_each_other(tmp_path: Path) -> None:
    """Two engines (as two processes would): the second writer waits, then succeeds."""
    url = f"sqlite:///{tmp_path}/two.db"
    one, two = Database(url), Database(url)
    order: list[str] = []

    def first(conn: Connection) -> None:
        conn.execute(text("INSERT INTO t VALUES (1)"))
        order.append("first holds the lock")
        time.sleep(0.3)
        order.append("first commits")

    def second(conn: Connection) -> None:
        order.append("second got the lock")
        count = conn.execute(text("SELECT count(*) FROM t")).scalar_one()
        conn.execute(text("INSERT INTO t VALUES (:n)"), {"n": count + 1})

    async def later() -> None:
        await asyncio.sleep(0.1)
        await two.run_write(second)

    try:
        await one.run_write(lambda conn: conn.execute(text("CREATE TABLE t (n INTEGER)")))
        await asyncio.gather(one.run_write(first), later())
        assert order == ["first holds the lock", "first commits", "second got the lock"]
        found = await two.run_read(lambda c: c.execute(text("SELECT n FROM t")).scalars().all())
        assert found == [1, 2]
    finally:
        await one.dispose()
        await two.dispose()


def _head() -> str:
    """The newest revision in storage/migrations."""
    from alembic.script import ScriptDirectory

    from storage.migrate import alembic_config

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


async def test_postgresql_marks_commit_without_waiting_for_the_wal(pg_database: str) -> None:
    """On PostgreSQL a mark commits with synchronous_commit off (its own connections);
    commands and reads keep the server's default (on)."""
    db = Database(pg_database)

    def level(conn: Connection) -> Any:
        return conn.exec_driver_sql("SHOW synchronous_commit").scalar()

    try:
        urgent = await db.run_transaction(level, urgent=True, autocommit=True)
        together = await db.run_transaction(level, urgent=True)
        command = await db.run_write(level)
    finally:
        await db.dispose()
    assert (urgent, together, command) == ("off", "off", "on")


async def test_postgresql_vacuums_the_busy_tables_early(pg_database: str) -> None:
    """Migration 0008: the tables every message and deadline rewrites are vacuumed after 1%
    changed, so the partial index of unfinished messages does not fill with dead entries."""
    db = Database(pg_database)
    await upgrade_database(db)

    def options(conn: Connection) -> dict[str, Any]:
        query = "SELECT relname, reloptions FROM pg_class WHERE relname IN ('outbox', 'deadlines')"
        return dict(conn.exec_driver_sql(query).all())

    try:
        found = await db.run_read(options)
    finally:
        await db.dispose()
    for table in ("outbox", "deadlines"):
        assert "autovacuum_vacuum_scale_factor=0.01" in found[table], table


async def test_the_old_default_player_range_is_left_to_each_format(fresh_url: str) -> None:
    """0014: a chat's stored 3 and 10 (the old defaults, saved with any setting) become the
    format's own range, so its 2023 lobbies start with two; another count is the admins'."""
    await upgrade(fresh_url, "0013")
    old = to_dict(Settings(min_players=4))
    rows = {1: {**old, "min_players": 3, "max_players": 10}, 2: {**old, "max_players": 8}}
    insert = text(
        "INSERT INTO chat_settings (chat_id, settings, updated_at)"
        " VALUES (:chat, :settings, CURRENT_TIMESTAMP)"
    )

    def stored(conn: Connection) -> None:
        for chat_id, data in rows.items():
            conn.execute(insert, {"chat": chat_id, "settings": json.dumps(data)})

    db = Database(fresh_url)
    try:
        await db.run_write(stored)
    finally:
        await db.dispose()
    await upgrade(fresh_url)
    store = await Store.open(fresh_url)
    try:
        defaults = (await store.chats.get(1)).settings
        assert (defaults.min_players, defaults.max_players) == (None, None)
        assert player_range(defaults.changed(format="y2023")) == (2, 6)
        kept = (await store.chats.get(2)).settings
        assert (kept.min_players, kept.max_players) == (4, 8)
    finally:
        await store.close()
