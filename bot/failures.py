"""A handler that failed (a bug, a database gone) still answers the person: a button
press with an alert, a command (or anything written to the bot in private) with a reply
where it was written; the group's talk the bot only watched gets nothing. The failure is
logged with its traceback."""

from __future__ import annotations

import contextlib
import logging

from telegram import Update, User
from telegram.error import TelegramError

from bot.context import CustomContext
from bot.handlers.common import answer_toast, say, where
from bot.observe import note_failure
from locales import supported, t

log = logging.getLogger(__name__)


async def answer_failure(update: object, context: CustomContext) -> None:
    """Log the failure; the person still gets an answer: a button press its toast, and a
    command (or anything written to the bot in private) a reply saying so, through the
    outbox like every answer (none when that fails too, or while the flood guard holds the
    update's replies back)."""
    note_failure()
    log.error("handler failed", exc_info=context.error)
    if not isinstance(update, Update):
        return
    if update.callback_query is None:
        await _reply_failed(update, context)
        return
    query = update.callback_query
    try:
        await answer_toast(context, update, "toast.failed", alert=True)
    except Exception:  # the store itself, most likely: in the language the person's app reports
        with contextlib.suppress(TelegramError):
            await query.answer(_in_app_language(query.from_user, "toast.failed"), show_alert=True)


async def _reply_failed(update: Update, context: CustomContext) -> None:
    """A command's (or a private message's) failure told where it was written."""
    w = where(update)
    message = update.message
    if w is None or message is None:
        return
    if not w.private and not (message.text or "").startswith("/"):
        return  # a group's own talk the bot only watched: no reply in the thread
    try:
        await say(context, w, "reply.failed")
    except Exception:  # the store itself, most likely: then straight to Telegram
        log.exception("the failure could not be told through the outbox")
        if context.flags.held_back:
            return
        text = _in_app_language(w.user, "reply.failed")
        with contextlib.suppress(TelegramError):
            await message.reply_text(text, do_quote=not w.private)


def _in_app_language(user: User, key: str) -> str:
    """A plain catalog text in the language the person's Telegram app reports (when their
    own, stored one cannot be read)."""
    return t(supported(user.language_code), key)
