"""Watching the database's work from outside (benchmarks: bench.counted_run counts
transactions and where they come from, bench.stalls times SQLite's jobs): `watch(watcher)`
shows every storage.database.Database's units of work to `watcher`. Nothing watches in the
bot; a unit then costs one check of an empty list."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Protocol

from sqlalchemy.engine import Connection


class Watcher(Protocol):
    """Sees the database's work go by (benchmarks: bench.counted_run, bench.stalls)."""

    def unit(self, kind: str) -> contextlib.AbstractContextManager[object]:
        """Around each unit of work awaited on the event loop, in the awaiting coroutine:
        kind "read" or "write" (a transaction, or a connection given to migrations),
        "driver" (a statement on PostgreSQL's driver itself)."""
        ...

    def job(self, fn: Callable[[Connection], object]) -> contextlib.AbstractContextManager[object]:
        """Around each job `fn` run in a thread of SQLite's (a transaction)."""
        ...


WATCHERS: list[Watcher] = []


def watch(watcher: Watcher) -> None:
    """Show every Database's work to `watcher` from now on (for measuring, not for use in
    the bot: each unit of work then pays for it)."""
    WATCHERS.append(watcher)


@contextlib.contextmanager
def watched(kind: str) -> Iterator[None]:
    with contextlib.ExitStack() as stack:
        for watcher in WATCHERS:
            stack.enter_context(watcher.unit(kind))
        yield


@contextlib.contextmanager
def watched_job(fn: Callable[[Connection], object]) -> Iterator[None]:
    with contextlib.ExitStack() as stack:
        for watcher in WATCHERS:
            stack.enter_context(watcher.job(fn))
        yield
