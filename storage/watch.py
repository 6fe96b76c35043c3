"""Watching the database's work from outside (benchmarks: bench.counted_run counts
transactions and where they come from, bench.stalls times SQLite's jobs): `watch(watcher)`
shows every storage.database.Database's units of work to `watcher`. Nothing watches in the
bot; a unit then costs one check of an empty list."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator
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


def watched(kind: str) -> contextlib.AbstractContextManager[object]:
    """Around a unit of work awaited on the event loop: every watcher's `unit`."""
    if len(WATCHERS) == 1:  # the usual measurement: no stack of contexts to build
        return WATCHERS[0].unit(kind)
    return _all(watcher.unit(kind) for watcher in WATCHERS)


def watched_job(fn: Callable[[Connection], object]) -> contextlib.AbstractContextManager[object]:
    """Around a job of SQLite's threads: every watcher's `job`."""
    if len(WATCHERS) == 1:
        return WATCHERS[0].job(fn)
    return _all(watcher.job(fn) for watcher in WATCHERS)


@contextlib.contextmanager
def _all(contexts: Iterable[contextlib.AbstractContextManager[object]]) -> Iterator[None]:
    with contextlib.ExitStack() as stack:
        for context in contexts:
            stack.enter_context(context)
        yield
