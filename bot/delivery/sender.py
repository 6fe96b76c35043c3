"""The one sender: delivers outbox rows to Telegram in order, within its limits, with retries.

Every send and edit takes its slots from one `OutboundLimiter` first (Telegram's limits per
group, per private chat and overall). A row whose chat is at its limit, or paused after a
429, is deferred to the moment its slot frees: the other chats' rows go on meanwhile. Rows
are delivered as tasks, so one slow chat never holds up a batch.

Each attempt (a text part: `texts`, an edit: `edits`, a photo: `photos`) answers what came
of it (`outcomes`) and writes nothing; the sender's `Records` write it. A row is marked sent
the moment Telegram answers. A timeout after the request went out leaves the outcome
unknown: Telegram may well have delivered it. Sends get a generous timeout; a part whose
answer was lost is resent only once, after a long back-off, and a split message resends
only the parts not known to be delivered. A person who has not started the bot (403) parks
their rows until they do, and the thread is told once, with a button that opens the private
chat. A group the bot was removed from (403) parks its rows until the bot is added back; a
group that became a supergroup is followed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from datetime import datetime, timedelta

from telegram import Bot, InlineKeyboardMarkup

from bot.delivery.clocks import report_clock
from bot.delivery.edits import edit
from bot.delivery.limiter import Limits, OutboundLimiter, Reservation, SlidingWindowLimiter
from bot.delivery.line import Line
from bot.delivery.links import linked
from bot.delivery.needs import Delivering
from bot.delivery.outcomes import AnswerLost, Outcome, Sent, Wait
from bot.delivery.photos import send_photo
from bot.delivery.pins import pin_sent
from bot.delivery.post import Post, post_of
from bot.delivery.records import DONE, DOUBT_BACKOFF, Recorded, Records, first_known
from bot.delivery.texts import send_part
from bot.delivery.window import MarkWindow
from bot.render.splitting import split_text
from storage.outbox import Handoff, OutboxRow
from storage.outcome import unavailable

__all__ = ["DOUBT_BACKOFF", "Sender"]

log = logging.getLogger(__name__)
LEASE = timedelta(seconds=60)
SEND_TIMEOUT = 30.0  # seconds to wait for Telegram's answer to a send or an edit
PRUNE_EVERY = timedelta(hours=1)
# Seconds between tries of a row while the database does not answer (31 s in all, within
# the 60 s lease of its claim, so no other sender takes it meanwhile).
HICCUP_WAITS = (1.0, 2.0, 4.0, 8.0, 16.0)


CONCURRENT_SENDS = 16
KEEP_SENT = timedelta(days=7)
DRAWN_KEPT = 4096  # picture posts whose board is remembered (edits redraw only on change)


class DatabaseHiccup(Exception):
    """An attempt stopped because the database did not answer (storage.outcome.unavailable)."""


class Sender:
    """Claims rows and sends them; several senders (tasks or processes) may share one outbox.

    Sender tasks of one process share one limiter (pass the same `limiter`)."""

    def __init__(
        self,
        services: Delivering,
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
        self.records = Records(services, worker, limiter)
        self.keep_sent = keep_sent
        self.tasks: set[asyncio.Task[None]] = set()
        self.next_prune: datetime | None = None
        self.stop_within = min(send_timeout, 5.0)  # seconds for the sends under way at stop
        self.inflight: Counter[int] = Counter()  # rows being delivered, by chat
        self._full = False  # the last claim found no room: a finished delivery wakes the loop
        self._asleep: set[asyncio.Task[None]] = set()  # deliveries asleep on their chat's slot
        self.drawn: dict[str, str] = {}  # a picture post's key -> the board it shows now

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

    @property
    def mark_window(self) -> MarkWindow:
        """Seconds from Telegram's answer to the committed mark, per message (bench/delivery.py)."""
        return self.records.mark_window

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
        self.records.behind(handoff.held, self.inflight)

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
            if self.records.left_to_claim(row) or self._full:
                self.services.outbox_ready.set()  # the chat's next row may go now

    def _idle(self) -> float:
        """How long to sleep with nothing to do: until a deferred row falls due, at most 1 s
        (rows written by other processes wake nobody here)."""
        if self.records.wake_at is None:
            return 1.0
        left = self.records.wake_at - self.clock()
        if left <= 0:
            self.records.wake_at = None
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
        for a short while waits here, still claimed: asleep, no database write, no CPU.
        When the database does not answer, it is tried again a few times within its
        lease, then left claimed: the lease's end gives it back (never marked failed)."""
        hiccups = 0
        while True:
            try:
                wait = await self._deliver_once(row)
            except DatabaseHiccup:
                if hiccups == len(HICCUP_WAITS):
                    log.warning("outbox row %s: no database; left to its lease", row.key)
                    return
                wait, hiccups = HICCUP_WAITS[hiccups], hiccups + 1
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
            recorded = await self._attempt(row)
        except Exception as error:  # a message that cannot be rendered is a bug: keep going
            if unavailable(error):  # the database did not answer: not the message's fault
                log.warning("outbox row %s: the database did not answer (%r)", row.key, error)
                raise DatabaseHiccup from error
            log.exception("outbox row %s could not be sent", row.key)
            await self.records.broken(row, error)
            return None
        for following in recorded.following:  # the chat's next rows, claimed by the mark
            self._start(following)
        return recorded.wait

    async def _attempt(self, row: OutboxRow) -> Recorded:
        """Render the row, take its slots, make the attempt and record what came of it (the
        slots are released after the record: the mark is written at once)."""
        if self.stopping:
            return DONE  # left claimed: given back at shutdown
        payload = await linked(row, self.services.store, self.records.sent_ids)
        post = await post_of(self.services.presentations, self.services.directory, row, payload)
        if post is None:  # the person turned reminders off: nothing sent
            return await self.records.record(row, Sent(None))
        target = None
        if post.edit_of is not None:
            target = await self._target(row, post.edit_of)
            if target is None:  # the message to edit was never sent: nothing to do
                return await self.records.record(row, Sent(None))
        whole = target is not None or post.photo is not None  # one request, one slot
        parts = [post.text] if whole else split_text(post.text)
        sent: list[int] = [] if whole else list(row.payload.get("sent_parts") or [])
        reservation = await self.line.reserve(row.chat_id, len(parts) - len(sent))
        if isinstance(reservation, Wait):
            return await self.records.record(row, reservation)
        try:
            outcome: Outcome
            if target is not None:
                outcome = await self._edit(row, reservation, target, post)
            elif post.photo is not None:
                outcome = await send_photo(
                    self.line, row, reservation, post.photo, post.text, post.markup
                )
                if isinstance(outcome, Sent) and post.board is not None:
                    self._drew(row.key, post.board)
            else:
                outcome = await self._send_parts(row, reservation, parts, sent, post.markup)
            if isinstance(outcome, Sent):  # Telegram took it: a clock it starts runs now
                await report_clock(self.services, row, self.services.now())
            recorded = await self.records.record(row, outcome)
        finally:
            await self.line.release(reservation)
        if post.pin and isinstance(outcome, Sent) and outcome.message_id:
            await pin_sent(self.line, self.services, row, outcome.message_id)
        return recorded

    async def _edit(
        self, row: OutboxRow, reservation: Reservation, target: int, post: Post
    ) -> Outcome:
        """An edit of the message `target`: its text; or, for a picture, its caption while
        the board it shows is the one drawn last, else the picture with its caption (a
        board not known to be drawn here, after a restart or by another worker, is drawn)."""
        assert post.edit_of is not None
        if post.photo is None or post.board is None:
            return await edit(self.line, row, reservation, target, post.text, post.markup)
        same = self.drawn.get(post.edit_of) == post.board
        outcome = await edit(
            self.line,
            row,
            reservation,
            target,
            post.text,
            post.markup,
            caption=same,
            photo=None if same else post.photo,
        )
        if isinstance(outcome, Sent):
            self._drew(post.edit_of, post.board)
        return outcome

    def _drew(self, key: str, board: str) -> None:
        """Remember the board a picture post shows (the latest few thousand posts)."""
        self.drawn.pop(key, None)
        self.drawn[key] = board
        if len(self.drawn) > DRAWN_KEPT:
            del self.drawn[next(iter(self.drawn))]

    async def _target(self, row: OutboxRow, key: str) -> int | None:
        """The id of the message the row with `key` sent to the row's chat (None: none)."""
        known = self.records.sent_ids.get(key, row.chat_id)
        if known is not None:
            return known
        return await self.services.store.outbox.sent_message_id(key, row.chat_id)

    async def _send_parts(
        self,
        row: OutboxRow,
        reservation: Reservation,
        parts: list[str],
        sent: list[int],
        markup: InlineKeyboardMarkup | None,
    ) -> Outcome:
        """Send the parts not `sent` yet on the reservation; record each but the last as
        Telegram answers it. What came of the last one attempted."""
        reply_to = row.reply_to_message_id or row.payload.get("reply_to_message_id")
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
            lost = isinstance(outcome, AnswerLost) and self.records.lost_twice(row, index)
            if lost:
                outcome = Sent(0)  # taken as delivered: go on with the next part
            if not isinstance(outcome, Sent):
                return outcome
            sent.append(outcome.message_id or 0)
            if last:
                return Sent(first_known(sent) if lost else sent[0] or None)
            await self.records.part_sent(row, sent)
        return Sent(first_known(sent))  # every part was sent before
