"""Editing a message an earlier outbox row sent (a prompt closed, a post updated): its text,
or a picture's caption, or the picture itself when the board it shows has changed."""

from __future__ import annotations

import re

from telegram import InlineKeyboardMarkup, InputMediaPhoto
from telegram.error import BadRequest, TelegramError

from bot.delivery.limiter import Reservation
from bot.delivery.line import Line
from bot.delivery.outcomes import Outcome, Sent, of_error
from bot.delivery.raw import edit_text
from storage.outbox import OutboxRow

UNCHANGED = re.compile(r"not modified|message to edit not found", re.I)


async def edit(
    line: Line,
    row: OutboxRow,
    reservation: Reservation,
    target: int,
    text: str,
    markup: InlineKeyboardMarkup | None,
    *,
    caption: bool = False,
    photo: bytes | None = None,
) -> Outcome:
    """Edit message `target` of the row's chat on its reserved slot; what came of it: its
    text, or (`caption`) a picture's caption, or its picture (`photo`, the text its caption).

    An edit sent twice shows the same, so a timeout is simply retried, and its mark may
    wait for the next ones written (lazy)."""
    bot, chat, timeout = line.bot, row.chat_id, line.timeout
    try:
        async with line.sending:
            if photo is not None:
                media = InputMediaPhoto(photo, caption=text, parse_mode="HTML")
                await bot.edit_message_media(
                    media,
                    chat,
                    target,
                    reply_markup=markup,
                    read_timeout=timeout,
                    write_timeout=timeout,
                    **line.reserved(),
                )
            else:
                await edit_text(
                    bot, chat, target, text, markup=markup, timeout=timeout, caption=caption
                )
    except BadRequest as error:
        if not UNCHANGED.search(error.message):
            return of_error(error, private=row.user_id is not None)
    except TelegramError as error:
        return of_error(error, private=row.user_id is not None)
    finally:
        reservation.stamp(line.clock())
    return Sent(target, lazy=True)
