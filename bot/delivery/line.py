"""The sender's line to Telegram: its bot, its limiter's slots, its requests at once.

Every attempt (`texts`, `edits`, `photos`) takes its slots here first, makes its request
within the bound on requests at once, stamps the slot when Telegram answers and releases
the reservation. Nothing here touches the outbox.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from telegram import Bot

from bot.delivery.limiter import LimiterUnavailable, OutboundLimiter, Reservation
from bot.delivery.outcomes import Wait
from bot.delivery.request_limiter import SENDER

log = logging.getLogger(__name__)
LIMITER_RETRY = 2.0  # seconds a row waits when the shared limiter cannot be reached


@dataclass
class Line:
    """What an attempt needs to reach Telegram. `stopping` is set at the sender's stop: from
    then on no request begins (one begun in the last moments would be cut short after
    Telegram took it: a double)."""

    bot: Bot
    limiter: OutboundLimiter
    clock: Callable[[], float]
    timeout: float  # seconds to wait for Telegram's answer to a send or an edit
    # Requests to Telegram at once: more only fill the HTTP client's pool, whose every
    # request looks at each open connection (the cost grew with their number).
    sending: asyncio.Semaphore
    stopping: bool = False

    async def reserve(self, chat_id: int, count: int = 1) -> Reservation | Wait:
        """Slots for `count` messages to the chat now, or how long to wait for them."""
        try:
            found = await self.limiter.reserve(chat_id, count)
        except LimiterUnavailable as error:  # the shared limiter's store is down: wait
            log.warning("outbound limiter unavailable (%s); chat %s waits", error, chat_id)
            return Wait(LIMITER_RETRY, "limiter unavailable")
        return found if isinstance(found, Reservation) else Wait(found)

    async def release(self, reservation: Reservation) -> None:
        """Record the slots' answers (a shared limiter's slots expire anyway if this fails)."""
        try:
            await self.limiter.release(reservation)
        except LimiterUnavailable as error:
            log.warning("outbound limiter unavailable at release (%s)", error)

    def reserved(self) -> dict[str, Any]:
        """Tells the application's request limiter that the slot is taken already."""
        return {"rate_limit_args": SENDER} if getattr(self.bot, "rate_limiter", None) else {}
