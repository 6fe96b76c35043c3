"""Sending one part of a text message (a long message goes as several parts, in order)."""

from __future__ import annotations

from telegram import InlineKeyboardMarkup
from telegram.error import TelegramError

from bot.delivery.limiter import Reservation
from bot.delivery.line import Line
from bot.delivery.outcomes import STOPPED, Outcome, Sent, of_error
from bot.delivery.raw import send_text
from storage.outbox import OutboxRow


async def send_part(
    line: Line,
    row: OutboxRow,
    reservation: Reservation,
    part: int,
    text: str,
    *,
    sent: tuple[int, ...],
    reply_to: int | None,
    markup: InlineKeyboardMarkup | None,
) -> Outcome:
    """Send part `part` of the row on one of its reserved slots (`sent`: the ids of the
    parts before it); what came of it."""
    try:
        async with line.sending:
            if line.stopping:
                return STOPPED
            message_id = await send_text(
                line.bot,
                row.chat_id,
                text,
                topic_id=row.topic_id,
                reply_to=reply_to,
                markup=markup,
                timeout=line.timeout,
            )
    except TelegramError as error:
        reservation.stamp(line.clock())
        return of_error(error, private=row.user_id is not None, part=part, sent=sent)
    reservation.stamp(line.clock())
    return Sent(message_id)
