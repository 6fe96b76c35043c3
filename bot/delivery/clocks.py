"""A clock starts when people can see it: once Telegram has taken a message that starts one
(its payload's `clock`: the turn prompt, a refuter's prompt, the Liars read post with its
Liar! button, ...), the moment is reported to the engine as `ClockSeen`, through the same
store path as any command, before the row is marked sent: while a message is unmarked its
clock's deadline waits for it (bot.scheduler), so no deadline runs between the delivery and
the report. A report that fails is logged and the delivery stands: the clock then keeps the
due it had."""

from __future__ import annotations

import logging
from datetime import datetime

from bot.delivery.needs import Delivering
from engine.commands import ClockSeen
from storage.outbox import OutboxRow

log = logging.getLogger(__name__)


async def report_clock(services: Delivering, row: OutboxRow, at: datetime) -> None:
    """Telegram took the row at `at` (sent, or an edit applied): if it starts a clock,
    the engine hears of it now."""
    clock, game_id = row.payload.get("clock"), row.payload.get("game")
    if not clock or game_id is None:
        return
    seen = ClockSeen(clock=str(clock[0]), ref=int(clock[1]), seen_at=at)
    try:
        await services.report(int(game_id), seen)
    except Exception:  # never a delivery's failure: the clock keeps its own due
        log.exception("clock %s:%s of game %s not reported", seen.clock, seen.ref, game_id)
