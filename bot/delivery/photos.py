"""Sending a post with the board's picture (sendPhoto, the text as its caption).

A photo whose answer was lost (a timeout after the upload went out) is handled like a text
part: Telegram may well have posted it, so it is resent only once, after the sender's long
back-off, and taken as delivered if its answer is lost again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from telegram import InlineKeyboardMarkup
from telegram.error import TimedOut

from bot.delivery.limiter import Reservation

if TYPE_CHECKING:
    from bot.delivery.sender import Sender
    from storage.outbox import OutboxRow


async def send_photo(
    sender: Sender,
    row: OutboxRow,
    photo: bytes,
    caption: str,
    markup: InlineKeyboardMarkup | None,
) -> None:
    """Send the row as one photo with its caption; record the outcome."""
    from bot.delivery.sender import NOT_SENT  # the sender imports this module

    reservation = await sender.limiter.reserve(row.chat_id, 1)
    if not isinstance(reservation, Reservation):
        await sender._defer(row, reservation)
        return
    try:
        async with sender.sending:
            if sender.stopping:
                return  # left unmarked: given back at shutdown
            message = await sender.bot.send_photo(
                chat_id=row.chat_id,
                photo=photo,
                caption=caption,
                parse_mode="HTML",
                message_thread_id=row.topic_id or None,
                reply_markup=markup,
                read_timeout=sender.send_timeout,
                write_timeout=sender.send_timeout,
                **sender._reserved(),
            )
    except TimedOut as error:
        if isinstance(error.__cause__, NOT_SENT):
            raise  # it never reached Telegram: an ordinary retry
        await sender._lost_answer(row, 0, [], True)
        return
    finally:
        reservation.stamp(sender.clock())
        await sender._release(reservation)
    await sender._settled(row, message.message_id)
