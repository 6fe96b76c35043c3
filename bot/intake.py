"""Long polling that confirms an update to Telegram only once its handling has finished.

python-telegram-bot's own polling confirms a batch (the next getUpdates' offset) as soon as
it has fetched it, so updates fetched but not yet handled are lost when the process dies.
Here each update is handled in its own task, and the offset given to Telegram never passes
an update whose handling has not finished. An update that is delivered again after a crash
(handled and committed, not yet confirmed) is skipped when a game command of it is
recorded (storage.updates); its replies carry keys the outbox deduplicates.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Sequence
from typing import Any

from telegram import Update
from telegram.error import Conflict, InvalidToken, NetworkError, RetryAfter, TelegramError

from bot.context import App
from bot.services import Services
from bot.shutdown import Budget, close_application, watchdog

log = logging.getLogger(__name__)

ALLOWED_UPDATES = ("message", "edited_message", "callback_query", "my_chat_member", "chat_member")
POLL_SECONDS = 30  # Telegram holds a getUpdates this long when there is nothing new
DRAIN_SECONDS = 20.0  # at shutdown, how long updates in flight may take to finish
PRUNE_EVERY = 3600.0  # seconds between prunings of old handled-update ids
MAX_BACKOFF = 30.0
READ_TIMEOUT = 5.0  # beyond the long poll's own time, as python-telegram-bot's default


class Ledger:
    """The updates fetched by this process: which are in flight, and what may be confirmed."""

    def __init__(self) -> None:
        self.open: set[int] = set()
        self.seen: set[int] = set()
        self.changed = asyncio.Event()

    def is_new(self, update_id: int) -> bool:
        return update_id not in self.seen

    def started(self, update_id: int) -> None:
        self.seen.add(update_id)
        self.open.add(update_id)

    def finished(self, update_id: int) -> None:
        self.open.discard(update_id)
        self.changed.set()

    def offset(self) -> int | None:
        """The next getUpdates' offset: every update below it has been handled."""
        if self.open:
            first = min(self.open)
        elif self.seen:
            first = max(self.seen) + 1
        else:
            return None
        self.seen = {u for u in self.seen if u >= first}
        return first


class Intake:
    """Fetches updates with getUpdates and hands each to the Application as a task."""

    def __init__(
        self,
        application: App,
        *,
        poll_seconds: int = POLL_SECONDS,
        allowed_updates: Sequence[str] = ALLOWED_UPDATES,
    ) -> None:
        self.application = application
        self.poll_seconds = poll_seconds
        self.allowed_updates = list(allowed_updates)
        self.ledger = Ledger()
        self.drain_seconds = DRAIN_SECONDS
        self.tasks: set[asyncio.Task[None]] = set()
        self._failures = 0
        self._pruned_at: float | None = None
        # Updates above the highest id handled before this process started are new to us:
        # only those up to it may be redeliveries, so only those are looked up.
        self._handled_before: int | None = None
        self._high_water_read = False

    async def run(self, stop: asyncio.Event) -> None:
        """Fetch and dispatch until `stop` is set; then let updates in flight finish."""
        while not stop.is_set():
            self.ledger.changed.clear()
            updates = await self._fetch(stop)
            if updates is None:
                continue
            fresh = self._parse([u for u in updates if self.ledger.is_new(u["update_id"])])
            await self._dispatch(fresh)
            if self.ledger.open:
                # Telegram answers at once while an update it gave is unconfirmed, with that
                # update again: poll when one has finished (at most a second from now).
                await _first_of(self.ledger.changed.wait(), stop.wait(), timeout=1.0)
            await self._prune()
        await self.drain()

    async def drain(self) -> None:
        """Wait for updates in flight, cancel those that take too long (they come again),
        and confirm to Telegram what finished."""
        if self.tasks:
            _, late = await asyncio.wait(set(self.tasks), timeout=self.drain_seconds)
            for task in late:
                task.cancel()
            if late:
                log.warning("%d updates unfinished at shutdown; they come again", len(late))
                await asyncio.wait(late)
        offset = self.ledger.offset()
        if offset is not None:
            with contextlib.suppress(TelegramError):
                await self.application.bot.get_updates(offset=offset, timeout=0, limit=1)

    def _parse(self, raw: list[dict[str, Any]]) -> list[Update]:
        """The new updates as objects; one that cannot be read is logged and passed over."""
        parsed = []
        for data in raw:
            try:
                parsed.append(Update.de_json(data, self.application.bot))
            except Exception:
                log.exception("update %s could not be read; skipped", data.get("update_id"))
                self.ledger.started(data["update_id"])
                self.ledger.finished(data["update_id"])
        return parsed

    async def _fetch(self, stop: asyncio.Event) -> list[dict[str, Any]] | None:
        """One getUpdates, unparsed (None when it failed or `stop` came first).

        Updates still in flight come back in every answer (the offset confirms only what
        finished), so only new ones are parsed: parsing them all again each time cost more
        than handling them (python-telegram-bot's get_updates parses every update)."""
        bot = self.application.bot
        data = {
            "timeout": self.poll_seconds,
            "offset": self.ledger.offset(),
            "allowed_updates": self.allowed_updates,
        }
        read_timeout = READ_TIMEOUT + self.poll_seconds
        poll = asyncio.ensure_future(bot._post("getUpdates", data, read_timeout=read_timeout))
        stopping = asyncio.ensure_future(stop.wait())
        await asyncio.wait({poll, stopping}, return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        if not poll.done():
            poll.cancel()
            with contextlib.suppress(asyncio.CancelledError, TelegramError):
                await poll
            return None
        try:
            updates = [u for u in poll.result() if isinstance(u, dict) and "update_id" in u]
        except InvalidToken:
            raise
        except RetryAfter as error:
            await _first_of(stop.wait(), timeout=_seconds(error.retry_after))
            return None
        except Conflict:
            log.error(
                "getUpdates conflict: another process polls with this bot's token "
                "(or a webhook is set); only one bot instance may run"
            )
            await self._back_off(stop)
            return None
        except (NetworkError, TelegramError) as error:
            log.warning("getUpdates failed (%s); trying again", error)
            await self._back_off(stop)
            return None
        self._failures = 0
        return updates

    async def _back_off(self, stop: asyncio.Event) -> None:
        self._failures += 1
        delay = min(MAX_BACKOFF, 0.5 * 2 ** min(self._failures, 6))
        await _first_of(stop.wait(), timeout=delay)

    async def _dispatch(self, updates: list[Update]) -> None:
        repeated = await self._already_handled([u.update_id for u in updates])
        for update in updates:
            self.ledger.started(update.update_id)
            if update.update_id in repeated:
                log.info("update %s was handled before a restart; skipped", update.update_id)
                await _stop_spinner(update)
                self.ledger.finished(update.update_id)
                continue
            task = asyncio.create_task(self._handle(update), name=f"update-{update.update_id}")
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _handle(self, update: Update) -> None:
        try:
            processor = self.application.update_processor
            await processor.process_update(update, self.application.process_update(update))
        except Exception:
            log.exception("update %s failed", update.update_id)
        # Not reached when cancelled at shutdown: unfinished, unconfirmed, it comes again.
        self.ledger.finished(update.update_id)

    def _services(self) -> Services | None:
        found: Services | None = self.application.bot_data.get("services")
        return found

    async def _already_handled(self, update_ids: list[int]) -> set[int]:
        services = self._services()
        if services is None or not update_ids:
            return set()
        try:
            if not self._high_water_read:
                self._handled_before = await services.store.updates.newest()
                self._high_water_read = True
            high = self._handled_before
            maybe = [u for u in update_ids if high is not None and u <= high]
            return await services.store.updates.among(maybe) if maybe else set()
        except Exception:  # the handlers will find out themselves, step by step
            log.warning("could not look up handled updates", exc_info=True)
            return set()

    async def _prune(self) -> None:
        services = self._services()
        now = asyncio.get_running_loop().time()
        recent = self._pruned_at is not None and now - self._pruned_at < PRUNE_EVERY
        if services is None or recent:
            return
        self._pruned_at = now
        try:
            gone = await services.store.updates.prune(services.now())
        except Exception:
            log.warning("could not prune handled updates", exc_info=True)
            return
        if gone:
            log.info("forgot %d old handled updates", gone)


async def serve(
    application: App,
    *,
    poll_seconds: int = POLL_SECONDS,
    shutdown_seconds: float = 25.0,
    receive_updates: bool = True,
) -> None:
    """Run the bot until SIGTERM or SIGINT: start up, poll, then stop cleanly within
    `shutdown_seconds`: no new update is taken, those in flight finish (about half the
    time), the sender finishes its sends or gives its claims back, the scheduler stops.
    With `receive_updates` false the worker only sends and fires deadlines."""
    stop = asyncio.Event()
    intake = Intake(application, poll_seconds=poll_seconds) if receive_updates else None

    def on_signal() -> None:
        if not stop.is_set():
            begin_shutdown(application, shutdown_seconds, intake)
            stop.set()

    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, on_signal)
    await application.initialize()
    try:
        if application.post_init is not None:
            await application.post_init(application)
        if intake is not None:
            await application.bot.delete_webhook()
        await application.start()
        if intake is not None:
            await intake.run(stop)
        else:
            log.info("taking no updates: this worker only sends and fires deadlines")
            await stop.wait()
        log.info("stopping")
    finally:
        await close_application(application)


def begin_shutdown(application: App, seconds: float, intake: Intake | None) -> Budget:
    """Start the shutdown budget (a second short of `seconds`, then the watchdog) and give
    the updates in flight half of it."""
    budget = Budget(max(0.5, seconds - 1.0))
    application.bot_data["shutdown"] = budget
    watchdog(seconds)
    if intake is not None:
        intake.drain_seconds = budget.seconds * 0.5
    log.info("shutdown requested: stopping within %.0f s", seconds)
    return budget


async def _first_of(*waits: Any, timeout: float) -> None:
    """Wait for the first of some awaitables (or the timeout); cancel the rest."""
    tasks = [asyncio.ensure_future(w) for w in waits]
    try:
        await asyncio.wait(tasks, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()


async def _stop_spinner(update: Update) -> None:
    """A repeated button press still gets its (empty) answer, if it is not too old."""
    if update.callback_query is not None:
        with contextlib.suppress(TelegramError):
            await update.callback_query.answer()


def _seconds(value: Any) -> float:
    return value.total_seconds() if hasattr(value, "total_seconds") else float(value)
