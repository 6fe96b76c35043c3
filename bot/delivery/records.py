"""The sender's records: the one writer of what came of a delivery attempt.

A row is marked sent the moment Telegram answers (its own short write, storage.marks); when
another row of its chat waits behind it, the mark claims that one too, so a chat's rows go
one after another with no claim of the loop between. A row not to go now waits in memory
while its lease outlasts the wait, else goes back to the outbox due when its slot frees. A
part whose answer was lost is resent only once, after a long back-off; a network error
backs off; a 403 parks the chat's rows (bot.delivery.unreachable); a refusal is final.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Collection, Container
from dataclasses import dataclass, field
from datetime import timedelta

from bot.delivery.limiter import LimiterUnavailable, OutboundLimiter
from bot.delivery.needs import Delivering
from bot.delivery.outcomes import (
    AnswerLost,
    Failed,
    Migrated,
    Outcome,
    Refused,
    Sent,
    Stopped,
    Unreachable,
    Wait,
)
from bot.delivery.sent_ids import SentIds
from bot.delivery.unreachable import unreachable
from bot.delivery.window import MarkWindow
from bot.metrics import TOO_MANY_REQUESTS
from storage.marks import Mark
from storage.outbox import OutboxRow

log = logging.getLogger(__name__)
LEASE_MARGIN = 10.0  # seconds of its lease a row waiting in memory keeps in hand
MAX_BACKOFF = 300
DOUBT_BACKOFF = 60  # seconds before resending a part whose answer was lost


@dataclass(frozen=True)
class Recorded:
    """What the sender does next: wait `wait` seconds and try the row again (None: the row
    is settled for now), and deliver the `following` rows its mark claimed."""

    wait: float | None = None
    following: list[OutboxRow] = field(default_factory=list)


DONE = Recorded()


class Records:
    """What one sender writes of its deliveries, and the chats whose next row a mark claims."""

    def __init__(self, services: Delivering, worker: str, limiter: OutboundLimiter) -> None:
        self.services = services
        self.worker = worker
        self.limiter = limiter
        self.wake_at: float | None = None  # the earliest moment a row given back falls due
        self.mark_window = MarkWindow()
        self.sent_ids = SentIds()
        # Chats with rows waiting behind one this sender delivers: its mark claims the next.
        self.held: set[int] = set()
        self._asked_next: set[int] = set()  # rows whose mark asked for the chat's next row
        self._lazy: dict[int, Mark] = {}  # chat -> the lazy mark (an edit's) not yet written

    async def record(self, row: OutboxRow, outcome: Outcome) -> Recorded:
        """Write what came of an attempt: the one place a row's delivery is written."""
        store = self.services.store
        now = self.services.now()
        match outcome:
            case Sent(message_id, lazy):
                return await self._settled(row, message_id, lazy)
            case Wait(seconds, reason, paused):
                if paused:
                    TOO_MANY_REQUESTS.labels(source="sender").inc()
                    with contextlib.suppress(LimiterUnavailable):
                        await self.limiter.pause(row.chat_id, seconds)
                return await self._defer(row, seconds, reason)
            case AnswerLost(part, sent):
                if self.lost_twice(row, part):
                    return await self._settled(row, first_known([*sent, 0]))
                # The first time, resend it after a long back-off.
                await store.outbox.record_parts(row.id, list(sent), in_doubt=part)
                retry_at = now + timedelta(seconds=DOUBT_BACKOFF * 2**row.attempts)
                reason = f"timed out sending part {part + 1}"
                await store.outbox.mark_retry(row.id, reason, retry_at)
            case Unreachable(error):
                await unreachable(self.services, row, error)
            case Migrated(new_chat_id):  # the group became a supergroup: follow it
                await store.chats.migrate(row.chat_id, new_chat_id)
                await store.outbox.mark_retry(row.id, "migrated", now)
            case Failed(reason):
                backoff = min(2 ** (row.attempts + 1), MAX_BACKOFF)
                retry_at = now + timedelta(seconds=backoff)
                await store.outbox.mark_retry(row.id, reason[:500], retry_at)
            case Refused(reason):
                log.warning("outbox row %s refused by Telegram: %s", row.key, reason)
                await store.outbox.mark_failed(row.id, reason[:500])
            case Stopped():
                pass  # left claimed: given back at shutdown
        return DONE

    async def part_sent(self, row: OutboxRow, sent: list[int]) -> None:
        """Parts of a long message delivered so far (a retry resends only the others)."""
        await self.services.store.outbox.record_parts(row.id, sent)

    async def broken(self, row: OutboxRow, error: Exception) -> None:
        """The row could not be rendered or sent for a reason of ours (a bug): it never goes."""
        await self.services.store.outbox.mark_failed(row.id, repr(error)[:500])

    def lost_twice(self, row: OutboxRow, part: int) -> bool:
        """Part `part`'s answer was lost before too: take it as delivered (message id
        unknown) rather than risk a third copy."""
        if row.payload.get("in_doubt") != part:
            return False
        log.warning("outbox row %s: answer lost twice, taken as delivered", row.key)
        return True

    def behind(self, chats: Collection[int], under_way: Container[int]) -> None:
        """New rows of these chats wait behind an earlier one: when it is under way here,
        its mark claims them. A lazy mark (an edit's) not yet written holds one: it is
        written now."""
        self.held.update(chat for chat in chats if chat in under_way)
        behind_lazy = [chat for chat in chats if chat in self._lazy]
        for chat in behind_lazy:
            mark = self._lazy[chat]
            if mark.next_for is None:
                mark.next_for = (self.worker, chat)
        if behind_lazy:
            self.services.store.outbox.marks.flush()

    def left_to_claim(self, row: OutboxRow) -> bool:
        """The row's delivery is over: whether its chat's next row is left to the loop (it
        waits behind this row and this row's mark did not ask for it)."""
        asked = row.id in self._asked_next
        self._asked_next.discard(row.id)
        return row.chat_id in self.held and not asked

    async def _defer(self, row: OutboxRow, seconds: float, reason: str | None) -> Recorded:
        """Not now: wait in memory if the row's lease outlasts the wait, else give the row
        back to the outbox, due when its slot frees (other chats' rows go on meanwhile). A
        decoration row is always given back: claimed, it would hold its chat's later rows,
        which go before it (storage.claims)."""
        now = self.services.now()
        left = (row.lease_until - now).total_seconds() if row.lease_until else 0
        waits_here = reason is None and not row.payload.get("decoration")
        if waits_here and seconds + LEASE_MARGIN < left:
            return Recorded(wait=seconds)
        due = now.timestamp() + seconds
        self.wake_at = due if self.wake_at is None else min(self.wake_at, due)
        until = now + timedelta(seconds=seconds)
        if reason is None:
            await self.services.store.outbox.defer(row.id, until)
        else:
            await self.services.store.outbox.defer(row.id, until, reason)
        return DONE

    async def _settled(
        self, row: OutboxRow, message_id: int | None, lazy: bool = False
    ) -> Recorded:
        """Telegram answered: mark the row sent at once, and measure until the COMMIT. An
        edit's mark may be `lazy` (storage.marks): it joins the next marks written."""
        committed = self.mark_window.timer()
        chat = row.chat_id
        next_for = (self.worker, chat) if chat in self.held else None
        mark = Mark(row.id, message_id, self.services.now(), committed, next_for, lazy)
        if lazy:
            self._lazy[chat] = mark
        try:
            _, claimed = await self.services.store.outbox.marks.mark(mark)
        finally:
            if self._lazy.get(chat) is mark:
                del self._lazy[chat]
        if mark.asked_next:
            self._asked_next.add(row.id)
        if message_id:  # for edits, without a look-up
            self.sent_ids.remember(row.key, chat, message_id)
        if mark.asked_next and not claimed:
            self.held.discard(chat)
        return Recorded(following=list(claimed))


def first_known(sent: list[int]) -> int | None:
    """The first part's id known (0: a part taken as delivered, its id unknown)."""
    return next((i for i in sent if i), None)
