"""The outbound limiter for the few requests made outside the sender (python-telegram-bot).

Almost everything the bot says goes through the outbox's sender, which takes its slots
from the limiter itself (and defers a row rather than wait). A handler that edits a
message in place (the private composer) calls Telegram directly: this `BaseRateLimiter`
puts such calls under the same limiter, so there is one count per chat for all of them.
It waits (asleep until the slot frees, no polling) only the handler that made the call.
Calls marked `SENDER` hold their slots already; requests that post nothing pass freely.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from datetime import timedelta
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

from bot.delivery.limiter import OutboundLimiter, Reservation
from bot.metrics import TOO_MANY_REQUESTS

SENDER = "reserved by the sender"
# Methods that post into a chat or change a post there (what Telegram's limits count).
COUNTED = frozenset(
    {
        "sendMessage",
        "editMessageText",
        "editMessageReplyMarkup",
        "editMessageCaption",
        "editMessageMedia",
        "copyMessage",
        "forwardMessage",
        "sendPhoto",
        "sendDocument",
        "sendPoll",
        "sendDice",
        "sendMediaGroup",
    }
)
JSON = bool | dict[str, Any] | list[dict[str, Any]]


class RequestLimiter(BaseRateLimiter[str]):
    """python-telegram-bot's hook into the one `OutboundLimiter`."""

    def __init__(self, limiter: OutboundLimiter, clock: Callable[[], float]) -> None:
        self.limiter = limiter
        self.clock = clock

    async def initialize(self) -> None:
        """Nothing to set up: the limiter lives as long as the application."""

    async def shutdown(self) -> None:
        """Nothing to release."""

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, JSON]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: str | None,
    ) -> JSON:
        chat_id = data.get("chat_id")
        if rate_limit_args == SENDER or endpoint not in COUNTED or chat_id is None:
            return await callback(*args, **kwargs)
        try:
            chat = int(chat_id)
        except (TypeError, ValueError):  # "@channel": counted as a group would be
            chat = -1
        while not isinstance(reservation := await self.limiter.reserve(chat), Reservation):
            await asyncio.sleep(reservation)  # exactly until the slot frees
        try:
            return await callback(*args, **kwargs)
        except RetryAfter as error:  # this chat waits; the caller decides what to do
            TOO_MANY_REQUESTS.labels(source="handler").inc()
            wait = error.retry_after
            seconds = wait.total_seconds() if isinstance(wait, timedelta) else float(wait)
            await self.limiter.pause(chat, seconds)
            raise
        finally:
            reservation.stamp(self.clock())
            await self.limiter.release(reservation)
