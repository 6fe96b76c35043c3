"""How long this process may trust what it remembers of rows other processes write.

People, chat defaults and names, and the open game of each chat are kept per process and
written through, so a change made here is seen here at once. Another worker's change is
seen only when the copy is read again: while other workers may run, each copy is trusted
for its own number of seconds. A worker known to run alone (the bot marks itself so at
start) trusts them until it learns otherwise: then nothing is re-read in a game that goes
slowly (every update minutes apart) just because time passed. When another worker's
heartbeat is seen (`share`), everything remembered is dropped and the time limits apply
from then on.
"""

from __future__ import annotations

import time
from collections.abc import Callable


class Freshness:
    """Whether a remembered copy may still be used: always while alone, else for a time."""

    def __init__(self) -> None:
        self.alone = False
        self.clock: Callable[[], float] = time.monotonic
        self._forgets: list[Callable[[], None]] = []

    def now(self) -> float:
        """The moment a copy is kept (seconds on `clock`)."""
        return self.clock()

    def fresh(self, kept_at: float, seconds: float) -> bool:
        """A copy kept at `kept_at` (`now()`) is still good for a limit of `seconds`."""
        return self.alone or self.clock() - kept_at < seconds

    def on_share(self, forget: Callable[[], None]) -> None:
        """`forget()` drops a cache's copies when another worker is seen."""
        self._forgets.append(forget)

    def share(self) -> None:
        """Another worker writes too: forget every copy, and time copies from now on."""
        self.alone = False
        for forget in self._forgets:
            forget()
