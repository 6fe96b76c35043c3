"""Where a process stalls: for `bench.counted_run` (BENCH_STALLS=PATH, BENCH_SLOW=PATH).

BENCH_SLOW: every event-loop callback and database job that took longer than BENCH_SLOW_MS
(default 5), timed where it runs: when it began, its wall time, and its thread's CPU time
in that while (a wall far above the CPU: the thread waited for the GIL or for a core), and
what it was (the task and where it stopped, or the thread of the job).

BENCH_STALLS: a daemon thread samples every other thread's stack about every millisecond.
A unit of work is one event-loop callback (a frame of asyncio's `Handle._run`) or one
database job (`storage.database`'s `_on_connection`, in a thread of SQLite's); one that
runs longer than BENCH_STALL_MS (default 20) is written to PATH as a line: when it began
(epoch seconds), how long it ran, the thread, and the place seen in most of its samples
(the innermost frame of the bot's own code, then the innermost frame of all), with that
place's share of the samples.
"""

from __future__ import annotations

import asyncio
import asyncio.events
import collections
import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import TextIO

from sqlalchemy.engine import Connection

from storage.watch import watch

UNITS = {("events.py", "_run"), ("database.py", "_on_connection")}
OURS = ("/bot/", "/storage/", "/engine/")


def _unit(frame: FrameType) -> FrameType | None:
    """The outermost frame of a unit of work on the stack, if any."""
    found = None
    current: FrameType | None = frame
    while current is not None:
        if (Path(current.f_code.co_filename).name, current.f_code.co_name) in UNITS:
            found = current
        current = current.f_back
    return found


def _place(frame: FrameType, unit: FrameType) -> str:
    """The innermost frame of ours in the unit, over the innermost frame of all."""
    leaf = f"{Path(frame.f_code.co_filename).stem}.{frame.f_code.co_name}"
    current: FrameType | None = frame
    while current is not None and current is not unit:
        name = current.f_code.co_filename
        if any(part in name for part in OURS):
            return f"{Path(name).stem}.{current.f_code.co_name}:{current.f_lineno} > {leaf}"
        current = current.f_back
    return leaf


class _Run:
    def __init__(self, unit: FrameType, now: float) -> None:
        self.unit = unit
        self.start = now
        self.last = now
        self.places: collections.Counter[str] = collections.Counter()


def _sample(path: Path, threshold: float) -> None:
    me = threading.get_ident()
    names: dict[int | None, str] = {}
    runs: dict[int, _Run] = {}
    with path.open("a", buffering=1) as out:

        def close(ident: int) -> None:
            run = runs.pop(ident)
            if run.last - run.start >= threshold:
                place, count = run.places.most_common(1)[0]
                share = count / sum(run.places.values())
                out.write(
                    f"{run.start:.3f} {1000 * (run.last - run.start):6.1f} ms"
                    f" {names.get(ident, str(ident))} {share:4.0%} {place}\n"
                )

        while True:
            now = time.time()
            frames = sys._current_frames()
            if any(ident not in names for ident in frames):
                names = {t.ident: t.name for t in threading.enumerate()}
            for ident, frame in frames.items():
                if ident == me:
                    continue
                unit = _unit(frame)
                run = runs.get(ident)
                if run is not None and run.unit is not unit:
                    close(ident)
                    run = None
                if unit is None:
                    continue
                if run is None:
                    run = runs[ident] = _Run(unit, now)
                run.last = now
                run.places[_place(frame, unit)] += 1
            del frames, frame
            time.sleep(0.001)


def start() -> None:
    """Sample in the background when BENCH_STALLS names a file."""
    target = os.environ.get("BENCH_STALLS")
    if target:
        threshold = float(os.environ.get("BENCH_STALL_MS", "20")) / 1000
        threading.Thread(
            target=_sample, args=(Path(target), threshold), daemon=True, name="stalls"
        ).start()


def _timed_callbacks(path: Path, threshold: float) -> None:
    """BENCH_SLOW=PATH: every event-loop callback and database job that took longer than
    the threshold, with its wall and its thread's CPU time."""
    out = path.open("a", buffering=1)
    run = asyncio.events.Handle._run

    def describe(handle: asyncio.events.Handle) -> str:
        callback = getattr(handle, "_callback", None)
        task = getattr(callback, "__self__", None)
        if isinstance(task, asyncio.Task):
            coro = task.get_coro()
            frame = getattr(coro, "cr_frame", None)
            where = f"{frame.f_code.co_name}:{frame.f_lineno}" if frame is not None else "done"
            return f"task {task.get_name()} {getattr(coro, '__qualname__', '?')} at {where}"
        return f"callback {getattr(callback, '__qualname__', repr(callback))}"

    def timed_run(handle: asyncio.events.Handle) -> None:
        wall, cpu = time.perf_counter(), time.thread_time()
        run(handle)
        took = time.perf_counter() - wall
        if took >= threshold:
            used = time.thread_time() - cpu
            out.write(
                f"{time.time() - took:.3f} loop {1000 * took:6.1f} ms cpu {1000 * used:6.1f}"
                f" {describe(handle)}\n"
            )

    asyncio.events.Handle._run = timed_run  # type: ignore[method-assign,assignment]
    watch(_SlowJobs(out, threshold))


class _SlowJobs:
    """A storage.watch watcher: writes each database job of SQLite's threads that took
    longer than the threshold, with its wall and its thread's CPU time."""

    def __init__(self, out: TextIO, threshold: float) -> None:
        self.out = out
        self.threshold = threshold

    @contextlib.contextmanager
    def unit(self, kind: str) -> Iterator[None]:
        yield

    @contextlib.contextmanager
    def job(self, fn: Callable[[Connection], object]) -> Iterator[None]:
        wall, cpu, process = time.perf_counter(), time.thread_time(), time.process_time()
        try:
            yield
        finally:
            took = time.perf_counter() - wall
            if took >= self.threshold:
                used = time.thread_time() - cpu
                others = time.process_time() - process - used  # the process's other threads
                self.out.write(
                    f"{time.time() - took:.3f} db   {1000 * took:6.1f} ms cpu {1000 * used:6.1f}"
                    f" {threading.current_thread().name} {_job_name(fn)}"
                    f" (other threads {1000 * others:.1f} ms)\n"
                )


def _job_name(fn: object) -> str:
    """The store function inside a database job's wrappers (closures over closures)."""
    name = getattr(fn, "__qualname__", repr(fn))
    for _ in range(4):
        inner = [c.cell_contents for c in getattr(fn, "__closure__", None) or ()]
        found = [f for f in inner if callable(f) and hasattr(f, "__qualname__")]
        if not found:
            break
        fn = found[0]
        name = str(getattr(fn, "__qualname__", name))
    return name


def time_slow() -> None:
    """Time callbacks and jobs when BENCH_SLOW names a file."""
    target = os.environ.get("BENCH_SLOW")
    if target:
        threshold = float(os.environ.get("BENCH_SLOW_MS", "5")) / 1000
        _timed_callbacks(Path(target), threshold)
