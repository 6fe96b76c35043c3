"""Stopping a worker: the time it has after SIGTERM (WHODUNIT_SHUTDOWN_SECONDS), and the
order in which the application is stopped."""

from __future__ import annotations

import logging
import os
import threading
import time

from bot.context import App

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
