"""SQLite's log is checkpointed by a thread of its own, never inside a commit."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from sqlalchemy import Connection, text

from storage.checkpoints import Checkpointer
from storage.database import Database

PAGE = 4096


def _create(conn: Connection) -> None:
    conn.execute(text("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)"))


def _add(conn: Connection) -> None:
    rows = [{"body": "x" * PAGE} for _ in range(50)]
    conn.execute(text("INSERT INTO notes (body) VALUES (:body)"), rows)


def _count(conn: Connection) -> int:
    return int(conn.execute(text("SELECT count(*) FROM notes")).scalar_one())


def _log_size(file: Path) -> int:
    log = file.with_name(file.name + "-wal")
    return log.stat().st_size if log.exists() else 0


async def test_commits_leave_checkpoints_to_the_thread(tmp_path: Path) -> None:
    file = tmp_path / "games.db"
    db = Database(f"sqlite:///{file}")
    assert db.checkpoints is not None
    await asyncio.to_thread(db.checkpoints.stop)  # commits alone from here
    try:
        await db.run_write(_create)
        for _ in range(40):  # about 2,000 pages: twice what a commit would checkpoint at
            await db.run_write(_add)
        grown = _log_size(file)
        assert grown > 1500 * PAGE, "a commit checkpointed the log"

        busy, pages, copied = await asyncio.to_thread(db.checkpoints.checkpoint)
        assert (busy, copied) == (0, pages) and pages > 1500

        for _ in range(10):  # the log starts over instead of growing
            await db.run_write(_add)
        assert _log_size(file) == grown
        assert await db.run_read(_count) == 50 * 50
    finally:
        await db.dispose()
    with sqlite3.connect(file) as plain:  # everything is in the file, the log gone with it
        assert plain.execute("SELECT count(*) FROM notes").fetchone() == (50 * 50,)
    assert _log_size(file) == 0


async def test_the_thread_checkpoints_on_its_own(tmp_path: Path) -> None:
    file = tmp_path / "games.db"
    db = Database(f"sqlite:///{file}")
    assert db.checkpoints is not None
    await asyncio.to_thread(db.checkpoints.stop)
    quick = Checkpointer(db.engine, interval=0.02)
    try:
        await db.run_write(_create)
        for _ in range(30):
            await db.run_write(_add)
        for _ in range(200):  # a few checkpoints, each copying what the commits added
            if quick.checkpoints >= 3:
                break
            await asyncio.sleep(0.02)
        assert quick.checkpoints >= 3
        await asyncio.to_thread(quick.stop)  # its own checkpoint would make this one busy
        busy, pages, copied = await asyncio.to_thread(quick.checkpoint)
        assert busy == 0 and copied == pages
    finally:
        await asyncio.to_thread(quick.stop)
        await db.dispose()
