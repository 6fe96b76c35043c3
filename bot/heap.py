"""The garbage collector and a long-running bot: what is alive once started stays alive.

A collection of the oldest generation stops the whole process, event loop included, for as
long as it takes to scan every tracked object; with the modules of python-telegram-bot,
SQLAlchemy and the rest that was 50–90 ms a time, long enough to be what the slowest
updates waited on (bench.service with BENCH_GC). The objects alive after start-up (modules,
classes, settings, texts) live as long as the process, so they are moved out of the
collector's sight once: later full collections scan only what came after.
"""

from __future__ import annotations

import gc


def settle_startup_objects() -> int:
    """Collect once, then freeze what is left (gc.freeze); how many objects were frozen.

    Frozen objects are still freed when nothing refers to them; only a cycle among them
    would outlive its use, and these are meant to live until the process ends."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
