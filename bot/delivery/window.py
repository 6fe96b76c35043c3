"""The delivery window: seconds from Telegram's answer to the committed mark, per message.

A crash inside that window is the only way a message goes twice (`bench/delivery.py`).
"""

from __future__ import annotations

import logging
import statistics
import time
from collections import deque
from collections.abc import Callable

log = logging.getLogger(__name__)
KEPT = 100_000


class MarkWindow(deque[float]):
    """The latest windows measured, in seconds."""

    def __init__(self, kept: int = KEPT) -> None:
        super().__init__(maxlen=kept)

    def timer(self) -> Callable[[], None]:
        """Telegram answered now: the callable to call once the mark is committed."""
        answered = time.perf_counter()

        def committed() -> None:
            self.append(time.perf_counter() - answered)

        return committed

    def percentiles(self) -> tuple[float, float]:
        """p50 and p99, in milliseconds (needs two measurements)."""
        cuts = statistics.quantiles((1000 * w for w in self), n=100)
        return cuts[49], cuts[98]

    def report(self) -> None:
        """The log line at the sender's stop (with two measurements at least)."""
        if len(self) < 2:
            return
        p50, p99 = self.percentiles()
        log.info(
            "delivery window (Telegram's answer to the committed mark) over %s messages: "
            "p50 %.2f ms, p99 %.2f ms",
            len(self),
            p50,
            p99,
        )
