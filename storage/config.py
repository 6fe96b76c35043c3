"""Where the database lives: `WHODUNIT_DATABASE_URL`, or an SQLite file under ./data/.

The database holds every hand and envelope, so an SQLite file is kept private: folders made
for it are 0700 and the file 0600 (SQLite gives its -wal and -shm files the database's
permissions)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from sqlalchemy.engine import URL, make_url

ENV_VAR = "WHODUNIT_DATABASE_URL"
DEFAULT_URL = "sqlite:///./data/whodunit.db"


def database_url(url: str | None = None) -> URL:
    """The configured URL; creates the folder and the file of an SQLite database, private.

    Any SQLite URL (sqlite://, sqlite+pysqlite://, sqlite+aiosqlite://) means the same
    file; any PostgreSQL URL is used through asyncpg.
    """
    parsed = make_url(url or os.environ.get(ENV_VAR) or DEFAULT_URL)
    if parsed.get_backend_name() in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+asyncpg")
    elif parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if not database or database == ":memory:" or "mode=memory" in str(parsed):
            # Each connection would see a database of its own: writes would vanish.
            raise ValueError(f"{ENV_VAR}: an in-memory SQLite database cannot work; use a file")
        if not database.startswith("file:"):
            private_file(Path(database).expanduser())
    else:
        raise ValueError(f"{ENV_VAR}: only SQLite and PostgreSQL are supported, not {parsed}")
    return parsed


def private_file(path: Path) -> None:
    """Make `path` (and the folders it needs) readable by this user only: new folders 0700,
    the file 0600, and an existing file with its -wal and -shm narrowed to 0600."""
    missing = [folder for folder in (path.parent, *path.parent.parents) if not folder.exists()]
    for folder in reversed(missing):
        folder.mkdir(mode=0o700, exist_ok=True)
        folder.chmod(0o700)  # mkdir's mode is narrowed by the umask, never widened
    with contextlib.suppress(FileExistsError):  # an empty file is an empty database
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        with contextlib.suppress(FileNotFoundError, PermissionError):
            if file.stat().st_mode & 0o077:
                file.chmod(0o600)


def is_sqlite(url: URL) -> bool:
    return url.get_backend_name() == "sqlite"
