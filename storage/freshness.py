"""How long this process may trust what it remembers of rows other processes write.

People, chat defaults and names, and the open game of each chat are kept per process
(`Copies`) and written through, so a change made here is seen here at once. Another
worker's change is seen only when the copy is read again: while other workers may run,
each copy is trusted for its own number of seconds. A worker known to run alone (the bot
marks itself so at start) trusts them until it learns otherwise: then nothing is re-read
in a game that goes slowly (every update minutes apart) just because time passed. When
another worker's heartbeat is seen (`share`), every copy is dropped and the time limits
apply from then on.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Freshness:
    """Whether a remembered copy may still be used: always while alone, else for a time."""

    def __init__(self) -> None:
        self.alone = False
        self.clock: Callable[[], float] = time.monotonic
        self._copies: list[Copies[Any, Any]] = []

    def fresh(self, kept_at: float, seconds: float) -> bool:
        """A copy kept at `kept_at` (on `clock`) is still good for a limit of `seconds`."""
        return self.alone or self.clock() - kept_at < seconds

    def share(self) -> None:
        """Another worker writes too: forget every copy, and time copies from now on."""
        self.alone = False
        for copies in self._copies:
            copies.clear()


class Copies(Generic[K, V]):
    """Remembered values by key, each good for `seconds` (or while `freshness` is alone);
    at most `most` of them (all are dropped when more come)."""

    def __init__(self, freshness: Freshness, seconds: float, most: int = 10_000) -> None:
        self.freshness = freshness
        self.seconds = seconds
        self.most = most
        self._kept: dict[K, tuple[float, V]] = {}
        freshness._copies.append(self)

    def get(self, key: K) -> V | None:
        found = self._kept.get(key)
        if found is None or not self.freshness.fresh(found[0], self.seconds):
            return None
        return found[1]

    def put(self, key: K, value: V) -> V:
        if len(self._kept) >= self.most:
            self._kept.clear()
        self._kept[key] = (self.freshness.clock(), value)
        return value

    def pop(self, key: K) -> None:
        self._kept.pop(key, None)

    def drop(self, which: Callable[[K, V], bool]) -> None:
        """Forget the copies `which(key, value)` picks."""
        for key in [k for k, (_, v) in self._kept.items() if which(k, v)]:
            del self._kept[key]

    def clear(self) -> None:
        self._kept.clear()
