"""The SQLite database holds every hand and the envelope: only its owner may read it."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from storage.service import Store


@pytest.fixture
def usual_umask() -> Iterator[None]:
    """The umask most systems run with: files 0644 and folders 0755 unless asked otherwise."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.usefixtures("usual_umask")
async def test_the_default_data_folder_is_0700_and_the_database_files_0600(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("WHODUNIT_DATABASE_URL", raising=False)
    store = await Store.open()  # ./data/whodunit.db, migrated: written in WAL mode
    try:
        files = sorted(p.name for p in (tmp_path / "data").iterdir())
        assert files == ["whodunit.db", "whodunit.db-shm", "whodunit.db-wal"]
        assert mode(tmp_path / "data") == 0o700
        assert {name: mode(tmp_path / "data" / name) for name in files} == dict.fromkeys(
            files, 0o600
        )
    finally:
        await store.close()


@pytest.mark.usefixtures("usual_umask")
async def test_new_folders_are_private_and_an_old_readable_database_is_narrowed(
    tmp_path: Path,
) -> None:
    shared = tmp_path / "var"
    shared.mkdir(mode=0o755)
    deep = shared / "whodunit" / "state" / "bot.db"
    store = await Store.open(f"sqlite:///{deep}")
    await store.close()
    assert [mode(p) for p in (deep.parent.parent, deep.parent, deep)] == [0o700, 0o700, 0o600]
    assert mode(shared) == 0o755, "a folder that was there already is left alone"
    deep.chmod(0o644)  # as an earlier version left it
    store = await Store.open(f"sqlite:///{deep}")
    try:
        assert mode(deep) == 0o600
        assert mode(deep.with_name("bot.db-wal")) == 0o600
    finally:
        await store.close()
