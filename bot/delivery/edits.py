"""Editing a message an earlier outbox row sent (a prompt closed, a post updated)."""

from __future__ import annotations

import re

from telegram import InlineKeyboardMarkup
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
) -> Outcome:
    """Edit message `target` of the row's chat on its reserved slot; what came of it.

    An edit sent twice shows the same, so a timeout is simply retried, and its mark may
    wait for the next ones written (lazy)."""
    try:
        async with line.sending:
            await edit_text(
                line.bot, row.chat_id, target, text, markup=markup, timeout=line.timeout
            )
    except BadRequest as error:
        if not UNCHANGED.search(error.message):
            return of_error(error, private=row.user_id is not None)
    except TelegramError as error:
        return of_error(error, private=row.user_id is not None)
    finally:
        reservation.stamp(line.clock())
    return Sent(target, lazy=True)
