"""Where a process stalls: for `bench.counted_run` (BENCH_STALLS=PATH).

A daemon thread samples every other thread's stack about every millisecond. A unit of work
is one event-loop callback (a frame of asyncio's `Handle._run`) or one database job
(`storage.database._on_connection`); one that runs longer than BENCH_STALL_MS (default 20)
is written to PATH as a line: when it began (epoch seconds), how long it ran, the thread,
and the place seen in most of its samples (the innermost frame of the bot's own code, then
the innermost frame of all), with that place's share of the samples.
"""

from __future__ import annotations

import collections
import os
import sys
import threading
import time
from pathlib import Path
from types import FrameType

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
