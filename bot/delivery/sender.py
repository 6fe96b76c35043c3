"""The one sender: delivers outbox rows to Telegram in order, within its limits, with retries.

Every send and edit takes its slots from one `OutboundLimiter` first (Telegram's limits per
group, per private chat and overall). A row whose chat is at its limit, or paused after a
429, is deferred to the moment its slot frees: the other chats' rows go on meanwhile. Rows
are delivered as tasks, so one slow chat never holds up a batch.

A row is marked sent the moment Telegram answers (its own short write). A timeout after
the request went out leaves the outcome unknown: Telegram may well have delivered it. Sends
get a generous timeout; a part whose answer was lost is resent only once, after a long
back-off, and a split message resends only the parts not known to be delivered. A person
who has not started the bot (403) parks their rows until they do, and the thread is told
once, with a button that opens the private chat. A group the bot was removed from (403)
parks its rows until the bot is added back; a group that became a supergroup is followed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from datetime import datetime, timedelta

from telegram import Bot, InlineKeyboardMarkup

from bot.delivery.edits import edit
from bot.delivery.limiter import LimiterUnavailable, Limits, OutboundLimiter, SlidingWindowLimiter
from bot.delivery.line import Line
from bot.delivery.outcomes import (
    STOPPED,
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
from bot.delivery.photos import send_photo
from bot.delivery.post import post_of
from bot.delivery.sent_ids import SentIds
from bot.delivery.texts import send_part
from bot.delivery.unreachable import unreachable
from bot.delivery.window import MarkWindow
from bot.metrics import TOO_MANY_REQUESTS
from bot.render.splitting import split_text
from bot.services import Services
from storage.marks import Mark
from storage.outbox import Handoff, OutboxRow

log = logging.getLogger(__name__)
LEASE = timedelta(seconds=60)
LEASE_MARGIN = 10.0  # seconds of its lease a row waiting in memory keeps in hand
MAX_BACKOFF = 300
DOUBT_BACKOFF = 60  # seconds before resending a part whose answer was lost
SEND_TIMEOUT = 30.0  # seconds to wait for Telegram's answer to a send or an edit
PRUNE_EVERY = timedelta(hours=1)
CONCURRENT_SENDS = 16
KEEP_SENT = timedelta(days=7)


class Sender:
    """Claims rows and sends them; several senders (tasks or processes) may share one outbox.

    Sender tasks of one process share one limiter (pass the same `limiter`)."""

    def __init__(
        self,
        services: Services,
        bot: Bot,
        worker: str = "sender",
        limiter: OutboundLimiter | None = None,
        *,
        send_timeout: float = SEND_TIMEOUT,
        keep_sent: timedelta = KEEP_SENT,
        concurrent_sends: int = CONCURRENT_SENDS,
    ) -> None:
        self.services = services
        self.bot = bot
        self.worker = worker
        limiter = limiter or SlidingWindowLimiter(Limits(), self.clock)
        sending = asyncio.Semaphore(concurrent_sends)
        self.line = Line(bot, limiter, self.clock, send_timeout, sending)
        self.keep_sent = keep_sent
        self.tasks: set[asyncio.Task[None]] = set()
        self.wake_at: float | None = None  # the earliest moment a deferred row falls due
        self.next_prune: datetime | None = None
        self.stop_within = min(send_timeout, 5.0)  # seconds for the sends under way at stop
        self.mark_window = MarkWindow()
        self.inflight: Counter[int] = Counter()  # rows being delivered, by chat
        # Chats with rows waiting behind one this sender delivers: its mark claims the next.
        self.held: set[int] = set()
        self._asked_next: set[int] = set()  # rows whose mark asked for the chat's next row
        self._lazy: dict[int, Mark] = {}  # chat -> the lazy mark (an edit's) not yet written
        self.sent_ids = SentIds()
        self._full = False  # the last claim found no room: a finished delivery wakes the loop
        self._asleep: set[asyncio.Task[None]] = set()  # deliveries asleep on their chat's slot

    @property
    def limiter(self) -> OutboundLimiter:
        return self.line.limiter

    @property
    def send_timeout(self) -> float:
        """Seconds to wait for Telegram's answer to a send or an edit."""
        return self.line.timeout

    @send_timeout.setter
    def send_timeout(self, seconds: float) -> None:
        self.line.timeout = seconds

    @property
    def stopping(self) -> bool:
        """Set at stop: no new request to Telegram begins."""
        return self.line.stopping

    def clock(self) -> float:
        """The services' clock in seconds: the limiter and the deferrals share it."""
        return self.services.now().timestamp()

    async def run(self, stop: asyncio.Event) -> None:
        """Deliver until `stop` is set; sleep until woken when there is nothing to send."""
        while not stop.is_set():
            self.services.outbox_ready.clear()  # before claiming: no wake-up is missed
            try:
                claimed = await self.deliver_some()
                await self._prune_now_and_then()
            except Exception:  # the loop must survive a database hiccup
                log.exception("outbox delivery failed; retrying")
                claimed = 0
            if claimed == 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.services.outbox_ready.wait(), self._idle())
        self._stop_starting()
        if self.tasks:  # finish the sends under way; one cut short is claimed again
            _, late = await asyncio.wait(set(self.tasks), timeout=self.stop_within)
            for task in late:
                task.cancel()
            if late:
                log.warning("%d deliveries unfinished at shutdown; given back", len(late))
                await asyncio.wait(late)
        self.mark_window.report()

    def _stop_starting(self) -> None:
        """From now on no request to Telegram begins: a delivery asleep on a limit, or about
        to send, keeps its row unmarked for the claims given back at shutdown (a send begun
        in the last moments would be cut short after Telegram took it: a double)."""
        self.line.stopping = True
        for task in self._asleep:
            task.cancel()
        if self._asleep:
            log.info("%d deliveries waiting on a limit given back at shutdown", len(self._asleep))

    def window_percentiles(self) -> tuple[float, float]:
        """p50 and p99 of `mark_window`, in milliseconds (needs two measurements)."""
        return self.mark_window.percentiles()

    async def deliver_some(self, limit: int = 20) -> int:
        """Claim up to `limit` rows (fewer while deliveries are under way) and start them."""
        room = limit - (len(self.tasks) - len(self._asleep))  # rows asleep on a limit take none
        self._full = room <= 0
        if self._full:
            return 0  # a finished delivery wakes the loop
        store = self.services.store
        rows = await store.outbox.claim(self.worker, self.services.now(), limit=room, lease=LEASE)
        for row in rows:
            self._start(row)
        return len(rows)

    def hand_over(self, handoff: Handoff) -> None:
        """Deliver rows a write claimed for this sender; note the chats whose new rows wait
        behind an earlier one (that row's mark claims them; if none is under way here, the
        loop claims them now)."""
        for row in handoff.rows:
            self._start(row)
        if any(chat not in self.inflight for chat in handoff.held):
            self.services.outbox_ready.set()
        self.held.update(chat for chat in handoff.held if chat in self.inflight)
        behind_lazy = [chat for chat in handoff.held if chat in self._lazy]
        for chat in behind_lazy:  # a lazy mark holds a new row: write it now, claiming it
            mark = self._lazy[chat]
            if mark.next_for is None:
                mark.next_for = (self.worker, chat)
        if behind_lazy:
            self.services.store.outbox.marks.flush()

    def _start(self, row: OutboxRow) -> None:
        self.inflight[row.chat_id] += 1
        task = asyncio.create_task(self._deliver_and_wake(row))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def drain(self) -> None:
        """Wait for the deliveries under way (tests, shutdown)."""
        while self.tasks:
            await asyncio.wait(set(self.tasks))

    async def _deliver_and_wake(self, row: OutboxRow) -> None:
        try:
            await self.deliver(row)
        except Exception:  # a database hiccup: the lease gives the row back
            log.exception("outbox row %s could not be settled", row.key)
        finally:
            self.inflight[row.chat_id] -= 1
            if self.inflight[row.chat_id] <= 0:
                del self.inflight[row.chat_id]
            asked = row.id in self._asked_next
            self._asked_next.discard(row.id)
            if self._full or (row.chat_id in self.held and not asked):
                self.services.outbox_ready.set()  # the chat's next row may go now

    def _idle(self) -> float:
        """How long to sleep with nothing to do: until a deferred row falls due, at most 1 s
        (rows written by other processes wake nobody here)."""
        if self.wake_at is None:
            return 1.0
        left = self.wake_at - self.clock()
        if left <= 0:
            self.wake_at = None
        return min(1.0, max(0.0, left))

    async def _prune_now_and_then(self) -> None:
        now = self.services.now()
        if self.next_prune is not None and now < self.next_prune:
            return
        self.next_prune = now + PRUNE_EVERY
        pruned = await self.services.store.outbox.prune(now, self.keep_sent)
        if pruned:
            log.info("outbox: %s settled rows older than %s pruned", pruned, self.keep_sent)

    async def deliver(self, row: OutboxRow) -> None:
        """Send (or edit) one row and record the outcome. A row whose chat is at its limit
        for a short while waits here, still claimed: asleep, no database write, no CPU."""
        while True:
            wait = await self._deliver_once(row)
            if wait is None or self.stopping:
                return
            task = asyncio.current_task()
            assert task is not None
            self._asleep.add(task)
            try:
                await asyncio.sleep(wait)
            finally:
                self._asleep.discard(task)

    async def _deliver_once(self, row: OutboxRow) -> float | None:
        """One attempt and its record; the seconds to wait here before the next attempt."""
        try:
            return await self._record(row, await self._attempt(row))
        except Exception as error:  # a message that cannot be rendered is a bug: keep going
            log.exception("outbox row %s could not be sent", row.key)
            await self.services.store.outbox.mark_failed(row.id, repr(error)[:500])
            return None

    async def _attempt(self, row: OutboxRow) -> Outcome:
        if self.stopping:
            return STOPPED  # left claimed: given back at shutdown
        post = await post_of(self.services.directory, row)
        if post is None:
            return Sent(None)  # the person turned reminders off: nothing sent
        if post.edit_of is not None:
            return await edit(
                self.line, row, await self._target(row, post.edit_of), post.text, post.markup
            )
        if post.photo is not None:
            return await send_photo(self.line, row, post.photo, post.text, post.markup)
        return await self._send_parts(row, split_text(post.text), post.markup)

    async def _target(self, row: OutboxRow, key: str) -> int | None:
        """The id of the message the row with `key` sent to the row's chat (None: none)."""
        known = self.sent_ids.get(key, row.chat_id)
        if known is not None:
            return known
        return await self.services.store.outbox.sent_message_id(key, row.chat_id)

    async def _send_parts(
        self, row: OutboxRow, parts: list[str], markup: InlineKeyboardMarkup | None
    ) -> Outcome:
        """Send the parts not sent yet on one reservation; record each but the last as
        Telegram answers it. What came of the last one attempted."""
        sent: list[int] = list(row.payload.get("sent_parts") or [])
        reservation = await self.line.reserve(row.chat_id, len(parts) - len(sent))
        if isinstance(reservation, Wait):
            return reservation
        reply_to = row.reply_to_message_id or row.payload.get("reply_to_message_id")
        try:
            for index in range(len(sent), len(parts)):
                last = index == len(parts) - 1
                outcome = await send_part(
                    self.line,
                    row,
                    reservation,
                    index,
                    parts[index],
                    sent=tuple(sent),
                    reply_to=reply_to if index == 0 else None,
                    markup=markup if last else None,
                )
                lost_twice = isinstance(outcome, AnswerLost) and self._lost_twice(row, index)
                if lost_twice:
                    outcome = Sent(0)  # taken as delivered: go on with the next part
                if not isinstance(outcome, Sent):
                    return outcome
                sent.append(outcome.message_id or 0)
                if last:
                    return Sent(_first_known(sent) if lost_twice else sent[0] or None)
                await self.services.store.outbox.record_parts(row.id, sent)
        finally:
            await self.line.release(reservation)
        return Sent(_first_known(sent))  # every part was sent before

    def _lost_twice(self, row: OutboxRow, part: int) -> bool:
        """Part `part`'s answer was lost before too: take it as delivered (message id
        unknown) rather than risk a third copy."""
        if row.payload.get("in_doubt") != part:
            return False
        log.warning("outbox row %s: answer lost twice, taken as delivered", row.key)
        return True

    async def _record(self, row: OutboxRow, outcome: Outcome) -> float | None:
        """Record what came of an attempt: the one place a row's delivery is written. The
        seconds the row waits here, still claimed, before its next attempt (None: done)."""
        store = self.services.store
        now = self.services.now()
        match outcome:
            case Sent(message_id, lazy):
                await self._settled(row, message_id, lazy)
            case Wait(seconds, reason, paused):
                if paused:
                    TOO_MANY_REQUESTS.labels(source="sender").inc()
                    with contextlib.suppress(LimiterUnavailable):
                        await self.limiter.pause(row.chat_id, seconds)
                return await self._defer(row, seconds, reason)
            case AnswerLost(part, sent):
                if self._lost_twice(row, part):
                    await self._settled(row, _first_known([*sent, 0]))
                    return None
                # The first time, resend it after a long back-off.
                await store.outbox.record_parts(row.id, list(sent), in_doubt=part)
                retry_at = now + timedelta(seconds=DOUBT_BACKOFF * 2**row.attempts)
                await store.outbox.mark_retry(
                    row.id, f"timed out sending part {part + 1}", retry_at
                )
            case Unreachable(error):
                await unreachable(self.services, row, error)
            case Migrated(new_chat_id):  # the group became a supergroup: follow it
                await store.chats.migrate(row.chat_id, new_chat_id)
                await store.outbox.mark_retry(row.id, "migrated", now)
            case Failed(reason):
                backoff = min(2 ** (row.attempts + 1), MAX_BACKOFF)
                await store.outbox.mark_retry(
                    row.id, reason[:500], now + timedelta(seconds=backoff)
                )
            case Refused(reason):
                log.warning("outbox row %s refused by Telegram: %s", row.key, reason)
                await store.outbox.mark_failed(row.id, reason[:500])
            case Stopped():
                pass  # left claimed: given back at shutdown
        return None

    async def _defer(self, row: OutboxRow, seconds: float, reason: str | None) -> float | None:
        """Not now: wait in memory if the row's lease outlasts the wait (the seconds), else
        give the row back to the outbox, due when its slot frees (other chats' rows go on
        meanwhile)."""
        left = (row.lease_until - self.services.now()).total_seconds() if row.lease_until else 0
        if reason is None and seconds + LEASE_MARGIN < left:
            return seconds
        due = self.clock() + seconds
        self.wake_at = due if self.wake_at is None else min(self.wake_at, due)
        until = self.services.now() + timedelta(seconds=seconds)
        if reason is None:
            await self.services.store.outbox.defer(row.id, until)
        else:
            await self.services.store.outbox.defer(row.id, until, reason)
        return None

    async def _settled(self, row: OutboxRow, message_id: int | None, lazy: bool = False) -> None:
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
        for following in claimed:
            self._start(following)


def _first_known(sent: list[int]) -> int | None:
    """The first part's id known (0: a part taken as delivered, its id unknown)."""
    return next((i for i in sent if i), None)
