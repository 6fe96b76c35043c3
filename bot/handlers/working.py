"""The bot seen at work: while an answer takes longer than a ready one ever does (a notebook
worked out at the forum's ten seats takes a second or two), the person's chat shows
"sending a photo…" or "typing…", as Telegram's own apps show a person at work."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import TypeVar

from telegram.error import TelegramError

from bot.context import CustomContext
from bot.handlers.common import Where

log = logging.getLogger(__name__)

T = TypeVar("T")

SHOWN_AFTER = 0.3  # seconds: a sheet kept ready comes well within it
SHOWN_AGAIN = 4.5  # seconds: Telegram shows an action for five, or until the bot's next message


async def shown_working(context: CustomContext, w: Where, action: str, work: Awaitable[T]) -> T:
    """The work's result; while it runs past SHOWN_AFTER, the chat shows the action (again
    every SHOWN_AGAIN). The action is sent beside the work, never waited for: a slow or
    refused one (only logged) holds nothing back, and one still on its way when the work
    is done is dropped. None while the flood guard holds this update's replies back."""
    task = asyncio.ensure_future(work)
    shown: asyncio.Task[None] | None = None
    wait = SHOWN_AFTER
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=wait)
            if done:
                return task.result()
            if not context.flags.held_back and (shown is None or shown.done()):
                shown = asyncio.ensure_future(_show(context, w, action))
            wait = SHOWN_AGAIN
    finally:
        task.cancel()  # only when this handler was cancelled: a finished task keeps its result
        if shown is not None:
            shown.cancel()


async def _show(context: CustomContext, w: Where, action: str) -> None:
    try:
        await context.bot.send_chat_action(w.chat.id, action, message_thread_id=w.topic_id or None)
    except TelegramError as error:
        log.info("a chat action could not be shown: %s", type(error).__name__)
