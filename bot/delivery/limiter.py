"""One outbound limiter for every message and edit the bot sends (Telegram's limits).

Telegram allows about 20 posts a minute in a group, about one message a second in a private
chat, and about 30 messages a second overall; past that it answers 429 with `retry_after`.
`SlidingWindowLimiter` keeps a sliding-window log per chat and one for the whole bot, so a
group never gets more than its count in ANY window (not a burst and then a steady rate),
and a 429 pauses only the chat it concerns.

Nothing here waits: `reserve` either takes the slots at once or answers how many seconds
until they free, and the sender defers the row until then (no polling, no blocked batch).
A slot is stamped with the moment Telegram's answer arrived (`Reservation.stamp`), which is
never earlier than the moment Telegram counted the message; until then it cannot expire.

`SlidingWindowLimiter` keeps its state in this process, shared by every sender task of it and
by the requests handlers make themselves (`bot.delivery.request_limiter`): one event loop, and
no await inside a reservation, so no lock is needed. Telegram's limits are per bot, though:
several workers share one limiter kept in Redis (`bot.delivery.redis_limiter`) or PostgreSQL
(`bot.delivery.pg_limiter`), behind the same asynchronous `OutboundLimiter` interface
(`bot.delivery.limiters.make_limiter` picks one from the settings).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

IN_FLIGHT = math.inf  # a slot whose request has not been answered yet
_OVERALL = 0  # no chat has id 0: the key of the whole bot's log


class LimiterUnavailable(Exception):
    """A shared limiter's store cannot be reached; the send is tried again a little later."""


@dataclass(frozen=True)
class Limits:
    """Counts per window (seconds). Groups: 20 a minute; private chats: 1 a second."""

    group_count: int = 20
    group_window: float = 60.0
    private_count: int = 1
    private_window: float = 1.0
    overall_count: int = 30
    overall_window: float = 1.0

    def of(self, chat_id: int) -> tuple[int, float]:
        """The count and window of one chat."""
        if chat_id < 0:  # groups, supergroups and channels have negative ids
            return self.group_count, self.group_window
        return self.private_count, self.private_window

    def clamp(self, chat_id: int, count: int) -> int:
        """How many slots one reservation may take at most (all of a long message's parts
        at once, unless that is more than a window holds)."""
        return max(1, min(count, self.of(chat_id)[0], self.overall_count))


@dataclass
class Reservation:
    """Slots taken for one chat (one per message part); stamp each when Telegram answers,
    then `release` the reservation (a shared limiter records the stamps then)."""

    chat_id: int
    slots: list[list[float]] = field(default_factory=list)  # [at] cells, in the logs too
    used: int = 0
    tokens: list[str] = field(default_factory=list)  # a shared limiter's names of the slots
    stamps: list[float] = field(default_factory=list)  # answer moments of the used slots

    @property
    def count(self) -> int:
        return max(len(self.slots), len(self.tokens))

    def stamp(self, at: float) -> None:
        """The next slot's request was answered at `at` (it expires a window later)."""
        if self.used < self.count:
            if self.slots:
                self.slots[self.used][0] = at
            self.stamps.append(at)
            self.used += 1


class OutboundLimiter(Protocol):
    """What the sender needs from a limiter (a shared one keeps its logs elsewhere)."""

    clock: Callable[[], float]

    async def reserve(self, chat_id: int, count: int = 1) -> Reservation | float:
        """Take `count` slots now, or answer the seconds until they could be taken."""
        ...

    async def release(self, reservation: Reservation) -> None:
        """Give back the slots of a reservation that were not used (stamped the rest)."""
        ...

    async def pause(self, chat_id: int, seconds: float) -> None:
        """Telegram answered 429 for this chat: send it nothing for `seconds`."""
        ...

    async def close(self) -> None:
        """Let go of connections (nothing for the in-process one)."""
        ...


class SlidingWindowLimiter:
    """Sliding-window logs per chat and overall, with per-chat pauses, on an injected clock."""

    def __init__(self, limits: Limits, clock: Callable[[], float]) -> None:
        self.limits = limits
        self.clock = clock
        self._logs: dict[int, list[list[float]]] = {}
        self._paused: dict[int, float] = {}
        self._since_cleanup = 0

    async def reserve(self, chat_id: int, count: int = 1) -> Reservation | float:
        now = self.clock()
        chat_count, chat_window = self.limits.of(chat_id)
        count = self.limits.clamp(chat_id, count)
        paused = self._paused.get(chat_id, now)
        if paused <= now:
            self._paused.pop(chat_id, None)
        chat_log = self._live(chat_id, chat_window, now)
        overall_log = self._live(_OVERALL, self.limits.overall_window, now)
        until = max(
            paused,
            free_at(chat_log, count, chat_count, chat_window, now),
            free_at(overall_log, count, self.limits.overall_count, self.limits.overall_window, now),
        )
        if until > now:
            return until - now
        reservation = Reservation(chat_id)
        for _ in range(count):
            cell = [IN_FLIGHT]
            chat_log.append(cell)
            overall_log.append(cell)
            reservation.slots.append(cell)
        self._cleanup()
        return reservation

    async def release(self, reservation: Reservation) -> None:
        unused = {id(cell) for cell in reservation.slots[reservation.used :]}
        if not unused:
            return
        for key in (reservation.chat_id, _OVERALL):
            log = self._logs.get(key, [])
            log[:] = [cell for cell in log if id(cell) not in unused]
        reservation.slots = reservation.slots[: reservation.used]

    async def pause(self, chat_id: int, seconds: float) -> None:
        until = self.clock() + max(0.0, seconds)
        self._paused[chat_id] = max(self._paused.get(chat_id, until), until)

    async def close(self) -> None:
        """Nothing to let go of."""

    def _live(self, key: int, window: float, now: float) -> list[list[float]]:
        """The key's log without the slots that left the window (in-flight ones stay)."""
        log = self._logs.setdefault(key, [])
        log[:] = [cell for cell in log if cell[0] + window > now]
        return log

    def _cleanup(self) -> None:
        """Now and then forget chats whose logs are empty (bounded memory)."""
        self._since_cleanup += 1
        if self._since_cleanup < 1000:
            return
        self._since_cleanup = 0
        now = self.clock()
        for key in list(self._logs):
            window = self.limits.overall_window if key == _OVERALL else self.limits.of(key)[1]
            if not self._live(key, window, now):
                del self._logs[key]


def free_at(log: list[list[float]], count: int, limit: int, window: float, now: float) -> float:
    """When `count` more slots fit in the log: once enough of the oldest have expired.

    A slot still in flight has no known expiry; then the answer is a window from now (the
    latest it could be, had it just been answered), and the sender simply asks again."""
    excess = len(log) + count - limit
    if excess <= 0:
        return now
    stamps = sorted(cell[0] for cell in log)
    expires = stamps[excess - 1] + window
    return expires if expires != IN_FLIGHT else now + window
