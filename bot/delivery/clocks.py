"""A clock starts when people can see it: once Telegram has taken a message that starts one
(its payload's `clock`: the turn prompt, a refuter's prompt, the Liars read post with its
Liar! button, ...), the moment is reported to the engine as `ClockSeen`, through the same
store path as any command. The report runs beside the sender, never holding up a delivery,
and one that fails is logged and dropped: the clock then keeps the due it had."""

from __future__ import annotations

import asyncio
import contextvars
import logging
from datetime import datetime

from bot.services import Services
from engine.commands import ClockSeen
from storage.outbox import OutboxRow

log = logging.getLogger(__name__)


class ClockReports:
    """The reports under way of one sender."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.tasks: set[asyncio.Task[None]] = set()

    def delivered(self, row: OutboxRow, at: datetime) -> None:
        """Telegram took the row at `at` (sent, or an edit applied): if it starts a clock,
        report it in the background."""
        clock, game_id = row.payload.get("clock"), row.payload.get("game")
        if not clock or game_id is None:
            return
        seen = ClockSeen(clock=str(clock[0]), ref=int(clock[1]), seen_at=at)
        # A fresh context: the report belongs to no update being handled (bot.observe).
        task = asyncio.create_task(self._report(int(game_id), seen), context=contextvars.Context())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _report(self, game_id: int, seen: ClockSeen) -> None:
        try:
            await self.services.report(game_id, seen)
        except Exception:  # never a delivery's failure: the clock keeps its own due
            log.exception("clock %s:%s of game %s not reported", seen.clock, seen.ref, game_id)

    async def drain(self, timeout: float | None = None) -> None:
        """Wait for the reports under way (tests; shutdown, at most `timeout` seconds)."""
        if self.tasks:
            await asyncio.wait(set(self.tasks), timeout=timeout)
