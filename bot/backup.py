"""`whodunit db backup FILE` and `whodunit db restore FILE [--force]`.

SQLite: the standard library's online backup API (`sqlite3.Connection.backup`) copies the
database page by page and starts over when a writer changed it meanwhile, so the copy is
one consistent moment even while the bot writes (WAL included). PostgreSQL: `pg_dump` in
its custom format, restored with `pg_restore`; both take the URL's host, port, user,
password (through the environment, never the command line) and database.

A backup holds every hand and envelope: it is written readable by its owner only.
A restore refuses to write over a database that already has tables unless `--force`
(stop the bot first: a restore under a running bot is not what anyone wants).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy.engine import URL, make_url

from bot.config import BotConfig
from storage.config import DEFAULT_URL, private_file


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why and what to do."""


def backup(url: str, file: Path) -> str:
    """Write a backup of the database at `url` to `file`; a line saying what was done."""
    parsed = _url(url)
    if _sqlite(parsed):
        source = _sqlite_path(parsed)
        if not source.is_file():
            raise BackupError(f"no database file at {source}")
        _private_empty(file)
        with _connect(source) as src, _connect(file) as dst:
            src.backup(dst, pages=1024)
        return f"backed up {source} to {file}"
    _private_empty(file)
    _run_pg("pg_dump", parsed, ["--format=custom", "--no-owner", f"--file={file}"])
    return f"backed up PostgreSQL database {parsed.database} to {file} (pg_dump custom format)"


def restore(url: str, file: Path, *, force: bool = False) -> str:
    """Restore `file` into the database at `url` (refused over tables unless `force`)."""
    if not file.is_file():
        raise BackupError(f"no backup file at {file}")
    parsed = _url(url)
    if _sqlite(parsed):
        target = _sqlite_path(parsed)
        with _connect(file, readonly=True) as src:
            _check_backup(src, file)
            if target.is_file() and _sqlite_tables(target) and not force:
                raise BackupError(
                    f"{target} already holds a database: stop the bot and add --force to "
                    "replace it, or point WHODUNIT_DATABASE_URL at a new file"
                )
            _private_file(target)
            with _connect(target) as dst:
                src.backup(dst)
        return f"restored {file} into {target}"
    if _pg_tables(parsed) and not force:
        raise BackupError(
            f"PostgreSQL database {parsed.database} already has tables: stop the bots and "
            "add --force to replace them, or restore into a new database"
        )
    options = ["--no-owner", "--exit-on-error", f"--dbname={parsed.database}"]
    if force:
        options[:0] = ["--clean", "--if-exists"]
    _run_pg("pg_restore", parsed, [*options, str(file)])
    return f"restored {file} into PostgreSQL database {parsed.database}"


def run_backup_command(config: BotConfig, action: str, file: str | None, *, force: bool) -> int:
    """The CLI's `db backup` / `db restore`: 0 when done, 2 with a message when not."""
    if not file:
        print(f"whodunit: db {action} needs a FILE", file=sys.stderr)
        return 2
    url = config.database_url or os.environ.get("WHODUNIT_DATABASE_URL") or DEFAULT_URL
    try:
        if action == "backup":
            done = backup(url, Path(file))
        else:
            done = restore(url, Path(file), force=force)
    except BackupError as error:
        print(f"whodunit: {error}", file=sys.stderr)
        return 2
    print(done)
    return 0


def _url(url: str) -> URL:
    parsed = make_url(url)
    if parsed.get_backend_name() not in ("sqlite", "postgresql", "postgres"):
        raise BackupError(f"only SQLite and PostgreSQL databases can be backed up, not {url}")
    return parsed


def _sqlite(url: URL) -> bool:
    return url.get_backend_name() == "sqlite"


def _sqlite_path(url: URL) -> Path:
    database = url.database or ""
    if not database or database == ":memory:" or database.startswith("file:"):
        raise BackupError(f"give the SQLite database as a file path, not {database!r}")
    return Path(database).expanduser()


@contextlib.contextmanager
def _connect(path: Path, *, readonly: bool = False) -> Iterator[sqlite3.Connection]:
    if readonly:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    else:
        connection = sqlite3.connect(path, timeout=30)
    try:
        yield connection
    finally:
        connection.close()


def _check_backup(connection: sqlite3.Connection, file: Path) -> None:
    """A sound SQLite database with the bot's schema in it, or BackupError."""
    try:
        sound = connection.execute("PRAGMA quick_check").fetchone() == ("ok",)
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{file} is not an SQLite database ({error})") from None
    if not sound:
        raise BackupError(f"{file} is damaged (PRAGMA quick_check failed)")
    if not {"alembic_version", "games", "events"} <= tables:
        raise BackupError(f"{file} is not a backup of this bot's database")


def _sqlite_tables(path: Path) -> int:
    with _connect(path) as connection:
        found = connection.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'")
        return int(found.fetchone()[0])


def _private_file(path: Path) -> None:
    private_file(path.resolve())


def _private_empty(file: Path) -> None:
    """An empty file readable by its owner only, in place of whatever was there."""
    file.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileNotFoundError):
        file.unlink()
    os.close(os.open(file, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))


def _pg_env(url: URL) -> dict[str, str]:
    env = dict(os.environ)
    for name, value in (
        ("PGHOST", url.host),
        ("PGPORT", url.port),
        ("PGUSER", url.username),
        ("PGPASSWORD", url.password),
        ("PGDATABASE", url.database),
        ("PGSSLMODE", url.query.get("sslmode")),
    ):
        if value:
            env[name] = str(value)
    return env


def _run_pg(program: str, url: URL, arguments: list[str]) -> None:
    found = shutil.which(program)
    if found is None:
        raise BackupError(
            f"{program} not found: install the PostgreSQL client tools (Debian/Ubuntu: "
            f"apt install postgresql-client, of the server's major version or newer)"
        )
    done = subprocess.run(
        [found, *arguments], env=_pg_env(url), capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise BackupError(f"{program} failed: {done.stderr.strip()[:1000]}")


def _pg_tables(url: URL) -> int:
    """Tables in the public schema of the target database (through psql, like the rest)."""
    sql = "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
    found = shutil.which("psql")
    if found is None:
        raise BackupError("psql not found: install the PostgreSQL client tools")
    done = subprocess.run(
        [found, "-XAtc", sql], env=_pg_env(url), capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise BackupError(f"cannot reach PostgreSQL: {done.stderr.strip()[:1000]}")
    return int(done.stdout.strip() or 0)
