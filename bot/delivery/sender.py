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
import statistics
import time
from collections import Counter, OrderedDict, deque
from datetime import datetime, timedelta
from typing import Any

import httpx
from telegram import Bot, InlineKeyboardMarkup
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)

from bot.delivery.edits import edit
from bot.delivery.limiter import (
    LimiterUnavailable,
    Limits,
    OutboundLimiter,
    Reservation,
    SlidingWindowLimiter,
)
from bot.delivery.payload import Payload, users_in
from bot.delivery.photos import send_photo
from bot.delivery.raw import send_text
from bot.delivery.request_limiter import SENDER
from bot.delivery.unreachable import unreachable
from bot.http import NotSent
from bot.metrics import TOO_MANY_REQUESTS
from bot.render.board_post import board_post
from bot.render.keyboards import buttons_markup, keyboard
from bot.render.messages import compose
from bot.render.reader import Reader
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
SENT_IDS_KEPT = 20_000
CONCURRENT_SENDS = 16
KEEP_SENT = timedelta(days=7)
# Timeouts after which the request certainly never reached Telegram.
NOT_SENT = (httpx.ConnectTimeout, httpx.PoolTimeout, NotSent)
LIMITER_RETRY = 2.0  # seconds a row waits when the shared limiter cannot be reached


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
        self.limiter = limiter or SlidingWindowLimiter(Limits(), self.clock)
        self.send_timeout = send_timeout
        self.keep_sent = keep_sent
        self.tasks: set[asyncio.Task[None]] = set()
        # Requests to Telegram at once: more only fill the HTTP client's pool, whose every
        # request looks at each open connection (the cost grew with their number).
        self.sending = asyncio.Semaphore(concurrent_sends)
        self.wake_at: float | None = None  # the earliest moment a deferred row falls due
        self.next_prune: datetime | None = None
        self.stop_within = min(send_timeout, 5.0)  # seconds for the sends under way at stop
        # Seconds from Telegram's answer to the committed mark, per message (bench/delivery.py).
        self.mark_window: deque[float] = deque(maxlen=100_000)
        self.inflight: Counter[int] = Counter()  # rows being delivered, by chat
        # Chats with rows waiting behind one this sender delivers: its mark claims the next.
        self.held: set[int] = set()
        self._asked_next: set[int] = set()  # rows whose mark asked for the chat's next row
        self._lazy: dict[int, Mark] = {}  # chat -> the lazy mark (an edit's) not yet written
        self.sent_ids: OrderedDict[str, tuple[int, int]] = OrderedDict()  # key -> chat, id
        self._full = False  # the last claim found no room: a finished delivery wakes the loop
        self._waits: dict[int, float] = {}  # row id -> seconds to wait for its chat's slot
        self._asleep: set[asyncio.Task[None]] = set()  # deliveries asleep on their chat's slot
        self.stopping = False  # set at stop: no new request to Telegram begins

    def _reserved(self) -> dict[str, Any]:
        """Tells the application's request limiter that the slot is taken already."""
        return {"rate_limit_args": SENDER} if getattr(self.bot, "rate_limiter", None) else {}

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
        if len(self.mark_window) >= 2:
            p50, p99 = self.window_percentiles()
            log.info(
                "delivery window (Telegram's answer to the committed mark) over %s messages: "
                "p50 %.2f ms, p99 %.2f ms",
                len(self.mark_window),
                p50,
                p99,
            )

    def _stop_starting(self) -> None:
        """From now on no request to Telegram begins: a delivery asleep on a limit, or about
        to send, keeps its row unmarked for the claims given back at shutdown (a send begun
        in the last moments would be cut short after Telegram took it: a double)."""
        self.stopping = True
        for task in self._asleep:
            task.cancel()
        if self._asleep:
            log.info("%d deliveries waiting on a limit given back at shutdown", len(self._asleep))

    def window_percentiles(self) -> tuple[float, float]:
        """p50 and p99 of `mark_window`, in milliseconds (needs two measurements)."""
        cuts = statistics.quantiles((1000 * w for w in self.mark_window), n=100)
        return cuts[49], cuts[98]

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
            await self._deliver_once(row)
            wait = self._waits.pop(row.id, None)
            if wait is None or self.stopping:
                return
            task = asyncio.current_task()
            assert task is not None
            self._asleep.add(task)
            try:
                await asyncio.sleep(wait)
            finally:
                self._asleep.discard(task)

    async def _deliver_once(self, row: OutboxRow) -> None:
        store = self.services.store
        try:
            await self._send(row)
        except Forbidden as error:
            await unreachable(self.services, row, error)
        except ChatMigrated as error:  # the group became a supergroup: follow it
            await store.chats.migrate(row.chat_id, error.new_chat_id)
            await store.outbox.mark_retry(row.id, "migrated", self.services.now())
        except RetryAfter as error:  # this chat only waits; no attempt is counted
            TOO_MANY_REQUESTS.labels(source="sender").inc()
            wait = error.retry_after
            seconds = wait.total_seconds() if isinstance(wait, timedelta) else float(wait)
            with contextlib.suppress(LimiterUnavailable):
                await self.limiter.pause(row.chat_id, seconds)
            await self._defer(row, seconds, "429")
        except LimiterUnavailable as error:  # the shared limiter's store is down: wait
            log.warning("outbound limiter unavailable (%s); row %s waits", error, row.key)
            await self._defer(row, LIMITER_RETRY, "limiter unavailable")
        except BadRequest as error:
            if row.user_id is not None and "chat not found" in error.message.lower():
                await unreachable(self.services, row, error)  # a person the bot cannot reach yet
                return
            log.warning("outbox row %s refused by Telegram: %s", row.key, error.message)
            await store.outbox.mark_failed(row.id, error.message[:500])
        except (NetworkError, TelegramError) as error:
            backoff = min(2 ** (row.attempts + 1), MAX_BACKOFF)
            retry_at = self.services.now() + timedelta(seconds=backoff)
            await store.outbox.mark_retry(row.id, str(error)[:500], retry_at)
        except Exception as error:  # a message that cannot be rendered is a bug: keep going
            log.exception("outbox row %s could not be sent", row.key)
            await store.outbox.mark_failed(row.id, repr(error)[:500])

    async def _defer(self, row: OutboxRow, seconds: float, reason: str | None = None) -> None:
        """Not now: wait in memory if the row's lease outlasts the wait, else give the row
        back to the outbox, due when its slot frees (other chats' rows go on meanwhile)."""
        left = (row.lease_until - self.services.now()).total_seconds() if row.lease_until else 0
        if reason is None and seconds + LEASE_MARGIN < left:
            self._waits[row.id] = seconds
            return
        due = self.clock() + seconds
        self.wake_at = due if self.wake_at is None else min(self.wake_at, due)
        until = self.services.now() + timedelta(seconds=seconds)
        if reason is None:
            await self.services.store.outbox.defer(row.id, until)
        else:
            await self.services.store.outbox.defer(row.id, until, reason)

    async def _settled(self, row: OutboxRow, message_id: int | None, lazy: bool = False) -> None:
        """Telegram answered: mark the row sent at once, and measure until the COMMIT. An
        edit's mark may be `lazy` (storage.marks): it joins the next marks written."""
        answered = time.perf_counter()

        def committed() -> None:
            self.mark_window.append(time.perf_counter() - answered)

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
        if message_id:
            self._remember_sent(row.key, chat, message_id)
        if mark.asked_next and not claimed:
            self.held.discard(chat)
        for following in claimed:
            self._start(following)

    def _remember_sent(self, key: str, chat_id: int, message_id: int) -> None:
        """What this sender sent lately, for edits (no look-up of the message id)."""
        self.sent_ids[key] = (chat_id, message_id)
        if len(self.sent_ids) > SENT_IDS_KEPT:
            self.sent_ids.popitem(last=False)

    async def _reader(self, row: OutboxRow, payload: Payload) -> Reader:
        directory = self.services.directory
        named = users_in(payload.args) | _button_users(payload)
        if row.user_id is not None:  # one read for the reader and the people named
            people = await directory.persons(named | {row.user_id})
            language = await directory.person_language(row.user_id)
        else:
            language = await directory.chat_language(row.chat_id)
            people = await directory.persons(named)
        return Reader(language, payload.tz or "UTC", people, payload.labels or {})

    async def _send(self, row: OutboxRow) -> None:
        if self.stopping:
            return  # left claimed: given back at shutdown
        payload = Payload.from_row(row.payload)
        if (
            payload.kind == "dm.reminder"
            and row.user_id is not None
            and not await self.services.directory.wants_reminders(row.user_id)
        ):
            await self._settled(row, None)  # the person turned reminders off: nothing sent
            return
        reader = await self._reader(row, payload)
        text = compose(reader, payload.kind, payload.args)
        markup = keyboard(buttons_markup(reader, payload.buttons))
        if payload.edit_of is not None:
            await edit(self, row, payload.edit_of, text, markup)
            return
        if payload.board is not None and payload.edit_of is None:
            text, photo = board_post(reader, payload.board, text)
            if photo is not None:
                await send_photo(self, row, photo, text, markup)
                return
        parts = split_text(text)
        sent: list[int] = list(row.payload.get("sent_parts") or [])
        reservation = await self.limiter.reserve(row.chat_id, len(parts) - len(sent))
        if not isinstance(reservation, Reservation):
            await self._defer(row, reservation)
            return
        try:
            await self._send_parts(row, parts, sent, markup, reservation)
        finally:
            await self._release(reservation)

    async def _send_parts(
        self,
        row: OutboxRow,
        parts: list[str],
        sent: list[int],
        markup: InlineKeyboardMarkup | None,
        reservation: Reservation,
    ) -> None:
        """Send the parts not sent yet; record each one as Telegram answers it."""
        reply_to = row.reply_to_message_id or row.payload.get("reply_to_message_id")
        for index in range(len(sent), len(parts)):
            last = index == len(parts) - 1
            try:
                async with self.sending:
                    if self.stopping:
                        return  # left unmarked: given back at shutdown
                    message_id = await send_text(
                        self.bot,
                        row.chat_id,
                        parts[index],
                        topic_id=row.topic_id,
                        reply_to=reply_to if index == 0 else None,
                        markup=markup if last else None,
                        timeout=self.send_timeout,
                    )
            except TimedOut as error:
                reservation.stamp(self.clock())
                if isinstance(error.__cause__, NOT_SENT):
                    raise
                if not await self._lost_answer(row, index, sent, last):
                    return
                continue  # taken as delivered: go on with the next part
            except TelegramError:
                reservation.stamp(self.clock())
                raise
            reservation.stamp(self.clock())
            sent.append(message_id)
            if last:
                await self._settled(row, sent[0] or None)
            else:
                await self.services.store.outbox.record_parts(row.id, sent)

    async def _lost_answer(self, row: OutboxRow, index: int, sent: list[int], last: bool) -> bool:
        """The send of part `index` timed out after the request went out: Telegram may have
        delivered it. The first time, resend it after a long back-off; if its answer is lost
        again, take it as delivered (message id unknown, 0) rather than risk a third copy.
        True when the part is taken as delivered."""
        store = self.services.store
        if row.payload.get("in_doubt") == index:
            log.warning("outbox row %s: answer lost twice, taken as delivered", row.key)
            sent.append(0)
            if last:
                await self._settled(row, next((i for i in sent if i), None))
            else:
                await store.outbox.record_parts(row.id, sent)
            return True
        await store.outbox.record_parts(row.id, sent, in_doubt=index)
        retry_at = self.services.now() + timedelta(seconds=DOUBT_BACKOFF * 2**row.attempts)
        await store.outbox.mark_retry(row.id, f"timed out sending part {index + 1}", retry_at)
        return False

    async def _release(self, reservation: Reservation) -> None:
        """Record the slots' answers (a shared limiter's slots expire anyway if this fails)."""
        try:
            await self.limiter.release(reservation)
        except LimiterUnavailable as error:
            log.warning("outbound limiter unavailable at release (%s)", error)


def _button_users(payload: Payload) -> set[int]:
    return {int(spec["user"]) for row in payload.buttons or [] for spec in row if "user" in spec}
