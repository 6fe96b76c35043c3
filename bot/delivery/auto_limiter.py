"""The outbound limiter of a PostgreSQL worker without Redis: its own counts while it is
alone, the shared counts in PostgreSQL from the moment another worker is seen alive.

Counting in PostgreSQL costs a transaction per send, which a lone worker does not need.
The switch is one-way. A worker that starts beside a running one shares at once; the
running one switches at its next heartbeat (WHODUNIT_SWEEP_SECONDS): for that long its
sends are not in the shared counts. Set WHODUNIT_SHARED_LIMITER=true (or a Redis URL)
to share from the first send.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.delivery.limiter import OutboundLimiter, Reservation

log = logging.getLogger(__name__)


class AutoSharedLimiter:
    """Delegates to `local` until `share()`, then to the limiter `make_shared` builds."""

    def __init__(self, local: OutboundLimiter, make_shared: Callable[[], OutboundLimiter]) -> None:
        self.local = local
        self.make_shared = make_shared
        self.shared: OutboundLimiter | None = None
        self._issued_by: dict[int, OutboundLimiter] = {}

    @property
    def clock(self) -> Callable[[], float]:
        return self.local.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.local.clock = clock
        if self.shared is not None:
            self.shared.clock = clock

    @property
    def current(self) -> OutboundLimiter:
        return self.shared or self.local

    def share(self) -> None:
        """Another worker serves this bot: count in PostgreSQL from now on."""
        if self.shared is not None:
            return
        self.shared = self.make_shared()
        self.shared.clock = self.local.clock
        log.info("another worker is alive: Telegram's limits are now counted in PostgreSQL")

    async def reserve(self, chat_id: int, count: int = 1) -> Reservation | float:
        limiter = self.current
        reservation = await limiter.reserve(chat_id, count)
        if isinstance(reservation, Reservation):
            self._issued_by[id(reservation)] = limiter
        return reservation

    async def release(self, reservation: Reservation) -> None:
        limiter = self._issued_by.pop(id(reservation), self.current)
        await limiter.release(reservation)

    async def pause(self, chat_id: int, seconds: float) -> None:
        await self.local.pause(chat_id, seconds)
        if self.shared is not None:
            await self.shared.pause(chat_id, seconds)

    async def close(self) -> None:
        await self.local.close()
        if self.shared is not None:
            await self.shared.close()
