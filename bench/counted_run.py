"""`whodunit run` with its database transactions counted: for `bench.service`.

    .venv/bin/python -m bench.counted_run FILE   (then the usual WHODUNIT_* environment)

A SQLAlchemy event on every engine counts transactions begun (`begin`) and committed
(`commit`), and a wrapper the statements PostgreSQL runs on the driver itself (each its own
transaction); a daemon thread writes "begun committed" to FILE every 0.2 s (with
BENCH_TX_SITES=PATH, also the transactions by the code that began them and their mean
wall time, to PATH; with
BENCH_STATEMENTS=PATH, the statements run, by their first words, to PATH: on SQLite as the
driver ran them, those run on its cursor directly included; with BENCH_GC=PATH, each
collection of the older generations: when, which, and how long it stopped the process; with
BENCH_STALLS=PATH and BENCH_SLOW=PATH, where the process stalls: bench.stalls). Otherwise
this is `whodunit run` itself (`bot.cli.main(["run"])`): the count is how `bench.service` measures
transactions per update on SQLite, which has no statistics view.
"""

from __future__ import annotations

import collections
import contextlib
import gc
import os
import sqlite3
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import asyncpg
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

from bench import stalls
from bot.cli import main as whodunit
from storage.watch import watch

COUNTS = {"begin": 0, "commit": 0}
SITES: collections.Counter[str] = collections.Counter()
STATEMENTS: collections.Counter[str] = collections.Counter()
WAITED: collections.defaultdict[str, float] = collections.defaultdict(float)  # s, by site
OURS = ("/bot/", "/storage/")  # frames of ours
PLUMBING = ("storage/database.py", "storage/watch.py")  # the frames that show it to us


def _site() -> str:
    """The innermost frames of the bot's own code that began a transaction."""
    frames = [
        f
        for f in traceback.extract_stack()[:-2]
        if any(p in f.filename for p in OURS) and not f.filename.endswith(PLUMBING)
    ]
    return " < ".join(f"{Path(f.filename).stem}.{f.name}" for f in reversed(frames[-4:]))


def _count(kind: str) -> Any:
    def listener(*_: object) -> None:
        COUNTS[kind] += 1

    return listener


def _publish(path: Path) -> None:
    last = ""
    while True:
        now = f"{COUNTS['begin']} {COUNTS['commit']}"
        if now != last:
            path.with_suffix(".tmp").write_text(now)
            path.with_suffix(".tmp").replace(path)
            last = now
            if SITES:
                lines = (
                    f"{count} {1000 * WAITED[site] / count:6.2f} ms {site}"
                    for site, count in SITES.most_common()
                )
                Path(os.environ["BENCH_TX_SITES"]).write_text("\n".join(lines))
            if STATEMENTS:
                lines = (f"{count} {key}" for key, count in STATEMENTS.most_common())
                Path(os.environ["BENCH_STATEMENTS"]).write_text("\n".join(lines))
        if GC_PAUSES:
            lines = (f"{at:.3f} {gen} {1000 * took:.1f}" for at, gen, took in list(GC_PAUSES))
            Path(os.environ["BENCH_GC"]).write_text("\n".join(lines))
        time.sleep(0.2)


class _Counted:
    """A storage.watch watcher: each statement run on PostgreSQL's driver itself is a
    transaction of its own (autocommit), which SQLAlchemy's events do not see; with
    `sites`, each unit of database work counted by the coroutines that asked for it."""

    def __init__(self, sites: bool) -> None:
        self.sites = sites

    @contextlib.contextmanager
    def unit(self, kind: str) -> Iterator[None]:
        site = _site() if self.sites else ""
        start = time.perf_counter()
        if kind == "driver":
            COUNTS["begin"] += 1
        try:
            yield
            if kind == "driver":
                COUNTS["commit"] += 1
        finally:
            if self.sites:
                SITES[site] += 1
                WAITED[site] += time.perf_counter() - start

    @contextlib.contextmanager
    def job(self, fn: Callable[[Connection], object]) -> Iterator[None]:
        yield


GC_STARTED: list[float] = [0.0]
GC_PAUSES: list[tuple[float, int, float]] = []  # (when, generation, seconds)


def _time_collections(phase: str, info: dict[str, Any]) -> None:
    """gc.callbacks: each collection's pause, written to BENCH_GC with the rest."""
    if phase == "start":
        GC_STARTED[0] = time.perf_counter()
    elif info["generation"] > 0:
        GC_PAUSES.append((time.time(), info["generation"], time.perf_counter() - GC_STARTED[0]))


def _statement(conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
    if conn.dialect.name != "sqlite":  # SQLite's are counted by the driver (_trace)
        _count_statement(statement)


def _count_statement(statement: str) -> None:
    STATEMENTS[" ".join(statement.split())[:90]] += 1


def _log_driver_queries(dbapi_connection: Any, _record: Any) -> None:
    """PostgreSQL: the statements run on asyncpg itself (Database.run_driver) too, through
    asyncpg's query loggers (SQLAlchemy's own go through prepared statements, which those
    do not see: they are counted by `_statement`)."""
    driver = getattr(dbapi_connection, "driver_connection", None)
    if isinstance(driver, asyncpg.Connection):
        driver.add_query_logger(_driver_query)


def _driver_query(record: Any) -> None:
    if not record.query.lstrip().startswith(("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT")):
        _count_statement(record.query)  # (SQLAlchemy's transactions are counted as theirs)


def _trace(dbapi_connection: Any, _record: Any) -> None:
    """SQLite: every statement the driver runs, those run on its cursor directly too."""
    if isinstance(dbapi_connection, sqlite3.Connection):
        dbapi_connection.set_trace_callback(_count_statement)


BOT_FILES = ("BENCH_TX_SITES", "BENCH_STATEMENTS", "BENCH_GC", "BENCH_STALLS", "BENCH_SLOW")


def _own_files() -> None:
    """BENCH_FILES_TAG=TAG: this bot's BENCH_* files end in .TAG (bench.service runs the bots
    of several configurations side by side)."""
    tag = os.environ.get("BENCH_FILES_TAG")
    for key in BOT_FILES if tag else ():
        if os.environ.get(key):
            os.environ[key] = f"{os.environ[key]}.{tag}"


def main() -> int:
    """Count, then run the bot."""
    path = Path(sys.argv[1])
    _own_files()
    event.listen(Engine, "begin", _count("begin"))
    event.listen(Engine, "commit", _count("commit"))
    watch(_Counted(sites=bool(os.environ.get("BENCH_TX_SITES"))))
    if os.environ.get("BENCH_STATEMENTS"):
        event.listen(Engine, "before_cursor_execute", _statement)
        event.listen(Engine, "connect", _trace)
        event.listen(Engine, "connect", _log_driver_queries)
    if os.environ.get("BENCH_GC"):
        gc.callbacks.append(_time_collections)
    threading.Thread(target=_publish, args=(path,), daemon=True).start()
    stalls.start()
    stalls.time_slow()
    return whodunit(["run"])


if __name__ == "__main__":
    sys.exit(main())
