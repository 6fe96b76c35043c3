"""Sending a post with the board's picture (sendPhoto, the text as its caption).

A photo whose answer was lost (a timeout after the upload went out) is a lost answer like
a text part's: Telegram may well have posted it, and the sender resends it only once.
"""

from __future__ import annotations

from telegram import InlineKeyboardMarkup
from telegram.error import TelegramError

from bot.delivery.limiter import Reservation
from bot.delivery.line import Line
from bot.delivery.outcomes import STOPPED, Outcome, Sent, of_error
from storage.outbox import OutboxRow


async def send_photo(
    line: Line,
    row: OutboxRow,
    reservation: Reservation,
    photo: bytes,
    caption: str,
    markup: InlineKeyboardMarkup | None,
) -> Outcome:
    """Send the row as one photo with its caption, on its reserved slot; what came of it."""
    try:
        async with line.sending:
            if line.stopping:
                return STOPPED
            message = await line.bot.send_photo(
                chat_id=row.chat_id,
                photo=photo,
                caption=caption,
                parse_mode="HTML",
                message_thread_id=row.topic_id or None,
                reply_markup=markup,
                read_timeout=line.timeout,
                write_timeout=line.timeout,
                **line.reserved(),
            )
    except TelegramError as error:
        return of_error(error, private=row.user_id is not None, part=0)
    finally:
        reservation.stamp(line.clock())
    return Sent(message.message_id)
