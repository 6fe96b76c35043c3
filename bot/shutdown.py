"""Stopping a worker: the time it has after SIGTERM (WHODUNIT_SHUTDOWN_SECONDS), and the
order in which the application is stopped."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
import time

from bot.context import App
from bot.delivery.limiter import OutboundLimiter
from bot.delivery.sender import Sender
from bot.metrics import DatabaseGauges
from bot.services import Services

log = logging.getLogger(__name__)


class Budget:
    """Seconds left until the process must be gone; each step takes what it needs of them."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.ends = time.monotonic() + seconds

    def left(self, reserve: float = 0.0) -> float:
        """Seconds left, keeping `reserve` for the steps after this one (never below 0.1)."""
        return max(0.1, self.ends - time.monotonic() - reserve)


def watchdog(seconds: float) -> None:
    """Should a clean stop still hang past its budget, end the process (exit code 1): a
    supervisor would otherwise kill it anyway, and the leases cover what it held."""

    def expire() -> None:
        log.error("shutdown took longer than %.0f s; exiting now", seconds)
        logging.shutdown()
        os._exit(1)

    timer = threading.Timer(seconds, expire)
    timer.daemon = True
    timer.start()


async def close_application(application: App) -> None:
    """Stop, then shut down, with their hooks, in python-telegram-bot's order: post_stop runs
    while the bot's HTTP client is still open (the sends under way finish there), and
    post_shutdown after it is closed."""
    if application.running:
        await application.stop()
        if application.post_stop is not None:
            await application.post_stop(application)
    await application.shutdown()
    if application.post_shutdown is not None:
        await application.post_shutdown(application)


async def post_stop(application: App) -> None:
    """Stop the sender: it finishes the sends under way within the shutdown budget, while
    the bot's HTTP client is still open (a send cut off after Telegram took it would be
    given back, and sent again by another worker)."""
    gauges: DatabaseGauges | None = application.bot_data.get("metrics")
    if gauges is not None:
        await gauges.stop()
    stop = application.bot_data.get("stop")
    task: asyncio.Task[None] | None = application.bot_data.get("sender_task")
    services: Services | None = application.bot_data.get("services")
    budget = _budget(application)
    if stop is not None:
        stop.set()
    if services is not None:
        services.outbox_ready.set()  # wake the idle sender now rather than after its nap
    if task is not None and not task.done():
        sender: Sender = application.bot_data["sender"]
        sender.stop_within = budget.left(reserve=2.0)
        try:
            await asyncio.wait_for(task, timeout=budget.left(reserve=1.0))
        except TimeoutError:
            log.warning("the sender did not stop in time")


def _budget(application: App) -> Budget:
    """The shutdown budget SIGTERM started; without a signal, ten seconds from the first
    ask, shared by post_stop and post_shutdown."""
    budget: Budget = application.bot_data.setdefault("shutdown", Budget(10.0))
    return budget


async def post_shutdown(application: App) -> None:
    """This worker's remaining claims go back at once, for another worker to take; then the
    database and the limiter close. (The sender stopped in post_stop, or stops now if the
    application never started.)"""
    await post_stop(application)
    services: Services | None = application.bot_data.get("services")
    budget = _budget(application)
    if services is not None:
        worker = application.bot_data.get("worker")
        if worker is not None:
            with contextlib.suppress(Exception):
                released = await asyncio.wait_for(
                    services.store.workers.release_claims(worker), budget.left(reserve=0.5)
                )
                if released:
                    log.info("gave back %d claimed rows for other workers", released)
        services.notebooks.stop()
        with contextlib.suppress(Exception):  # let go: each ends at its next await
            await asyncio.wait_for(services.notebooks.warmed(), budget.left(reserve=0.5))
        await services.store.close()
    limiter: OutboundLimiter | None = application.bot_data.get("limiter")
    if limiter is not None:
        with contextlib.suppress(Exception):
            await limiter.close()
