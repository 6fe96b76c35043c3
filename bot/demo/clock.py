"""The stage's time. `Clock` is the demo's: it starts at the current minute and moves only
when told. `LoopClock` runs on a `SkippingLoop`, an event loop whose time is real time plus
the time the stage skipped: moving it forward skips the loop's timers too, so the bot's own
waits (a delivery asleep until Telegram's limit lets it go, bot/delivery/sender.py) end
when the stage moves the clock past them, as they would in real time (bench/tempo)."""

from __future__ import annotations

import asyncio
import bisect
import time
from datetime import UTC, datetime


class Clock:
    """The demo's time: starts at the current minute, moves only when told."""

    def __init__(self) -> None:
        self._moment = datetime.now(UTC).replace(second=0, microsecond=0)

    def now(self) -> datetime:
        return self._moment

    @property
    def moment(self) -> datetime:
        return self.now()

    @moment.setter
    def moment(self, moment: datetime) -> None:
        """Moves the clock to `moment` (never back)."""
        self._moment = max(self._moment, moment)


class SkippingLoop(asyncio.SelectorEventLoop):
    """An event loop whose time is the monotonic clock plus `skipped` seconds."""

    def __init__(self) -> None:
        self.skipped = 0.0  # before the loop's own set-up, which may read the time
        super().__init__()

    def time(self) -> float:
        return super().time() + self.skipped


class LoopClock(Clock):
    """Real time plus what the stage skipped, shared by the bot's clock and its loop's
    timers. `at` tells the moment of a wall-clock time read meanwhile (the fake Bot API
    stamps its log with time.time())."""

    def __init__(self, loop: SkippingLoop) -> None:
        self.loop = loop
        self.skips: list[tuple[float, float]] = [(0.0, 0.0)]  # (wall time, skipped from then)

    def now(self) -> datetime:
        return datetime.fromtimestamp(time.time() + self.loop.skipped, UTC)

    @property
    def moment(self) -> datetime:
        return self.now()

    @moment.setter
    def moment(self, moment: datetime) -> None:
        ahead = (moment - self.now()).total_seconds()
        if ahead > 0:
            self.loop.skipped += ahead
            self.skips.append((time.time(), self.loop.skipped))

    def at(self, wall: float) -> float:
        """The clock's reading (a POSIX timestamp) when the wall clock read `wall`."""
        index = bisect.bisect_right(self.skips, (wall, float("inf"))) - 1
        return wall + self.skips[max(index, 0)][1]
