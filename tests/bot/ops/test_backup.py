"""`whodunit db backup` / `db restore`: SQLite through the online backup API while a game is
being written, PostgreSQL through pg_dump / pg_restore; a restore never overwrites a
database by accident."""

from __future__ import annotations

import asyncio
import stat
from pathlib import Path

import pytest

from bot.backup import BackupError, backup, restore
from bot.cli import main
from storage.service import Store
from tests.support.postgres import create_pg_database, drop_pg_database
from tests.support.stored_games import NOW, check_consistency, new_game, planner, suggestion_for


async def _write_while(store: Store, game_id: int, done: asyncio.Event) -> int:
    """Suggestions, one after another, until `done`; how many were written."""
    written = 0
    while not done.is_set():
        state = await store.load(game_id)
        actor = 1 + written % 4
        await store.execute(
            game_id, suggestion_for(state, actor, 1 + (written + 1) % 4, written), NOW, planner
        )
        written += 1
    return written


async def test_sqlite_backup_while_writing_and_restore(tmp_path: Path) -> None:
    from engine.settings import Settings

    roomy = Settings(suggestions_per_day=1000, max_per_target_per_day=1000)
    url = f"sqlite:///{tmp_path}/live/bot.db"
    store = await Store.open(url)
    try:
        game = await new_game(store, settings=roomy)
        done = asyncio.Event()
        writer = asyncio.create_task(_write_while(store, game.game_id, done))
        await asyncio.sleep(0.2)
        file = tmp_path / "backups" / "bot.backup"
        said = await asyncio.to_thread(backup, url, file)
        done.set()
        written = await writer
    finally:
        await store.close()
    assert "backed up" in said and written > 0
    assert stat.S_IMODE(file.stat().st_mode) == 0o600  # it holds every hand

    fresh = f"sqlite:///{tmp_path}/fresh/bot.db"
    assert "restored" in restore(fresh, file)
    copy = await Store.open(fresh, migrate=False)
    try:
        restored = await copy.load(game.game_id)
        assert 0 < len(restored.suggestions) <= written  # a moment during the writes
        await check_consistency(copy, game.game_id)
    finally:
        await copy.close()


async def test_restore_refuses_a_database_with_tables_unless_forced(tmp_path: Path) -> None:
    first, second = f"sqlite:///{tmp_path}/a.db", f"sqlite:///{tmp_path}/b.db"
    for url, seed in ((first, 1), (second, 2)):
        store = await Store.open(url)
        await new_game(store, seed=seed)
        await store.close()
    file = tmp_path / "a.backup"
    backup(first, file)
    with pytest.raises(BackupError, match=r"already holds a database.*--force"):
        restore(second, file)
    restore(second, file, force=True)
    store = await Store.open(second, migrate=False)
    try:
        assert (await store.load(1)).seed == 1
    finally:
        await store.close()


def test_clear_answers_for_what_cannot_be_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(BackupError, match="no database file"):
        backup(f"sqlite:///{tmp_path}/missing.db", tmp_path / "x")
    with pytest.raises(BackupError, match="no backup file"):
        restore(f"sqlite:///{tmp_path}/a.db", tmp_path / "missing.backup")
    junk = tmp_path / "junk.backup"
    junk.write_bytes(b"not a database" * 100)
    with pytest.raises(BackupError):
        restore(f"sqlite:///{tmp_path}/a.db", junk)
    monkeypatch.setattr("bot.backup.shutil.which", lambda name: None)
    with pytest.raises(BackupError, match="pg_dump not found: install the PostgreSQL client"):
        backup("postgresql://u@127.0.0.1/db", tmp_path / "pg.backup")
    monkeypatch.setenv("WHODUNIT_DATABASE_URL", f"sqlite:///{tmp_path}/missing.db")
    assert main(["db", "backup"]) == 2
    assert main(["db", "backup", str(tmp_path / "x")]) == 2
    assert "no database file" in capsys.readouterr().err


async def test_postgresql_round_trip(pg_server: str, tmp_path: Path) -> None:
    source = await asyncio.to_thread(create_pg_database)
    target = await asyncio.to_thread(create_pg_database)
    try:
        store = await Store.open(source)
        try:
            game = await new_game(store)
            await store.execute(game.game_id, suggestion_for(game.state, 1, 2), NOW, planner)
            before = await store.load(game.game_id)
        finally:
            await store.close()
        file = tmp_path / "pg.backup"
        assert "pg_dump" in await asyncio.to_thread(backup, source, file)
        assert file.read_bytes()[:5] == b"PGDMP"  # the custom format
        await asyncio.to_thread(restore, target, file)
        copy = await Store.open(target)  # migrations are current: nothing to do
        try:
            assert await copy.load(game.game_id) == before
            await check_consistency(copy, game.game_id)
        finally:
            await copy.close()
        with pytest.raises(BackupError, match="already has tables"):
            await asyncio.to_thread(restore, target, file)
        await asyncio.to_thread(restore, target, file, force=True)
    finally:
        await asyncio.to_thread(drop_pg_database, source)
        await asyncio.to_thread(drop_pg_database, target)
