"""Receiving updates from Telegram's webhook: checked, handled, then answered.

A request is answered only once its update has been handled to its end (its game
commands committed), so a process that dies before answering gets the update again.
The update runs through the Application's update processor like a polled one (per-key
order, the flood guard) with its id marked for storage.updates, so a repeated update
runs no game command twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
from typing import Any

from aiohttp import web
from telegram import Update
from telegram.error import TelegramError

from bot.context import App, CustomContext
from bot.services import Services

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


class WebhookReceiver:
    """The aiohttp handler of the webhook route."""

    def __init__(self, application: App, secret: str) -> None:
        self.application = application
        self._secret = secret.encode()
        self._running: dict[int, asyncio.Future[int]] = {}
        self._failed: set[int] = set()  # updates being handled whose handler failed
        application.add_error_handler(self._note_failure)

    async def _note_failure(self, update: object, context: CustomContext) -> None:
        """The error handler: a handler of an update being handled here failed."""
        if isinstance(update, Update) and update.update_id in self._running:
            self._failed.add(update.update_id)

    async def receive(self, request: web.Request) -> web.Response:
        """POST of one update: 403 without the secret, 400 if not an update, 200 once
        handled, 500 if handling failed."""
        given = request.headers.get(SECRET_HEADER, "").encode()
        if not hmac.compare_digest(given, self._secret):
            log.warning("webhook request refused: wrong or missing secret token")
            return web.Response(status=403, text="forbidden")
        try:
            data = json.loads(await request.text())
        except ValueError:
            data = None
        update = parse_update(data, self.application)
        if update is None:
            log.warning("webhook request refused: the body is not an update")
            return web.Response(status=400, text="not an update")
        status = await self.handle(update)
        return web.Response(status=status, text="ok" if status == 200 else "failed")

    async def handle(self, update: Update) -> int:
        """Handle one update; the HTTP status to answer (200 handled, 500 failed).

        The same update posted again while it is being handled waits for that handling.
        """
        running = self._running.get(update.update_id)
        if running is not None:
            return await asyncio.shield(running)
        mine: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._running[update.update_id] = mine
        status = 503  # cancelled (shutdown): unanswered, it comes again
        try:
            status = await self._run(update)
            return status
        finally:
            del self._running[update.update_id]
            mine.set_result(status)

    async def _run(self, update: Update) -> int:
        if await self._handled_before(update.update_id):
            log.info("update %s was handled before; skipped", update.update_id)
            await _stop_spinner(update)
            return 200
        try:
            processor = self.application.update_processor
            await processor.process_update(update, self.application.process_update(update))
        except Exception:
            log.exception("update %s failed", update.update_id)
            return 500
        finally:
            failed = update.update_id in self._failed
            self._failed.discard(update.update_id)
        return 500 if failed else 200

    async def _handled_before(self, update_id: int) -> bool:
        services: Services | None = self.application.bot_data.get("services")
        if services is None:
            return False
        try:
            return update_id in await services.store.updates.among([update_id])
        except Exception:  # the handlers will find out themselves, step by step
            log.warning("could not look up handled updates", exc_info=True)
            return False


async def _stop_spinner(update: Update) -> None:
    """A repeated button press still gets its (empty) answer, if it is not too old."""
    if update.callback_query is not None:
        with contextlib.suppress(TelegramError):
            await update.callback_query.answer()


def parse_update(data: Any, application: App) -> Update | None:
    """An Update from a decoded JSON body, or None if it is not one."""
    if not isinstance(data, dict):
        return None
    try:
        return Update.de_json(data, application.bot)
    except Exception:  # a field missing or of the wrong type
        return None
