"""Where the database lives: `WHODUNIT_DATABASE_URL`, or an SQLite file under ./data/."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy.engine import URL, make_url

ENV_VAR = "WHODUNIT_DATABASE_URL"
DEFAULT_URL = "sqlite:///./data/whodunit.db"


def database_url(url: str | None = None) -> URL:
    """The configured URL; creates the folder of an SQLite file.

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
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    else:
        raise ValueError(f"{ENV_VAR}: only SQLite and PostgreSQL are supported, not {parsed}")
    return parsed


def is_sqlite(url: URL) -> bool:
    return url.get_backend_name() == "sqlite"
