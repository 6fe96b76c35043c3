"""Schema migrations: `upgrade(url)` at bot start and for `whodunit db upgrade`.

The Alembic configuration is built in code (no alembic.ini), so it works from an
installed package. Two processes upgrading at once queue on a lock: BEGIN IMMEDIATE
on SQLite, an advisory lock on PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import tempfile
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.engine import Connection

from storage.database import Database

MIGRATIONS = Path(__file__).parent / "migrations"
_PG_LOCK = 0x57484F44  # "WHOD": the advisory lock id for migrations


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic Config pointing at storage/migrations, bound to a connection."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("path_separator", "os")
    config.attributes["connection"] = connection
    return config


async def upgrade(url: str | None = None, revision: str = "head") -> None:
    """Bring the database at `url` (or the configured one) up to `revision`."""
    db = Database(url)
    try:
        await upgrade_database(db, revision)
    finally:
        await db.dispose()


async def upgrade_database(db: Database, revision: str = "head") -> None:
    """Run the migrations in one write transaction on an open Database."""
    await db.run_connection(functools.partial(_upgrade_on, revision=revision))


def _upgrade_on(conn: Connection, revision: str) -> None:
    sqlite = conn.dialect.name == "sqlite"
    if sqlite:
        # Batch mode copies tables; foreign keys must be off for that, outside a transaction.
        _sqlite_pragma(conn, "foreign_keys = OFF")
    try:
        with conn.begin():
            if not sqlite:
                conn.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": _PG_LOCK})
            _upgrade(conn, revision)
            if sqlite:
                broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise RuntimeError(f"migration broke foreign keys: {broken[:5]}")
    finally:
        if sqlite:
            _sqlite_pragma(conn, "foreign_keys = ON")


def _upgrade(connection: Connection, revision: str) -> None:
    command.upgrade(alembic_config(connection), revision)


def _sqlite_pragma(connection: Connection, pragma: str) -> None:
    """A PRAGMA straight on the driver connection, so no BEGIN precedes it."""
    driver = connection.connection.dbapi_connection
    assert driver is not None, "a connection in use has its driver connection"
    cursor = driver.cursor()
    try:
        cursor.execute(f"PRAGMA {pragma}")
    finally:
        cursor.close()


async def current(url: str | None = None) -> str | None:
    """The revision the database is at (None before the first migration)."""
    db = Database(url)
    try:
        return await db.run_read(_current)
    finally:
        await db.dispose()


def _current(connection: Connection) -> str | None:
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(connection).get_current_revision()


def revision(message: str) -> None:
    """Write a new migration from the models' difference to head (for developers)."""
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/schema.db"
        asyncio.run(upgrade(url))
        asyncio.run(_autogenerate(url, message))


async def _autogenerate(url: str, message: str) -> None:
    db = Database(url)
    try:
        await db.run_write(
            lambda c: command.revision(alembic_config(c), message, autogenerate=True)
        )
    finally:
        await db.dispose()


def main(argv: list[str] | None = None) -> None:
    """`python -m storage.migrate upgrade|current|revision -m MESSAGE`."""
    parser = argparse.ArgumentParser(prog="python -m storage.migrate")
    parser.add_argument("action", choices=("upgrade", "current", "revision"))
    parser.add_argument("-m", "--message", default="change")
    parser.add_argument("--url", default=None)
    args = parser.parse_args(argv)
    if args.action == "upgrade":
        asyncio.run(upgrade(args.url))
    elif args.action == "current":
        print(asyncio.run(current(args.url)))
    else:
        revision(args.message)


if __name__ == "__main__":
    main()
