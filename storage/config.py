"""Where the database lives: `WHODUNIT_DATABASE_URL`, or an SQLite file under ./data/."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy.engine import URL, make_url

ENV_VAR = "WHODUNIT_DATABASE_URL"
DEFAULT_URL = "sqlite+aiosqlite:///./data/whodunit.db"

# Short names people write in an environment file, mapped to the async drivers we use.
_ASYNC_DRIVERS = {
    "sqlite": "sqlite+aiosqlite",
    "postgresql": "postgresql+asyncpg",
    "postgres": "postgresql+asyncpg",
}


def database_url(url: str | None = None) -> URL:
    """The configured URL with an async driver; creates the folder of an SQLite file."""
    raw = url or os.environ.get(ENV_VAR) or DEFAULT_URL
    parsed = make_url(raw)
    driver = _ASYNC_DRIVERS.get(parsed.drivername)
    if driver is not None:
        parsed = parsed.set(drivername=driver)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database and database != ":memory:" and not database.startswith("file:"):
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    return parsed


def is_sqlite(url: URL) -> bool:
    return url.get_backend_name() == "sqlite"
